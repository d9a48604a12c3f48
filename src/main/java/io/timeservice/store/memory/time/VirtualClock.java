package io.timeservice.store.memory.time;


/**
 * A clock that stands still until it is advanced. Starts at the given time (0 for a fresh service). Its time can run
 * ahead of what has fired: an advance of a queueing clock whose deliveries hold their limit moves the time (so leases
 * end and retries come due) while the due timers wait, and {@link #firedThrough} stays where firing stopped, so the
 * "no timer is overdue" invariant holds against it.
 */
public final class VirtualClock implements TimeSource {

    private long now;
    /** Every timer due by this time has fired; never after {@link #now}. */
    private long firedThrough;

    public VirtualClock(long start) {
        if (start < 0) {
            throw new IllegalArgumentException("start must be >= 0: " + start);
        }
        this.now = start;
        this.firedThrough = start;
    }

    @Override
    public long now() {
        return now;
    }

    /** Every timer due by {@code time} fired; the clock shows {@code time}, or its later time if it had passed on. */
    @Override
    public void advanceTo(long time) {
        if (time < firedThrough) {
            throw new IllegalArgumentException("virtual time never moves back: fired through " + time + " < "
                    + firedThrough);
        }
        firedThrough = time;
        now = Math.max(now, time);
    }

    @Override
    public void passTo(long time) {
        if (time < now) {
            throw new IllegalArgumentException("virtual time never moves back: " + time + " < " + now);
        }
        now = time;
    }

    @Override
    public long firedThrough() {
        return firedThrough;
    }
}
