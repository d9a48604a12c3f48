package io.timeservice.model;


/**
 * A fired timer on its way to a worker, as the API shows it. Delivery is at least once: a consumer deduplicates on
 * {@code sequence}, which no other timer or delivery of the service ever has.
 *
 * @param id         the timer's id (may be scheduled again while this delivery is pending)
 * @param fireTime   when the timer was due, in the clock's milliseconds
 * @param priority   the timer's priority
 * @param sequence   the timer's sequence: tells deliveries of one id apart
 * @param payload    the timer's payload as JSON text, or null
 * @param attempt    1 for the first delivery, one more for each retry
 * @param state      where the delivery is
 * @param claim      the claim token of the current lease (in flight only), else null
 * @param leaseUntil when the current lease ends (in flight only), else 0
 * @param retryAt    when a waiting delivery becomes ready again (waiting only), else 0
 * @param readyAt    when it last became ready: its fireTime, a retry's time, or a redrive's
 * @param deadReason why it died (dead only), else null
 * @param schedule   the schedule whose occurrence fired, or null for a client's timer
 * @param traceContext the W3C trace context of the request that added the timer ({@link TraceContext}), or null
 * @param key        the timer's flow-control key, or null (the empty key)
 */
public record Delivery(String id, long fireTime, int priority, long sequence, String payload, int attempt,
                       State state, String claim, long leaseUntil, long retryAt, long readyAt, String deadReason,
                       String schedule, String traceContext, String key) {

    /** A delivery without a trace context or a flow-control key. */
    public Delivery(String id, long fireTime, int priority, long sequence, String payload, int attempt,
                    State state, String claim, long leaseUntil, long retryAt, long readyAt, String deadReason,
                    String schedule) {
        this(id, fireTime, priority, sequence, payload, attempt, state, claim, leaseUntil, retryAt, readyAt,
                deadReason, schedule, null, null);
    }

    /** A delivery without a flow-control key. */
    public Delivery(String id, long fireTime, int priority, long sequence, String payload, int attempt,
                    State state, String claim, long leaseUntil, long retryAt, long readyAt, String deadReason,
                    String schedule, String traceContext) {
        this(id, fireTime, priority, sequence, payload, attempt, state, claim, leaseUntil, retryAt, readyAt,
                deadReason, schedule, traceContext, null);
    }

    /** This delivery with the trace context {@code context} (null: none). */
    public Delivery withTraceContext(String context) {
        return new Delivery(id, fireTime, priority, sequence, payload, attempt, state, claim, leaseUntil, retryAt,
                readyAt, deadReason, schedule, context, key);
    }

    /** This delivery under the flow-control key {@code flowKey} (null: none). */
    public Delivery withKey(String flowKey) {
        return new Delivery(id, fireTime, priority, sequence, payload, attempt, state, claim, leaseUntil, retryAt,
                readyAt, deadReason, schedule, traceContext, flowKey);
    }

    /** The delivery of a client's timer, no schedule's occurrence. */
    public Delivery(String id, long fireTime, int priority, long sequence, String payload, int attempt,
                    State state, String claim, long leaseUntil, long retryAt, long readyAt, String deadReason) {
        this(id, fireTime, priority, sequence, payload, attempt, state, claim, leaseUntil, retryAt, readyAt,
                deadReason, null);
    }

    public enum State { READY, IN_FLIGHT, WAITING, DEAD }
}
