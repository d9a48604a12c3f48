package io.timeservice.core;

import java.util.List;

/** What one advance did: the clock's new time and every timer it fired, in firing order. */
public record AdvanceResult(long now, List<Timer> fired) {

    public AdvanceResult {
        fired = List.copyOf(fired);
    }
}
