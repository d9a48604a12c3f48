package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.ScheduleStore;

/** The memory store's schedules: each call goes to its clock's {@link ClockScheduleCalls}. */
public final class MemoryScheduleStore implements ScheduleStore {

    private final Clocks clocks;

    public MemoryScheduleStore(Clocks clocks) {
        this.clocks = clocks;
    }

    /** Schedules in {@code state} over every clock (a clock deleted meanwhile is left out): O(schedules). */
    public long count(Schedule.State state) {
        long count = 0;
        for (Clocks.Clock clock : clocks.all()) {
            try {
                count += clock.scheduler().schedules().countByState()[state.ordinal()];
            } catch (io.timeservice.model.ProblemException gone) {
                // deleted or stopped: it holds no schedules to count
            }
        }
        return count;
    }

    private ClockScheduleCalls calls(String clock) {
        return MemoryTimerStore.scheduler(clocks, clock).schedules();
    }

    @Override
    public Schedule.Put put(String clock, String id, ScheduleSpec spec, Long ifMatch) {
        return calls(clock).put(id, spec, ifMatch);
    }

    @Override
    public Schedule get(String clock, String id) {
        return calls(clock).get(id);
    }

    @Override
    public List<Schedule> list(String clock) {
        return calls(clock).list();
    }

    @Override
    public Schedule delete(String clock, String id, Long ifMatch) {
        return calls(clock).delete(id, ifMatch);
    }

    @Override
    public List<Long> next(String clock, String id, int count) {
        return calls(clock).next(id, count);
    }

    @Override
    public Schedule pause(String clock, String id, Long ifMatch) {
        return calls(clock).pause(id, ifMatch);
    }

    @Override
    public Schedule resume(String clock, String id, Long ifMatch) {
        return calls(clock).resume(id, ifMatch);
    }

    @Override
    public Timer trigger(String clock, String id) {
        return calls(clock).trigger(id);
    }
}
