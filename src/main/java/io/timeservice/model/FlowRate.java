package io.timeservice.model;

/**
 * A rate limit: at most {@code limit} deliveries per {@code periodMillis} of the clock's time, as a token bucket that
 * gains {@code limit} tokens every {@code periodMillis}, continuously, and spends one per delivery. Checked by
 * {@link FlowRules#requireRate}.
 *
 * @param limit        tokens per period, 1 to {@link FlowRules#MAX_RATE_LIMIT}
 * @param periodMillis the period in the clock's milliseconds, 1 to {@link FlowRules#MAX_PERIOD_MILLIS}
 */
public record FlowRate(long limit, long periodMillis) {
}
