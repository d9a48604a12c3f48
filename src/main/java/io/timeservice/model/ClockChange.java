package io.timeservice.model;

/**
 * A change of a live clock's settings (issue 47): its pause, its retry policy, its clock-wide flow limits and its
 * push target, each null to keep it. What a clock is made as (mode, delivery, rate, dedupe window, per-key flow
 * limits, whether it has flow control at all) stays; the overrides of single keys change on their own
 * ({@link FlowLimits#keys}). Both stores apply a change at once and durably: a paused clock hands out no delivery
 * (claims and the pusher find none ready, retries neither) until it is resumed, then the held deliveries go in the
 * clock's ready order; a retry policy applies to the next failed attempt (a delivery already waiting keeps its retry
 * time); flow limits apply to the next claim, the clock's bucket keeping the whole tokens it holds.
 *
 * @param paused           true to pause, false to resume
 * @param retry            the whole new retry policy
 * @param clockConcurrency the clock's new concurrency (only on a clock with flow control)
 * @param clockRate        the clock's new rate (only on a clock with flow control)
 * @param push             a push clock's new target
 */
public record ClockChange(Boolean paused, RetryPolicy retry, Integer clockConcurrency, FlowRate clockRate,
                          PushTarget push) {

    /** A pause ({@code true}) or a resume. */
    public static ClockChange pause(boolean paused) {
        return new ClockChange(paused, null, null, null, null);
    }

    /**
     * The settings {@code current} become, checked as a made clock's are.
     *
     * @throws ProblemException {@code invalid_request} for a change of nothing, a pause of a clock without deliveries,
     *                          clock-wide flow limits on a clock without flow control, a push target on a clock that
     *                          does not push, or limits out of range
     */
    public ClockSettings applyTo(ClockSettings current) {
        if (paused == null && retry == null && clockConcurrency == null && clockRate == null && push == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a change of a clock names at least one of paused,"
                    + " retry, clockConcurrency, clockRate, push");
        }
        ClockSettings next = current;
        if (retry != null) {
            next = next.withRetry(retry);
        }
        if (clockConcurrency != null || clockRate != null) {
            FlowLimits flow = current.flow();
            if (flow == null) {
                throw ClockRules.flowSetAtCreation();
            }
            next = next.withFlow(new FlowLimits(flow.concurrency(), flow.rate(), flow.burst(),
                    clockConcurrency != null ? clockConcurrency : flow.clockConcurrency(),
                    clockRate != null ? clockRate : flow.clockRate(), flow.keys()));
        }
        if (push != null) {
            if (!current.pushes()) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "push is only for delivery \"push\"");
            }
            next = next.withPush(push);
        }
        if (paused != null) {
            next = next.withPaused(paused); // refused on a clock that answers advances (no deliveries to hold back)
        }
        return next;
    }
}
