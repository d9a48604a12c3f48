package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.OccurrenceStep;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Recurrence;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.ScheduleTimes;
import io.timeservice.model.Timer;

/**
 * Recurring schedules on the PostgreSQL store (table {@code schedules}, keyed by (clock, id)) with the memory store's
 * semantics and refusals ({@code ScheduleStore}'s contract): each call one transaction that takes the clock's row
 * ({@code FOR SHARE}, as a timer's add: no advance runs meanwhile), then the schedule's row ({@code FOR UPDATE}),
 * then its pending occurrence's timer row, the lock order the firing steps keep too ({@link ScheduleFiring}). The
 * pending occurrence counts in the pending budget as a timer; a new schedule counts in
 * {@code timeservice.schedules.max} by the one row of {@code schedule_count}.
 */
public final class PostgresSchedules {

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final FiringAlarm alarm;
    private final ScheduleFiring firing;
    private final long maxSchedules;

    PostgresSchedules(Jdbc jdbc, PendingBudgetStripes budget, FiringAlarm alarm, ScheduleFiring firing,
                      long maxSchedules) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.alarm = alarm;
        this.firing = firing;
        this.maxSchedules = maxSchedules;
    }

    /** See {@code ScheduleStore#put}. */
    public Schedule.Put put(String clock, String id, ScheduleSpec spec, Long ifMatch) {
        long[] due = {Long.MAX_VALUE};
        Schedule.Put put = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE");
            ScheduleRules.requireValidScheduleId(id);
            ScheduleRules.requireSchedule(spec, firing.parser());
            long now = stored.now();
            ScheduleRows.Row current = ScheduleRows.lock(connection, clock, id, firing.parser());
            if (current == null && ifMatch == null) {
                // the count's row orders creators: one that waited here sees the other's schedule, then replaces it
                countOneMore(connection);
                current = ScheduleRows.lock(connection, clock, id, firing.parser());
                if (current != null) {
                    countFewer(connection);
                }
            }
            if (current == null && ifMatch != null) {
                throw ScheduleRules.noScheduleToMatch(id, ifMatch);
            }
            if (current != null && ifMatch != null && ifMatch != current.version) {
                throw ScheduleRules.schedulePreconditionFailed(current.view());
            }
            ScheduleSpec resolved = OccurrenceStep.resolvePut(current == null ? null : current.spec, spec, now);
            ScheduleRows.Row row = current != null ? current : new ScheduleRows.Row(id);
            Recurrence times = ScheduleRules.recurrenceOf(resolved, firing.parser());
            long first = ScheduleTimes.firstOnPut(resolved, times, now, row.taken, row.counted());
            long[] change = replacePending(connection, stored, row, first, resolved, now);
            row.spec = resolved;
            row.times = times;
            row.version = current == null ? 1 : current.version + 1;
            ScheduleRows.write(connection, clock, row, current == null);
            reserve(connection, change);
            due[0] = dueOn(stored, row);
            return new Schedule.Put(row.view(), current == null);
        });
        tellAlarm(due[0]);
        return put;
    }

    /** @throws ProblemException {@code clock_not_found}, {@code schedule_not_found} */
    public Schedule get(String clock, String id) {
        return jdbc.autocommit(connection -> read(connection, clock, id).view());
    }

    /** Every schedule of the clock, by id. */
    public List<Schedule> list(String clock) {
        return jdbc.autocommit(connection -> {
            ClockRows.require(connection, clock, "");
            List<Schedule> all = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(ScheduleSql.LIST)) {
                select.setString(1, clock);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        all.add(ScheduleRows.rowAt(rows, firing.parser()).view());
                    }
                }
            }
            return all;
        });
    }

    /** How many schedules the clock has (0 for a clock that does not exist): its range of the primary key. */
    public int count(String clock) {
        return jdbc.autocommit(connection -> Jdbc.queryOne(connection, ScheduleSql.COUNT_OF_CLOCK,
                select -> select.setString(1, clock), row -> row.getInt(1)));
    }

    /** See {@code ScheduleStore#delete}: the schedule and its pending occurrence go; a triggered one stays. */
    public Schedule delete(String clock, String id, Long ifMatch) {
        return jdbc.inTransaction(connection -> {
            ClockRows.require(connection, clock, " FOR SHARE");
            ScheduleRows.Row row = requireMatching(connection, clock, id, ifMatch);
            Schedule was = row.view();
            long released = row.pending == Recurrence.NONE ? -1
                    : ScheduleRows.removeOccurrence(connection, clock, row.pendingId());
            try (PreparedStatement delete = connection.prepareStatement(ScheduleSql.DELETE)) {
                delete.setString(1, clock);
                delete.setString(2, id);
                delete.executeUpdate();
            }
            countFewer(connection);
            if (released >= 0) {
                budget.release(connection, 1, released);
            }
            return was;
        });
    }

    /** See {@code ScheduleStore#next}. */
    public List<Long> next(String clock, String id, int count) {
        return jdbc.autocommit(connection -> {
            ScheduleRows.Row row = read(connection, clock, id);
            return ScheduleTimes.upcoming(row.view(), row.times, count);
        });
    }

    /** See {@code ScheduleStore#pause}. */
    public Schedule pause(String clock, String id, Long ifMatch) {
        return jdbc.inTransaction(connection -> {
            ClockRows.require(connection, clock, " FOR SHARE");
            ScheduleRows.Row row = requireMatching(connection, clock, id, ifMatch);
            if (!row.spec.paused()) {
                row.spec = row.spec.withPaused(true);
                row.version++;
                ScheduleRows.write(connection, clock, row, false);
            }
            return row.view();
        });
    }

    /** See {@code ScheduleStore#resume}: a pending occurrence due by now is skipped and counted. */
    public Schedule resume(String clock, String id, Long ifMatch) {
        long[] due = {Long.MAX_VALUE};
        Schedule resumed = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE");
            ScheduleRows.Row row = requireMatching(connection, clock, id, ifMatch);
            if (!row.spec.paused()) {
                return row.view();
            }
            long now = stored.now();
            long[] change = {0, 0};
            if (row.pending != Recurrence.NONE && row.pending <= now) {
                long skippedTime = row.pending;
                long next = ScheduleTimes.firstAfter(row.spec, row.times, now, skippedTime, row.counted() + 1);
                change = replacePending(connection, stored, row, next, row.spec, now);
                row.skipped++;
                row.taken = skippedTime;
            }
            row.spec = row.spec.withPaused(false);
            row.version++;
            ScheduleRows.write(connection, clock, row, false);
            reserve(connection, change);
            due[0] = dueOn(stored, row);
            return row.view();
        });
        tellAlarm(due[0]);
        return resumed;
    }

    /** See {@code ScheduleStore#trigger}: one extra occurrence due at the clock's now. */
    public Timer trigger(String clock, String id) {
        long[] due = {Long.MAX_VALUE};
        Timer triggered = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE");
            ScheduleRows.Row row = ScheduleRows.lock(connection, clock, id, firing.parser());
            if (row == null) {
                throw ScheduleRules.scheduleNotFound(id);
            }
            long now = stored.now();
            String timerId = Schedule.occurrenceId(id, now);
            long bytes = ScheduleRows.addOccurrence(connection, clock, row, timerId, now, now, true);
            if (bytes < 0) {
                throw ScheduleRules.occurrenceIdTaken(timerId);
            }
            if (bytes > 0) {
                reserve(connection, new long[] {1, bytes});
            }
            if (stored.firesByItself()) {
                due[0] = stored.dbTimeOf(now);
            }
            return PostgresTimerReads.pendingTimer(connection, clock, timerId);
        });
        tellAlarm(due[0]);
        return triggered;
    }

    /**
     * Makes {@code first} the row's pending occurrence under {@code spec}: the old timer out, the new one in, created
     * now, even when it is the same occurrence (as on the memory store). Answers the budget change, timers and bytes.
     */
    private static long[] replacePending(Connection connection, StoredClock stored, ScheduleRows.Row row, long first,
                                         ScheduleSpec spec, long now) throws SQLException {
        String clock = stored.name();
        String oldId = row.pending == Recurrence.NONE ? null : row.pendingId();
        String newId = first == Recurrence.NONE ? null : Schedule.occurrenceId(row.id, first);
        long timers = 0;
        long bytes = 0;
        if (oldId != null) {
            long released = ScheduleRows.removeOccurrence(connection, clock, oldId);
            if (released >= 0) {
                timers--;
                bytes -= released;
            }
        }
        row.pending = first;
        if (newId != null) {
            ScheduleRows.Row shaped = new ScheduleRows.Row(row.id);
            shaped.spec = spec;
            long added = ScheduleRows.addOccurrence(connection, clock, shaped, newId, first, now, false);
            if (added < 0) {
                throw ScheduleRules.occurrenceIdTaken(newId);
            }
            if (added > 0) {
                timers++;
                bytes += added;
            }
        }
        return new long[] {timers, bytes};
    }

    /** Changes the budget by {@code change} (timers, bytes), refusing a growth beyond the capacity; call last. */
    private void reserve(Connection connection, long[] change) throws SQLException {
        try {
            budget.change(connection, Math.max(0, change[0]), Math.max(0, change[1]), change[0], change[1]);
        } catch (PendingBudgetStripes.Exceeded exceeded) {
            throw PostgresTimerChanges.capacityRefusal(exceeded.availableTimers < change[0], exceeded.pendingBytes,
                    change[1], false, budget);
        }
    }

    private static void countFewer(Connection connection) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(ScheduleSql.COUNT_FEWER)) {
            count.setLong(1, 1);
            count.executeUpdate();
        }
    }

    private void countOneMore(Connection connection) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(ScheduleSql.COUNT_ONE_MORE)) {
            count.setLong(1, maxSchedules);
            if (count.executeUpdate() == 0) {
                ScheduleRules.requireScheduleRoom(maxSchedules, maxSchedules);
            }
        }
    }

    private ScheduleRows.Row read(Connection connection, String clock, String id) throws SQLException {
        ScheduleRows.Row row = Jdbc.queryFirst(connection, ScheduleSql.GET, select -> {
            select.setString(1, clock);
            select.setString(2, id);
        }, found -> ScheduleRows.rowAt(found, firing.parser()));
        if (row != null) {
            return row;
        }
        ClockRows.require(connection, clock, "");
        throw ScheduleRules.scheduleNotFound(id);
    }

    private ScheduleRows.Row requireMatching(Connection connection, String clock, String id, Long ifMatch)
            throws SQLException {
        ScheduleRows.Row row = ScheduleRows.lock(connection, clock, id, firing.parser());
        if (row == null) {
            throw ScheduleRules.scheduleNotFound(id);
        }
        if (ifMatch != null && ifMatch != row.version) {
            throw ScheduleRules.schedulePreconditionFailed(row.view());
        }
        return row;
    }

    /** When the firing loop should look at the row's pending occurrence (the database's clock), if it fires by itself. */
    private static long dueOn(StoredClock stored, ScheduleRows.Row row) {
        return stored.firesByItself() && row.pending != Recurrence.NONE ? stored.dbTimeOf(row.pending)
                : Long.MAX_VALUE;
    }

    private void tellAlarm(long due) {
        if (due != Long.MAX_VALUE) {
            alarm.dueAt(due);
        }
    }
}
