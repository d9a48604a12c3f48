package io.timeservice.store.memory;


/**
 * The scheduler's notion of "now", in milliseconds: a {@link VirtualClock}, moved by explicit advances, or a
 * {@link SystemClock}, the wall clock, whose due timers a firing thread fires.
 *
 * <p>Not thread-safe: the scheduler calls it only while holding its lock.
 */
public interface SchedulerClock {

    long now();

    /**
     * Moves the clock forward to {@code time}: a virtual clock shows it as now; a system clock records that every
     * timer due by then has fired.
     */
    void advanceTo(long time);

    /**
     * Shows {@code time} as now without firing anything: a virtual clock whose due timers the delivery limit holds
     * back, so that its leases and retries still run on its time. Never moves back.
     */
    void passTo(long time);

    /** The time up to which every due timer has fired: the "no timer is overdue" invariant holds against it. */
    default long firedThrough() {
        return now();
    }

    /** Whether only advances move this clock. */
    default boolean isVirtual() {
        return true;
    }
}
