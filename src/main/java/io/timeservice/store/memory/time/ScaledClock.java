package io.timeservice.store.memory.time;

import java.util.function.LongSupplier;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ScaledTime;

/**
 * A clock that runs at a rate times the wall clock ({@link ScaledTime}), never moving back ({@link RunningClock}).
 * Its due timers fire by themselves on the firing thread, which waits in wall-clock time: {@link #wallTimeOf} turns a
 * deadline of this clock into the wall time it comes at. {@link #follow} takes a new function anchored where the
 * clock stands ({@link #rerated}), so its time is continuous across a rate change.
 *
 * <p>Not thread-safe: its {@code MemoryClock} calls it only while holding its lock.
 */
public final class ScaledClock extends RunningClock {

    private final LongSupplier wallMillis;
    private ScaledTime time;

    public ScaledClock(LongSupplier wallMillis, ScaledTime time) {
        super(time.clockAnchor());
        this.wallMillis = wallMillis;
        this.time = time;
    }

    @Override
    long reading() {
        return time.at(wallMillis.getAsLong());
    }

    /** {@inheritDoc} {@link Long#MAX_VALUE} while frozen: only a rate change or a new deadline wakes it. */
    @Override
    public long wallTimeOf(long clockTime) {
        return time.wallWhen(clockTime);
    }

    /** The function this clock follows now. */
    public ScaledTime time() {
        return time;
    }

    /** {@code clock}'s time function when it is scaled; null otherwise (what a snapshot or copy keeps of it). */
    public static ScaledTime timeOf(TimeSource clock) {
        return clock instanceof ScaledClock scaled ? scaled.time : null;
    }

    /** The function a rate change to {@code next} would follow: anchored at the wall clock's now and this time. */
    public ScaledTime rerated(ClockRate next) {
        long wall = wallMillis.getAsLong();
        return new ScaledTime(wall, now(), next);
    }

    /** Follows {@code next} from now on: a rate change (live, or replayed), or a snapshot's function in recovery. */
    public void follow(ScaledTime next) {
        time = next;
        passTo(next.clockAnchor());
    }
}
