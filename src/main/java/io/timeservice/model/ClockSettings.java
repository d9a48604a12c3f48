package io.timeservice.model;

import java.util.Locale;


/**
 * How a clock keeps time and hands out what fires.
 *
 * @param mode     {@link Mode#VIRTUAL}: time moves only by advance; {@link Mode#SYSTEM}: time is the wall clock
 *                 (Unix epoch milliseconds) and due timers fire by themselves; {@link Mode#SCALED}: time runs at
 *                 {@code rate} times the wall clock from where it was created or its rate last changed, and due
 *                 timers fire by themselves
 * @param delivery {@link DeliveryMode#RESPONSE}: an advance returns what it fired and that is all;
 *                 {@link DeliveryMode#QUEUE}: fired timers become deliveries that workers claim and acknowledge;
 *                 {@link DeliveryMode#PUSH}: they become deliveries that the service POSTs to {@code push}'s target
 * @param retry    how a queued or pushed delivery is retried
 * @param rate     a scaled clock's rate (its current one: a rate change changes the settings); null for the others
 * @param push     where a push clock's deliveries go; null for every other delivery mode
 * @param dedupeWindowMillis how long (clock milliseconds) an id stays reserved after its timer left the pending set
 *                 ({@link Reservation}); 0, no reservations, by default; at most {@link Limits#MAX_DEDUPE_WINDOW}
 * @param flow     flow control of a queueing or push clock's deliveries, per key and for the clock; null: none
 * @param paused   whether the clock holds its ready deliveries back: none is claimed or pushed (a retry neither) until
 *                 it is resumed; timers are still added and fire into deliveries ({@link ClockChange}); only for a
 *                 clock that queues or pushes
 */
