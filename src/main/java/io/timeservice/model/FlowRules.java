package io.timeservice.model;

/**
 * The rulebook's flow control: the ranges of a clock's {@link FlowLimits} and {@link FlowRate}s, which clocks take
 * them, and the refusals of both stores. Each message names the member and the offending value.
 */
public final class FlowRules {

    /** Most deliveries in flight a concurrency limit names (per key or per clock). */
    public static final int MAX_CONCURRENCY = 1_000_000;
    /** Most tokens per period a rate names, and the largest burst. */
    public static final long MAX_RATE_LIMIT = 1_000_000;
    /** Longest period of a rate: one day of the clock's time. */
    public static final long MAX_PERIOD_MILLIS = 86_400_000;

    private FlowRules() {
    }

    /**
     * Refuses limits out of range ({@code invalid_request}): concurrencies 1 to {@value #MAX_CONCURRENCY}, rates
     * 1 to {@value #MAX_RATE_LIMIT} per 1 to {@value #MAX_PERIOD_MILLIS} ms, a burst 1 to {@value #MAX_RATE_LIMIT}
     * and only with a rate; flow control is for a clock whose fired timers are deliveries ({@code queues}).
     */
    public static void require(FlowLimits flow, boolean queues) {
        if (flow == null) {
            return;
        }
        if (!queues) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "flow, clockConcurrency and clockRate are for a"
                    + " clock whose fired timers are deliveries: delivery \"queue\" or \"push\"");
        }
        requireConcurrency(flow.concurrency(), "flow.concurrency");
        requireRate(flow.rate(), "flow.rate");
        if (flow.burst() != null) {
            if (flow.rate() == null) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "flow.burst is the size of each key's rate"
                        + " bucket: it needs flow.rate");
            }
            requireRange(flow.burst(), 1, MAX_RATE_LIMIT, "flow.burst");
        }
        requireConcurrency(flow.clockConcurrency(), "clockConcurrency");
        requireRate(flow.clockRate(), "clockRate");
    }

    /** A concurrency limit named {@code member}: null, or 1 to {@value #MAX_CONCURRENCY}. */
    public static void requireConcurrency(Integer concurrency, String member) {
        if (concurrency != null) {
            requireRange(concurrency, 1, MAX_CONCURRENCY, member);
        }
    }

    /** A rate named {@code member}: null, or a limit and a period in range. */
    public static void requireRate(FlowRate rate, String member) {
        if (rate != null) {
            requireRange(rate.limit(), 1, MAX_RATE_LIMIT, member + ".limit");
            requireRange(rate.periodMillis(), 1, MAX_PERIOD_MILLIS, member + ".period");
        }
    }

    private static void requireRange(long value, long min, long max, String member) {
        if (value < min || value > max) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, member + " must be between " + min + " and " + max
                    + ", got " + value);
        }
    }
}
