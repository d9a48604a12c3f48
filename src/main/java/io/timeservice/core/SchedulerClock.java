package io.timeservice.core;

/**
 * The scheduler's notion of "now", in milliseconds. Today the only implementation is {@link VirtualClock}, moved by
 * explicit advances; a monotonic real-time clock can implement the same interface later.
 *
 * <p>Not thread-safe: the scheduler calls it only while holding its lock.
 */
public interface SchedulerClock {

    long now();

    /**
     * Moves the clock forward to {@code time}.
     *
     * @throws UnsupportedOperationException if this clock is not moved by callers (a real-time clock)
     */
    void advanceTo(long time);
}