public record ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate, PushTarget push,
                            long dedupeWindowMillis, FlowLimits flow, boolean paused) {

    public enum Mode { VIRTUAL, SYSTEM, SCALED }

    /** Ordinals are written in the journal: new modes go at the end. */
    public enum DeliveryMode { RESPONSE, QUEUE, PUSH }

    /** A virtual clock whose advances answer with what they fired: the contract before real time existed. */
    public static final ClockSettings VIRTUAL = new ClockSettings(Mode.VIRTUAL, DeliveryMode.RESPONSE,
            RetryPolicy.DEFAULT);

    /** A system clock that delivers through its queue with the default retry policy. */
    public static final ClockSettings SYSTEM = new ClockSettings(Mode.SYSTEM, DeliveryMode.QUEUE,
            RetryPolicy.DEFAULT);

    public ClockSettings {
        if (mode == null || delivery == null || retry == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a clock needs a mode, a delivery and a retry"
                    + " policy");
        }
        if (mode != Mode.VIRTUAL && delivery == DeliveryMode.RESPONSE) {
            // nobody calls advance on a clock that fires by itself, so its fired timers would have nowhere to go
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a " + mode.name().toLowerCase(Locale.ROOT)
                    + " clock delivers through its queue: delivery \"response\" needs a virtual clock");
        }
        if ((mode == Mode.SCALED) != (rate != null)) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, mode == Mode.SCALED
                    ? "a scaled clock needs a rate" : "rate is only for scaled clocks (mode \"scaled\")");
        }
        if ((delivery == DeliveryMode.PUSH) != (push != null)) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, delivery == DeliveryMode.PUSH
                    ? "delivery \"push\" needs a push target (push.url)"
                    : "push is only for delivery \"push\"");
        }
        ClockRules.requireDedupeWindow(dedupeWindowMillis);
        if (flow != null && !flow.limits()) {
            flow = null; // no limit at all is no flow control: one form for settings that behave alike
        }
        FlowRules.require(flow, delivery != DeliveryMode.RESPONSE);
        if (paused && delivery == DeliveryMode.RESPONSE) {
            throw ClockRules.pauseWithoutDeliveries();
        }
    }

    /** Settings of a clock that runs (not paused). */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate, PushTarget push,
                         long dedupeWindowMillis, FlowLimits flow) {
        this(mode, delivery, retry, rate, push, dedupeWindowMillis, flow, false);
    }

    /** Settings without a dedupe window or flow control. */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate, PushTarget push) {
        this(mode, delivery, retry, rate, push, 0, null);
    }

    /** Settings without flow control. */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate, PushTarget push,
                         long dedupeWindowMillis) {
        this(mode, delivery, retry, rate, push, dedupeWindowMillis, null);
    }

    /** Settings without a dedupe window. */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate, PushTarget push,
                         FlowLimits flow) {
        this(mode, delivery, retry, rate, push, 0, flow);
    }

    /** Settings of a clock that is not scaled and does not push. */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        this(mode, delivery, retry, null, null);
    }

    /** Settings of a clock that does not push. */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate) {
        this(mode, delivery, retry, rate, null);
    }

    /** The settings for {@code mode} with each unset part at its default (a system clock queues its deliveries). */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        return of(mode, delivery, retry, null, null);
    }

    /**
     * The settings for {@code mode} (null: virtual) with each unset part at its default: a clock that fires by itself
     * queues its deliveries.
     */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate) {
        return of(mode, delivery, retry, rate, null);
    }

    /** As {@link #of(Mode, DeliveryMode, RetryPolicy, ClockRate)}, with a push target (a clock with one pushes). */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate,
                                   PushTarget push) {
        Mode m = mode == null ? Mode.VIRTUAL : mode;
        DeliveryMode d = delivery != null ? delivery : push != null ? DeliveryMode.PUSH
                : m == Mode.VIRTUAL ? DeliveryMode.RESPONSE : DeliveryMode.QUEUE;
        return new ClockSettings(m, d, retry == null ? RetryPolicy.DEFAULT : retry, rate, push);
    }

    public boolean isSystem() {
        return mode == Mode.SYSTEM;
    }

    public boolean isScaled() {
        return mode == Mode.SCALED;
    }

    /** Whether due timers fire by themselves (system and scaled clocks), so that advance is refused. */
    public boolean firesByItself() {
        return mode != Mode.VIRTUAL;
    }

    /** These settings at another rate: what a scaled clock's rate change leaves. */
    public ClockSettings withRate(ClockRate next) {
        return new ClockSettings(mode, delivery, retry, next, push, dedupeWindowMillis, flow, paused);
    }

    /** These settings with ids reserved for {@code windowMillis} after their timers left. */
    public ClockSettings withDedupeWindow(long windowMillis) {
        return new ClockSettings(mode, delivery, retry, rate, push, windowMillis, flow, paused);
    }

    /** Whether ids stay reserved after their timers left the pending set. */
    public boolean dedupes() {
        return dedupeWindowMillis > 0;
    }

    /** These settings with flow control {@code limits} (null: none). */
    public ClockSettings withFlow(FlowLimits limits) {
        return new ClockSettings(mode, delivery, retry, rate, push, dedupeWindowMillis, limits, paused);
    }

    /** These settings with the retry policy {@code next}. */
    public ClockSettings withRetry(RetryPolicy next) {
        return new ClockSettings(mode, delivery, next, rate, push, dedupeWindowMillis, flow, paused);
    }

    /** These settings with the push target {@code next} (a push clock's). */
    public ClockSettings withPush(PushTarget next) {
        return new ClockSettings(mode, delivery, retry, rate, next, dedupeWindowMillis, flow, paused);
    }

    /** These settings paused ({@code true}) or running. */
    public ClockSettings withPaused(boolean next) {
        return new ClockSettings(mode, delivery, retry, rate, push, dedupeWindowMillis, flow, next);
    }

    /**
     * These settings as a {@code PUT} of the clock states them: without the overrides of single keys
     * ({@link FlowLimits#keys}) and running, since overrides and a pause are set on their own.
     */
    public ClockSettings asPut() {
        ClockSettings running = paused ? withPaused(false) : this;
        return flow == null || flow.keys().isEmpty() ? running : running.withFlow(flow.withoutKeys());
    }

    /** Whether fired timers become deliveries (claimed by workers, or pushed by the service). */
    public boolean queues() {
        return delivery != DeliveryMode.RESPONSE;
    }

    /** Whether the service POSTs this clock's deliveries to {@link #push}. */
    public boolean pushes() {
        return delivery == DeliveryMode.PUSH;
    }
}
