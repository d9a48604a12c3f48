package io.timeservice.client;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The settings of a clock to create. Immutable; each method answers a new value, so they chain:
 * {@code ClockOptions.virtual(0).queued().retry(RetryPolicy.defaults().withMaxAttempts(3))}.
 *
 * <ul>
 * <li>{@link #virtual(long)}: time is virtual milliseconds and moves only when a client advances it; what fires is
 *     answered by the advance, and, with {@link #queued()}, also becomes deliveries for workers;</li>
 * <li>{@link #system()}: the wall clock; due timers fire by themselves and always become deliveries.</li>
 * </ul>
 */
public final class ClockOptions {

    private final boolean system;
    private final long start;
    private final boolean queued;
    private final RetryPolicy retry;

    private ClockOptions(boolean system, long start, boolean queued, RetryPolicy retry) {
        this.system = system;
        this.start = start;
        this.queued = queued;
        this.retry = retry;
    }

    /** A virtual clock starting at 0. */
    public static ClockOptions virtual() {
        return virtual(0);
    }

    /** A virtual clock starting at {@code startMillis} virtual milliseconds. */
    public static ClockOptions virtual(long startMillis) {
        if (startMillis < 0) {
            throw new IllegalArgumentException("start must be >= 0: " + startMillis);
        }
        return new ClockOptions(false, startMillis, false, null);
    }

    /** A virtual clock starting at {@code start} (its milliseconds since the epoch). */
    public static ClockOptions virtual(Instant start) {
        return virtual(start.toEpochMilli());
    }

    /** A clock on the wall clock (Unix epoch milliseconds): due timers fire by themselves and are queued. */
    public static ClockOptions system() {
        return new ClockOptions(true, 0, true, null);
    }

    /** These settings, with fired timers becoming deliveries that workers claim ({@link TimerWorker}). */
    public ClockOptions queued() {
        return new ClockOptions(system, start, true, retry);
    }

    /** These settings, with the given retry policy for deliveries. */
    public ClockOptions retry(RetryPolicy policy) {
        return new ClockOptions(system, start, queued, Objects.requireNonNull(policy, "policy"));
    }

    public boolean isSystem() {
        return system;
    }

    public boolean isQueued() {
        return queued;
    }

    ObjectNode json() {
        ObjectNode node = Json.object();
        if (system) {
            node.put("mode", "system");
        } else {
            node.put("now", start);
            node.put("delivery", queued ? "queue" : "response");
        }
        if (retry != null) {
            node.set("retry", retry.json());
        }
        return node;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClockOptions that && system == that.system && start == that.start
                && queued == that.queued && Objects.equals(retry, that.retry);
    }

    @Override
    public int hashCode() {
        return Objects.hash(system, start, queued, retry);
    }

    @Override
    public String toString() {
        return (system ? "system" : "virtual(" + start + ")") + (queued ? ".queued()" : "")
                + (retry == null ? "" : ".retry(" + retry + ")");
    }
}
