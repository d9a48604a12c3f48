package io.timeservice.model;

/**
 * A clock's flow control (issue 44): limits on the deliveries handed out, per key ({@link Timer#key}; the timers
 * without a key share the empty key) and for the clock as a whole. A ready delivery whose key, or whose clock, is at
 * its concurrency (deliveries in flight) or out of rate tokens is held back, never lost and never reordered within its
 * key; claims and the pusher take the next eligible delivery instead, round robin over the keys. Every member may be
 * null: that limit does not apply. Checked by {@link FlowRules#require}.
 *
 * @param concurrency      most deliveries of one key in flight at once
 * @param rate             each key's rate
 * @param burst            the size of each key's token bucket (the most deliveries one key may take at once after a
 *                         quiet time); null: the rate's limit. Only with {@code rate}.
 * @param clockConcurrency most deliveries of the whole clock in flight at once
 * @param clockRate        the whole clock's rate, whose bucket holds the rate's limit
 */
public record FlowLimits(Integer concurrency, FlowRate rate, Integer burst, Integer clockConcurrency,
                         FlowRate clockRate) {

    /** Each key's bucket size: {@code burst}, or the rate's limit. */
    public long keyBurst() {
        return burst != null ? burst : rate.limit();
    }

    /** Whether any member is set (a burst alone is refused by the rules, not dropped). */
    public boolean limits() {
        return concurrency != null || rate != null || burst != null || clockConcurrency != null || clockRate != null;
    }
}
