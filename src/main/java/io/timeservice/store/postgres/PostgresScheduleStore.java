package io.timeservice.store.postgres;

import java.util.List;

import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.ScheduleStore;

/** The PostgreSQL store's recurring schedules behind the web layer. */
public final class PostgresScheduleStore implements ScheduleStore {

    private final PostgresSchedules schedules;

    public PostgresScheduleStore(PostgresStore store) {
        this.schedules = store.schedules();
    }

    @Override
    public Schedule.Put put(String clock, String id, ScheduleSpec spec, Long ifMatch) {
        return schedules.put(PostgresTimerStore.named(clock), id, spec, ifMatch);
    }

    @Override
    public Schedule get(String clock, String id) {
        return schedules.get(PostgresTimerStore.named(clock), id);
    }

    @Override
    public List<Schedule> list(String clock) {
        return schedules.list(PostgresTimerStore.named(clock));
    }

    @Override
    public Schedule delete(String clock, String id, Long ifMatch) {
        return schedules.delete(PostgresTimerStore.named(clock), id, ifMatch);
    }

    @Override
    public List<Long> next(String clock, String id, int count) {
        return schedules.next(PostgresTimerStore.named(clock), id, count);
    }

    @Override
    public Schedule pause(String clock, String id, Long ifMatch) {
        return schedules.pause(PostgresTimerStore.named(clock), id, ifMatch);
    }

    @Override
    public Schedule resume(String clock, String id, Long ifMatch) {
        return schedules.resume(PostgresTimerStore.named(clock), id, ifMatch);
    }

    @Override
    public Timer trigger(String clock, String id) {
        return schedules.trigger(PostgresTimerStore.named(clock), id);
    }
}
