package io.timeservice.model;

/**
 * One key's own limits on a clock under flow control ({@code PUT /clocks/{clock}/flow/keys/{key}}), in place of the
 * clock's per-key {@link FlowLimits} for that key alone: a member set here wins, a member left null keeps the
 * clock's. A rate set here brings its own bucket of {@code rate.limit} tokens (the clock's burst is for its own rate).
 * Checked by {@link FlowRules#requireOverride}.
 *
 * @param concurrency most deliveries of the key in flight at once
 * @param rate        the key's rate
 */
public record FlowOverride(Integer concurrency, FlowRate rate) {
}
