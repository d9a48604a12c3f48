package io.timeservice.model;

/**
 * When a timer is to fire, as the caller said it: a delay from the clock's now, or a clock time (Unix epoch
 * milliseconds, the reading of every clock). A store turns it into a fireTime with {@link TimeRules#fireTime} under the
 * lock (or in the transaction) that reads now, so that the clock cannot move between reading now and adding the
 * timer.
 */
public sealed interface Due {

    static Due after(long delay) {
        return new After(delay);
    }

    static Due at(long time) {
        return new At(time);
    }

    /** Due {@code delay} ms after the clock's now. */
    record After(long delay) implements Due {
    }

    /** Due at clock time {@code time}; a time before now is due now. */
    record At(long time) implements Due {
    }
}
