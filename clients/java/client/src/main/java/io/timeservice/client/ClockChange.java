package io.timeservice.client;

import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change of a live clock's settings ({@link ClockClient#change}, {@code PATCH /clocks/{clock}}): pause or resume
 * it, give it a new retry policy, or new clock-wide flow limits (on a clock made with {@link ClockOptions#flow}).
 * Immutable; each method answers a new value: {@code ClockChange.none().retry(policy).clockConcurrency(4)}. A member
 * left unset keeps the clock's; at least one is set. Mode, delivery, push target, dedupe window and per-key limits
 * stay as the clock was made.
 */
public final class ClockChange {

    private final Boolean paused;
    private final RetryPolicy retry;
    /** The clock-wide limits to set (only {@code clockConcurrency} and {@code clockRate}), or null for none. */
    private final FlowControl clockLimits;

    private ClockChange(Boolean paused, RetryPolicy retry, FlowControl clockLimits) {
        this.paused = paused;
        this.retry = retry;
        this.clockLimits = clockLimits;
    }

    /** Nothing changed yet: set what to change with the methods below. */
    public static ClockChange none() {
        return new ClockChange(null, null, null);
    }

    /** Pauses ({@code true}) or resumes the clock: {@link ClockClient#pause}, {@link ClockClient#resume}. */
    public ClockChange paused(boolean pause) {
        return new ClockChange(pause, retry, clockLimits);
    }

    /** The retry policy, from the next failed attempt on. */
    public ClockChange retry(RetryPolicy policy) {
        return new ClockChange(paused, Objects.requireNonNull(policy, "policy"), clockLimits);
    }

    /** At most {@code n} deliveries of the whole clock in flight at once, from the next claim on. */
    public ClockChange clockConcurrency(int n) {
        return new ClockChange(paused, retry, limits().clockConcurrency(n));
    }

    /** The whole clock's rate, from the next claim on. */
    public ClockChange clockRate(FlowRate whole) {
        return new ClockChange(paused, retry, limits().clockRate(whole));
    }

    private FlowControl limits() {
        return clockLimits == null ? FlowControl.perKey() : clockLimits;
    }

    ObjectNode json() {
        if (paused == null && retry == null && clockLimits == null) {
            throw new IllegalArgumentException("a clock change sets at least one of paused, retry, clockConcurrency"
                    + " and clockRate");
        }
        ObjectNode node = Json.object();
        if (paused != null) {
            node.put("paused", paused);
        }
        if (retry != null) {
            node.set("retry", retry.json());
        }
        if (clockLimits != null) {
            clockLimits.putInto(node); // clockConcurrency and clockRate: it holds no per-key limit
        }
        return node;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClockChange that && Objects.equals(paused, that.paused)
                && Objects.equals(retry, that.retry) && Objects.equals(clockLimits, that.clockLimits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(paused, retry, clockLimits);
    }

    @Override
    public String toString() {
        return "ClockChange.none()" + (paused == null ? "" : ".paused(" + paused + ")")
                + (retry == null ? "" : ".retry(" + retry + ")")
                + (clockLimits == null ? "" : " with clock limits " + clockLimits);
    }
}
