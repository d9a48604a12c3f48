package io.timeservice.model;


/**
 * How a clock keeps time and hands out what fires.
 *
 * @param mode     {@link Mode#VIRTUAL}: time moves only by advance; {@link Mode#SYSTEM}: time is the wall clock
 *                 (Unix epoch milliseconds) and due timers fire by themselves
 * @param delivery {@link DeliveryMode#RESPONSE}: an advance returns what it fired and that is all;
 *                 {@link DeliveryMode#QUEUE}: fired timers become deliveries that workers claim and acknowledge;
 *                 {@link DeliveryMode#PUSH}: they become deliveries that the service POSTs to {@code push}'s target
 * @param retry    how a queued or pushed delivery is retried
 * @param push     where a push clock's deliveries go; null for every other delivery mode
 */
public record ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry, PushTarget push) {

    public enum Mode { VIRTUAL, SYSTEM }

    /** Ordinals are written in the journal: new modes go at the end. */
    public enum DeliveryMode { RESPONSE, QUEUE, PUSH }

    /** A virtual clock whose advances answer with what they fired: the contract before real time existed. */
    public static final ClockSettings VIRTUAL = new ClockSettings(Mode.VIRTUAL, DeliveryMode.RESPONSE,
            RetryPolicy.DEFAULT, null);

    /** A system clock that delivers through its queue with the default retry policy. */
    public static final ClockSettings SYSTEM = new ClockSettings(Mode.SYSTEM, DeliveryMode.QUEUE,
            RetryPolicy.DEFAULT, null);

    public ClockSettings {
        if (mode == null || delivery == null || retry == null) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a clock needs a mode, a delivery and a retry"
                    + " policy");
        }
        if (mode == Mode.SYSTEM && delivery == DeliveryMode.RESPONSE) {
            // nobody calls advance on a system clock, so its fired timers would have nowhere to go
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a system clock delivers through its queue:"
                    + " delivery \"response\" needs a virtual clock");
        }
        if ((delivery == DeliveryMode.PUSH) != (push != null)) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, delivery == DeliveryMode.PUSH
                    ? "delivery \"push\" needs a push target (push.url)"
                    : "push is only for delivery \"push\"");
        }
    }

    /** Settings without a push target (every delivery mode but push). */
    public ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        this(mode, delivery, retry, null);
    }

    /** The settings for {@code mode} with each unset part at its default (a system clock queues its deliveries). */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        return of(mode, delivery, retry, null);
    }

    /** As {@link #of(Mode, DeliveryMode, RetryPolicy)}, with a push target (a clock with one pushes by default). */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry, PushTarget push) {
        Mode m = mode == null ? Mode.VIRTUAL : mode;
        DeliveryMode d = delivery != null ? delivery : push != null ? DeliveryMode.PUSH
                : m == Mode.SYSTEM ? DeliveryMode.QUEUE : DeliveryMode.RESPONSE;
        return new ClockSettings(m, d, retry == null ? RetryPolicy.DEFAULT : retry, push);
    }

    public boolean isSystem() {
        return mode == Mode.SYSTEM;
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
