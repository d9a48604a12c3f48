package io.timeservice.store.memory;

import java.util.function.LongSupplier;

/**
 * Real time: Unix epoch milliseconds from the wall clock, never moving back. When the wall clock steps back (NTP),
 * {@link #now} stays where it was until the wall clock passes it again, so a timer added meanwhile is due no earlier
 * than its delay from the latest time the clock showed, and nothing fires early; a step forward makes what it
 * skipped due at once. {@link #firedThrough} is the time up to which the firing thread has fired: the "no timer is
 * overdue" invariant holds against it, since between two firing rounds a system clock's timers may be due but not
 * yet fired.
 *
 * <p>Not thread-safe: the scheduler calls it only while holding its lock.
 */
public final class SystemClock implements SchedulerClock {

    private final LongSupplier wallMillis;
    private long latest;
    private long firedThrough;

    public SystemClock(LongSupplier wallMillis) {
        this.wallMillis = wallMillis;
    }

    @Override
    public long now() {
        long wall = wallMillis.getAsLong();
        if (wall > latest) {
            latest = wall;
        }
        return latest;
    }

    /** Records that every timer due by {@code time} has fired (a firing round, or its replay in recovery). */
    @Override
    public void advanceTo(long time) {
        firedThrough = Math.max(firedThrough, time);
        latest = Math.max(latest, time);
    }

    /** The wall clock's time at least {@code time} (a snapshot's time, in recovery); fires nothing. */
    @Override
    public void passTo(long time) {
        latest = Math.max(latest, time);
    }

    @Override
    public long firedThrough() {
        return firedThrough;
    }

    @Override
    public boolean isVirtual() {
        return false;
    }
}
