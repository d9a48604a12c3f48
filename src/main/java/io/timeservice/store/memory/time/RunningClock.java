package io.timeservice.store.memory.time;

/**
 * A clock that runs by itself on the wall clock ({@link SystemClock}, {@link ScaledClock}), never moving back: when
 * its reading of the wall clock steps back (NTP), {@link #now} stays where it was until the reading passes it again,
 * so a timer added meanwhile is due no earlier than its delay from the latest time the clock showed, and nothing
 * fires early; a step forward makes what it skipped due at once. {@link #firedThrough} is the time up to which the
 * firing thread has fired: the "no timer is overdue" invariant holds against it, since between two firing rounds
 * such a clock's timers may be due but not yet fired.
 *
 * <p>Not thread-safe: its {@code MemoryClock} calls it only while holding its lock.
 */
public abstract class RunningClock implements TimeSource {

    private long latest;
    private long firedThrough;

    RunningClock(long start) {
        this.latest = start;
        this.firedThrough = start;
    }

    /** The clock's time by the wall clock now, before the "never back" rule. */
    abstract long reading();

    @Override
    public final long now() {
        long reading = reading();
        if (reading > latest) {
            latest = reading;
        }
        return latest;
    }

    /** Records that every timer due by {@code time} has fired (a firing round, or its replay in recovery). */
    @Override
    public final void advanceTo(long time) {
        firedThrough = Math.max(firedThrough, time);
        latest = Math.max(latest, time);
    }

    /** Shows at least {@code time} (a snapshot's time, in recovery); fires nothing. */
    @Override
    public final void passTo(long time) {
        latest = Math.max(latest, time);
    }

    /**
     * The latest time the clock showed, without reading the wall clock: recovery, which replays the clock's records
     * on the function each of them ran on, must not read those functions at today's wall time.
     */
    public final long latest() {
        return latest;
    }

    @Override
    public final long firedThrough() {
        return firedThrough;
    }

    @Override
    public final boolean isVirtual() {
        return false;
    }
}
