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
 *                 {@link DeliveryMode#QUEUE}: fired timers become deliveries that workers claim and acknowledge
 * @param retry    how a queued delivery is retried
 * @param rate     a scaled clock's rate (its current one: a rate change changes the settings); null for the others
 */
public record ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate) {

    public enum Mode { VIRTUAL, SYSTEM, SCALED }

    public enum DeliveryMode { RESPONSE, QUEUE }

    /** A virtual clock whose advances answer with what they fired: the contract before real time existed. */
    public static final ClockSettings VIRTUAL = new ClockSettings(Mode.VIRTUAL, DeliveryMode.RESPONSE,
            RetryPolicy.DEFAULT);

    /** A system clock that delivers through its queue with the default retry policy. */
    public static final ClockSettings SYSTEM = new ClockSettings(Mode.SYSTEM, DeliveryMode.QUEUE,
            RetryPolicy.DEFAULT);

    public ClockSettings {
        if (mode == null || delivery == null || retry == null) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a clock needs a mode, a delivery and a retry"
                    + " policy");
        }
        if (mode != Mode.VIRTUAL && delivery == DeliveryMode.RESPONSE) {
            // nobody calls advance on a clock that fires by itself, so its fired timers would have nowhere to go
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a " + mode.name().toLowerCase(Locale.ROOT)
                    + " clock delivers through its queue: delivery \"response\" needs a virtual clock");
        }
        if ((mode == Mode.SCALED) != (rate != null)) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, mode == Mode.SCALED
                    ? "a scaled clock needs a rate" : "rate is only for scaled clocks (mode \"scaled\")");
        }
    }

    /** Settings of a clock that is not scaled. */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        this(mode, delivery, retry, null);
    }

    /** The settings for {@code mode} with each unset part at its default (a system clock queues its deliveries). */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        return of(mode, delivery, retry, null);
    }

    /**
     * The settings for {@code mode} (null: virtual) with each unset part at its default: a clock that fires by itself
     * queues its deliveries.
     */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry, ClockRate rate) {
        Mode m = mode == null ? Mode.VIRTUAL : mode;
        DeliveryMode d = delivery != null ? delivery : m == Mode.VIRTUAL ? DeliveryMode.RESPONSE : DeliveryMode.QUEUE;
        return new ClockSettings(m, d, retry == null ? RetryPolicy.DEFAULT : retry, rate);
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
        return new ClockSettings(mode, delivery, retry, next);
    }

    public boolean queues() {
        return delivery == DeliveryMode.QUEUE;
    }
}
