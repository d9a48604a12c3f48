package io.timeservice.model;


/**
 * How a clock keeps time and hands out what fires.
 *
 * @param mode     {@link Mode#VIRTUAL}: time moves only by advance; {@link Mode#SYSTEM}: time is the wall clock
 *                 (Unix epoch milliseconds) and due timers fire by themselves
 * @param delivery {@link DeliveryMode#RESPONSE}: an advance returns what it fired and that is all;
 *                 {@link DeliveryMode#QUEUE}: fired timers become deliveries that workers claim and acknowledge
 * @param retry    how a queued delivery is retried
 */
public record ClockSettings(Mode mode, DeliveryMode delivery, RetryPolicy retry) {

    public enum Mode { VIRTUAL, SYSTEM }

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
        if (mode == Mode.SYSTEM && delivery == DeliveryMode.RESPONSE) {
            // nobody calls advance on a system clock, so its fired timers would have nowhere to go
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a system clock delivers through its queue:"
                    + " delivery \"response\" needs a virtual clock");
        }
    }

    /** The settings for {@code mode} with each unset part at its default (a system clock queues its deliveries). */
    public static ClockSettings of(Mode mode, DeliveryMode delivery, RetryPolicy retry) {
        Mode m = mode == null ? Mode.VIRTUAL : mode;
        DeliveryMode d = delivery != null ? delivery : m == Mode.SYSTEM ? DeliveryMode.QUEUE : DeliveryMode.RESPONSE;
        return new ClockSettings(m, d, retry == null ? RetryPolicy.DEFAULT : retry);
    }

    public boolean isSystem() {
        return mode == Mode.SYSTEM;
    }

    public boolean queues() {
        return delivery == DeliveryMode.QUEUE;
    }
}
