package io.timeservice.store.postgres;

import io.timeservice.model.FlowRate;

/**
 * A token bucket as a {@code flow_keys} row keeps it (issue 44), with the memory store's arithmetic: whole units of
 * 1/period token, a token is {@code period} units and every millisecond of the clock's time adds {@code limit} units,
 * up to {@code burst} tokens; a bucket never used is full. So an advance of a virtual clock steps a rate exactly.
 *
 * @param units      units held at {@code refilledAt}
 * @param refilledAt the clock time the units were counted at; null while the bucket was never used (full)
 */
record FlowBucket(long units, Long refilledAt) {

    /** A bucket never used: full. */
    static final FlowBucket FULL = new FlowBucket(0, null);

    /** The bucket of a row's {@code units} and {@code refilled_at} (null: never used). */
    static FlowBucket of(Long units, Long refilledAt) {
        return refilledAt == null ? FULL : new FlowBucket(units == null ? 0 : units, refilledAt);
    }

    /** Whole tokens held at {@code now} under {@code rate} in a bucket of {@code burst} tokens. */
    long tokensAt(FlowRate rate, long burst, long now) {
        return unitsAt(rate, burst, now) / rate.periodMillis();
    }

    /** The bucket after {@code tokens} were spent at {@code now}; call only with that many held there. */
    FlowBucket take(FlowRate rate, long burst, long now, long tokens) {
        long at = refilledAt == null ? now : Math.max(now, refilledAt);
        return new FlowBucket(unitsAt(rate, burst, now) - tokens * rate.periodMillis(), at);
    }

    private long unitsAt(FlowRate rate, long burst, long now) {
        long capacity = burst * rate.periodMillis();
        if (refilledAt == null) {
            return capacity;
        }
        if (now <= refilledAt) {
            return units;
        }
        long missing = capacity - units;
        long elapsed = now - refilledAt;
        return elapsed >= (missing + rate.limit() - 1) / rate.limit() ? capacity : units + elapsed * rate.limit();
    }
}
