package io.timeservice.store.memory;


/** A clock that stands still until it is advanced. Starts at the given time (0 for a fresh service). */
public final class VirtualClock implements SchedulerClock {

    private long now;

    public VirtualClock(long start) {
        if (start < 0) {
            throw new IllegalArgumentException("start must be >= 0: " + start);
        }
        this.now = start;
    }

    @Override
    public long now() {
        return now;
    }

    @Override
    public void advanceTo(long time) {
        if (time < now) {
            throw new IllegalArgumentException("virtual time never moves back: " + time + " < " + now);
        }
        now = time;
    }
}
