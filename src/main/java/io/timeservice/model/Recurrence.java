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

    /**
     * The times in {@code (after, through]}, at most {@code max} of them: how many, and the last one counted. One
     * {@link #nextAfter} per time counted here; an interval overrides it with arithmetic ({@link #countsInO1}).
     */
    default Span count(long after, long through, long max) {
        long count = 0;
        long last = after;
        for (long time = nextAfter(after); count < max && time != NONE && time <= through; time = nextAfter(time)) {
            count++;
            last = time;
        }
        return new Span(count, last);
    }

    /** Whether {@link #count} costs O(1) however many times it counts (an interval's), not one step per time. */
    default boolean countsInO1() {
        return false;
    }

    /** {@link #count}'s answer: {@code count} times, the last at {@code last} (the start when none). */
    record Span(long count, long last) {
    }

    /** {@code start + k * every} for k >= 0. */
    static Recurrence every(long start, long every) {
        return new Every(start, every);
    }

    /** {@code start + k * every} for k >= 0, counted by arithmetic. */
    record Every(long start, long every) implements Recurrence {

        @Override
        public long nextAfter(long after) {
            if (after < start) {
                return start;
            }
            long k = (after - start) / every + 1;
            if (k > (Long.MAX_VALUE - start) / every) {
                return NONE;
            }
            return start + k * every;
        }

        @Override
        public Span count(long after, long through, long max) {
            long first = nextAfter(after);
            if (max <= 0 || first == NONE || first > through) {
                return new Span(0, after);
            }
            // times first + i * every <= through, i >= 0; through - first is >= 0, read unsigned in case it overflows
            long count = Math.min(max, Long.divideUnsigned(through - first, every) + 1);
            return new Span(count, first + (count - 1) * every);
        }

        @Override
        public boolean countsInO1() {
            return true;
        }
    }
}
