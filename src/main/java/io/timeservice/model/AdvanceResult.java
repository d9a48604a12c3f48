package io.timeservice.model;

import java.util.List;

/**
 * What one advance did: the clock's new time and every timer it fired, in firing order; {@code complete} is false
 * when a bounded advance stopped at its limit with more timers due (the clock then stands at the last fired one).
 */
public record AdvanceResult(long now, List<Timer> fired, boolean complete) {

    public AdvanceResult {
        fired = List.copyOf(fired);
    }

    /** An advance that fired everything due. */
    public AdvanceResult(long now, List<Timer> fired) {
        this(now, fired, true);
    }
}
