package io.timeservice.model;

import java.util.List;

/** The first pending timers in firing order, with the clock and the total count, read under one lock. */
public record QueueListing(long now, int size, List<Timer> timers) {

    public QueueListing {
        timers = List.copyOf(timers);
    }
}
