package io.timeservice.store.memory;

import io.timeservice.model.FlowRate;

/**
 * A rate limit's token bucket, refilled on the clock's time alone (so a virtual clock steps it exactly): it gains
 * {@code limit} tokens every {@code period} ms, continuously, up to {@code burst} tokens, and a delivery spends one.
 * Kept in whole units of 1/period token, so a refill is exact integer arithmetic: a token is {@code period} units and
 * every millisecond adds {@code limit} units. A bucket never used is full.
 *
 * <p>Cost: every call O(1), no allocation. Not thread-safe: its clock's lock guards it.
 */
final class TokenBucket {

    private final long limit;
    private final long period;
    /** The most units the bucket holds: burst tokens. At most 10^6 * 8.64 * 10^7, far from overflow. */
    private final long capacity;
    /** Units held at {@link #refilledAt}. */
    private long units;
    /** The clock time the units were counted at; {@link Long#MIN_VALUE} while the bucket was never used (full). */
    private long refilledAt = Long.MIN_VALUE;

    TokenBucket(FlowRate rate, long burst) {
        this.limit = rate.limit();
        this.period = rate.periodMillis();
        this.capacity = burst * period;
    }

    /** Whole tokens held at {@code now} (not before the last refill), without changing the bucket. */
    long tokensAt(long now) {
        return unitsAt(now) / period;
    }

    /** Spends one token at {@code now}; call only when {@link #tokensAt} is at least 1 there. */
    void take(long now) {
        units = unitsAt(now) - period;
        refilledAt = Math.max(now, refilledAt);
    }

    /** When the next whole token is there, counting from {@code now}; {@code now} when one is there already. */
    long nextTokenAt(long now) {
        long held = unitsAt(now);
        if (held >= period) {
            return now;
        }
        long at = Math.max(now, refilledAt);
        return at + ceilDiv(period - held, limit);
    }

    /**
     * A bucket at {@code rate} of {@code burst} tokens holding the whole tokens this one holds at {@code now} (at most
     * {@code burst}): a key's override changed. A bucket never used stays one never used (full).
     */
    TokenBucket retuned(FlowRate rate, long burst, long now) {
        TokenBucket next = new TokenBucket(rate, burst);
        if (refilledAt != Long.MIN_VALUE) {
            next.units = Math.min(burst, tokensAt(now)) * next.period;
            next.refilledAt = Math.max(now, refilledAt);
        }
        return next;
    }

    /** Whether the bucket is full at {@code now}: it then behaves as one never used. */
    boolean fullAt(long now) {
        return unitsAt(now) == capacity;
    }

    private long unitsAt(long now) {
        if (refilledAt == Long.MIN_VALUE) {
            return capacity;
        }
        if (now <= refilledAt) {
            return units;
        }
        long missing = capacity - units;
        long elapsed = now - refilledAt;
        return elapsed >= ceilDiv(missing, limit) ? capacity : units + elapsed * limit;
    }

    /** {@code a / b} rounded up, for {@code a >= 0} and {@code b > 0} (Math.ceilDiv is Java 18). */
    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
