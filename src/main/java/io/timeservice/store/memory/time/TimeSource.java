package io.timeservice.store.memory.time;

import java.util.function.LongSupplier;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ScaledTime;


/**
 * The clock's notion of "now", in milliseconds: a {@link VirtualClock}, moved by explicit advances, or a
 * {@link SystemClock}, the wall clock, or a {@link ScaledClock}, a multiple of it; a firing thread fires the due
 * timers of the last two.
 *
 * <p>Not thread-safe: its {@code MemoryClock} calls it only while holding its lock.
 */
public interface TimeSource {

    /**
     * A fresh clock for {@code settings}: virtual from {@code now}, the wall clock's time, or scaled from {@code now}
     * at wall time {@code wallAnchor}.
     */
    static TimeSource of(ClockSettings settings, long now, long wallAnchor, LongSupplier wallMillis) {
        return switch (settings.mode()) {
            case VIRTUAL -> new VirtualClock(now);
            case SYSTEM -> new SystemClock(wallMillis);
            case SCALED -> new ScaledClock(wallMillis, new ScaledTime(wallAnchor, now, settings.rate()));
        };
    }

    /** A fresh clock for {@code settings} whose time starts again: the wall clock's, or 0 (a scaled one from now). */
    static TimeSource fresh(ClockSettings settings, LongSupplier wallMillis) {
        return of(settings, 0, wallMillis.getAsLong(), wallMillis);
    }

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

    /**
     * The wall-clock epoch milliseconds at which a clock that fires by itself shows {@code clockTime}: where the firing
     * thread waits for a deadline of this clock. A system clock's time is the wall clock's.
     */
    default long wallTimeOf(long clockTime) {
        return clockTime;
    }

    /** Whether only advances move this clock. */
    default boolean isVirtual() {
        return true;
    }
}
