package io.timeservice.model;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

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
 * @param keys             single keys' own limits ({@link FlowOverride}), by key, at most
 *                         {@link FlowRules#MAX_KEY_OVERRIDES}; never null. Changed by
 *                         {@code PUT/DELETE /clocks/{clock}/flow/keys/{key}}, not by the clock's {@code PUT}, which
 *                         compares settings {@link #withoutKeys without them}.
 */
public record FlowLimits(Integer concurrency, FlowRate rate, Integer burst, Integer clockConcurrency,
                         FlowRate clockRate, SortedMap<String, FlowOverride> keys) {

    public FlowLimits {
        keys = keys == null || keys.isEmpty() ? Collections.emptySortedMap()
                : Collections.unmodifiableSortedMap(new TreeMap<>(keys));
    }

    /** Limits without overrides for single keys. */
    public FlowLimits(Integer concurrency, FlowRate rate, Integer burst, Integer clockConcurrency,
                      FlowRate clockRate) {
        this(concurrency, rate, burst, clockConcurrency, clockRate, null);
    }

    /** These limits with {@code key}'s override {@code override} (null: none). O(k) for k overrides. */
    public FlowLimits withKey(String key, FlowOverride override) {
        TreeMap<String, FlowOverride> next = new TreeMap<>(keys);
        if (override == null) {
            next.remove(key);
        } else {
            next.put(key, override);
        }
        return new FlowLimits(concurrency, rate, burst, clockConcurrency, clockRate, next);
    }

    /** These limits without any override: what the clock's settings were made with. */
    public FlowLimits withoutKeys() {
        return keys.isEmpty() ? this : new FlowLimits(concurrency, rate, burst, clockConcurrency, clockRate);
    }

    /** {@code key}'s concurrency: its override's, else the clock's per-key one; null for none. */
    public Integer concurrencyOf(String key) {
        FlowOverride override = keys.get(key);
        return override != null && override.concurrency() != null ? override.concurrency() : concurrency;
    }

    /** {@code key}'s rate: its override's, else the clock's per-key one; null for none. */
    public FlowRate rateOf(String key) {
        FlowOverride override = keys.get(key);
        return override != null && override.rate() != null ? override.rate() : rate;
    }

    /**
     * The size of {@code key}'s bucket: its override's rate's limit, else {@code burst}, else the clock's rate's
     * limit; call only when {@link #rateOf} is not null.
     */
    public long burstOf(String key) {
        FlowOverride override = keys.get(key);
        if (override != null && override.rate() != null) {
            return override.rate().limit();
        }
        return burst != null ? burst : rate.limit();
    }

    /** Whether any member is set (a burst alone is refused by the rules, not dropped). */
    public boolean limits() {
        return concurrency != null || rate != null || burst != null || clockConcurrency != null || clockRate != null
                || !keys.isEmpty();
    }
}
