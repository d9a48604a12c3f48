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
 * <li>{@link #system()}: the wall clock; due timers fire by themselves and always become deliveries;</li>
 * <li>{@link #scaled(double, Instant)}: {@code rate} times the wall clock from a given time (a week per minute, or 0
 *     for a frozen clock, changed later by {@link ClockClient#changeRate}); fires by itself, as a system clock.</li>
 * </ul>
 *
 * <p>Any of them can push instead of queueing: {@link #push(PushTarget)} makes the service POST each delivery to
 * the target.
 */
public final class ClockOptions {

    private enum Mode { VIRTUAL, SYSTEM, SCALED }

    private final Mode mode;
    private final long start;
    private final double rate;
    private final boolean queued;
    private final PushTarget push;
    private final RetryPolicy retry;
    private final long dedupeWindowMillis;
    private final FlowControl flow;

    private ClockOptions(Mode mode, long start, double rate, boolean queued, PushTarget push, RetryPolicy retry) {
        this(mode, start, rate, queued, push, retry, 0, null);
    }

    private ClockOptions(Mode mode, long start, double rate, boolean queued, PushTarget push, RetryPolicy retry,
                         long dedupeWindowMillis) {
        this(mode, start, rate, queued, push, retry, dedupeWindowMillis, null);
    }

    private ClockOptions(Mode mode, long start, double rate, boolean queued, PushTarget push, RetryPolicy retry,
                         long dedupeWindowMillis, FlowControl flow) {
        this.flow = flow;
        this.mode = mode;
        this.start = start;
        this.rate = rate;
        this.queued = queued;
        this.push = push;
        this.retry = retry;
        this.dedupeWindowMillis = dedupeWindowMillis;
    }

    /**
     * These settings, with each timer's id reserved for {@code window} after it left the pending set (fired,
     * acknowledged, cancelled): an add of it is refused {@code duplicate_id} meanwhile (docs/API.md, "Dedupe
     * windows"); 0 to 30 days.
     */
    public ClockOptions dedupeWindow(java.time.Duration window) {
        return new ClockOptions(mode, start, rate, queued, push, retry, Json.millis(window, "dedupeWindow"), flow);
    }

    /**
     * These settings, with {@code limits} on the deliveries handed out per key and for the clock
     * (docs/FLOW-CONTROL.md); for a clock that queues or pushes, on either store.
     */
    public ClockOptions flow(FlowControl limits) {
        return new ClockOptions(mode, start, rate, queued, push, retry, dedupeWindowMillis,
                Objects.requireNonNull(limits, "limits"));
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
        return new ClockOptions(Mode.VIRTUAL, startMillis, 0, false, null, null);
    }

    /** A virtual clock starting at {@code start} (its milliseconds since the epoch). */
    public static ClockOptions virtual(Instant start) {
        return virtual(start.toEpochMilli());
    }

    /** A clock on the wall clock (Unix epoch milliseconds): due timers fire by themselves and are queued. */
    public static ClockOptions system() {
        return new ClockOptions(Mode.SYSTEM, 0, 0, true, null, null);
    }

    /**
     * A clock that starts at {@code start} and runs {@code rate} clock milliseconds per wall-clock millisecond (0 to
     * 100,000 with at most 6 decimal places, as the service checks; 0 is frozen). Due timers fire by themselves and
     * are queued; an advance is refused with 409 {@code clock_not_virtual}.
     */
    public static ClockOptions scaled(double rate, Instant start) {
        return new ClockOptions(Mode.SCALED, start.toEpochMilli(), rate, true, null, null);
    }

    /** These settings, with fired timers becoming deliveries that workers claim ({@link TimerWorker}). */
    public ClockOptions queued() {
        return new ClockOptions(mode, start, rate, true, null, retry, dedupeWindowMillis, flow);
    }

    /**
     * These settings, with each delivery POSTed to {@code target} by the service (delivery {@code push}). The
     * service refuses a loopback, private or unresolvable target with 400 {@code target_not_allowed} unless it runs
     * with {@code timeservice.push.allow-private-targets=true}.
     */
    public ClockOptions push(PushTarget target) {
        return new ClockOptions(mode, start, rate, false, Objects.requireNonNull(target, "target"), retry,
                dedupeWindowMillis, flow);
    }

    /** These settings, with the given retry policy for deliveries. */
    public ClockOptions retry(RetryPolicy policy) {
        return new ClockOptions(mode, start, rate, queued, push, Objects.requireNonNull(policy, "policy"),
                dedupeWindowMillis, flow);
    }

    public boolean isSystem() {
        return mode == Mode.SYSTEM;
    }

    public boolean isQueued() {
        return queued;
    }

    ObjectNode json() {
        ObjectNode node = Json.object();
        if (mode != Mode.VIRTUAL) {
            node.put("mode", mode.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (mode == Mode.SCALED) {
            node.put("rate", rate);
        }
        if (mode != Mode.SYSTEM) {
            node.put("now", start);
        }
        if (push != null) {
            node.put("delivery", "push");
            node.set("push", push.json());
        } else if (mode == Mode.VIRTUAL) {
            node.put("delivery", queued ? "queue" : "response");
        }
        if (retry != null) {
            node.set("retry", retry.json());
        }
        if (dedupeWindowMillis > 0) {
            node.put("dedupeWindow", dedupeWindowMillis);
        }
        if (flow != null) {
            flow.putInto(node);
        }
        return node;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClockOptions that && mode == that.mode && start == that.start
                && Double.compare(rate, that.rate) == 0 && queued == that.queued && Objects.equals(push, that.push)
                && Objects.equals(retry, that.retry) && dedupeWindowMillis == that.dedupeWindowMillis
                && Objects.equals(flow, that.flow);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, start, rate, queued, push, retry, dedupeWindowMillis, flow);
    }

    @Override
    public String toString() {
        String base = switch (mode) {
            case VIRTUAL -> "virtual(" + start + ")";
            case SYSTEM -> "system()";
            case SCALED -> "scaled(" + rate + ", " + Instant.ofEpochMilli(start) + ")";
        };
        return base + (queued && mode == Mode.VIRTUAL ? ".queued()" : "") + (push == null ? "" : ".push(" + push + ")")
                + (retry == null ? "" : ".retry(" + retry + ")")
                + (dedupeWindowMillis == 0 ? "" : ".dedupeWindow(" + dedupeWindowMillis + "ms)")
                + (flow == null ? "" : ".flow(" + flow + ")");
    }
}
