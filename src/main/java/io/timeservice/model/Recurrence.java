package io.timeservice.model;

/**
 * When a schedule's raw times fall: a pure function of an instant, with no start, end or limit applied (those are
 * {@link ScheduleTimes}'). Implementations are immutable and thread-safe, so one compiled recurrence serves any
 * number of calls.
 */
@FunctionalInterface
public interface Recurrence {

    /** {@link #nextAfter}'s answer when no time is left. */
    long NONE = Long.MIN_VALUE;

    /** The first time strictly after {@code after} (epoch ms), or {@link #NONE}. */
    long nextAfter(long after);

    /** {@code start + k * every} for k >= 0. */
    static Recurrence every(long start, long every) {
        return after -> {
            if (after < start) {
                return start;
            }
            long k = (after - start) / every + 1;
            if (k > (Long.MAX_VALUE - start) / every) {
                return NONE;
            }
            return start + k * every;
        };
    }
}
