package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.model.CronParser;
import io.timeservice.model.Limits;
import io.timeservice.model.OccurrenceStep;
import io.timeservice.model.Recurrence;
import io.timeservice.model.Timer;

/**
 * Firing schedules' occurrences on the PostgreSQL store: what one firing step (an advance of a virtual clock, or a
 * round of the firing loop on a system clock) does when it reaches an occurrence timer. Firing an occurrence (its
 * timer row deleted, its delivery added), counting it and adding the next one are one transaction, and the
 * occurrence's timer id {@code <schedule>:<time>} is the timers' primary key, so no occurrence is created or fired
 * twice, by any number of instances. The decisions are the memory store's ({@code ClockSchedules}): fire or skip by
 * pause, {@code timeservice.schedules.max-catch-up} per schedule per step and, on a wall clock, {@code catchUp}
 * ({@link io.timeservice.model.OccurrenceStep}); the rest due by where the step stops (its target, or the last time it
 * reached when its limit stopped it) skipped and counted, moving on to the first occurrence after that.
 *
 * <p>Lock order, the same as every schedule call's: the clock's row, then the schedule's row, then its occurrence
 * timer rows. A virtual clock's advance holds its clock's row exclusively, so its steps meet no other change of the
 * clock; the system-clock step takes a schedule's row with {@code SKIP LOCKED}, so concurrent loops work on
 * different schedules and never wait for a schedule call.
 */
final class ScheduleFiring {

    private static final System.Logger LOG = System.getLogger(ScheduleFiring.class.getName());

    private final CronParser parser;
    private final int maxCatchUp;

    ScheduleFiring(CronParser parser, int maxCatchUp) {
        this.parser = parser;
        this.maxCatchUp = maxCatchUp;
    }

    CronParser parser() {
        return parser;
    }

    /** A timer row a step took, with what the budget and the decision need. */
    private record Taken(Timer timer, long bytes, boolean triggered) {

        static Taken at(ResultSet row) throws SQLException {
            return new Taken(TimerRows.timerAt(row, 1), row.getLong(TimerRows.WIDTH + 1),
                    row.getBoolean(TimerRows.WIDTH + 2));
        }
    }

    /** What an advance's firing did: the fired timers in firing order, and the budget change besides them. */
    record Fired(List<Timer> timers, boolean complete, long reached, long netTimers, long netBytes) {
    }

    /**
     * Fires what is due on the locked virtual clock {@code stored} by {@code target}, taking at most {@code limit}
     * timers (a skipped occurrence counts), each occurrence at its own time: a round fires every timer due by the earliest due occurrence (its successor
     * comes strictly later), then that occurrence's successor is added, so the next round may fire it. On a queue
     * clock the fired timers become ready deliveries.
     */
    Fired fireThrough(Connection connection, StoredClock stored, long target, int limit, boolean queue)
            throws SQLException {
        Step step = new Step(connection, stored.name(), target, true);
        List<Timer> fired = new ArrayList<>();
        long reached = stored.now();
        int taken = 0; // fired or skipped: a skipped occurrence counts against the limit, as in the memory store
        while (taken < limit) {
            long horizon = Math.min(target, firstOccurrenceDue(connection, stored.name(), target));
            List<Taken> round = new ArrayList<>();
            try (PreparedStatement take = connection.prepareStatement(ScheduleSql.TAKE_DUE)) {
                take.setString(1, stored.name());
                take.setLong(2, horizon);
                take.setInt(3, limit - taken);
                try (ResultSet rows = take.executeQuery()) {
                    while (rows.next()) {
                        round.add(Taken.at(rows));
                    }
                }
            }
            if (round.isEmpty()) {
                break;
            }
            taken += round.size();
            for (Taken row : round) {
                Timer timer = row.timer();
                reached = timer.fireTime();
                boolean fires = timer.schedule() == null || step.reached(row);
                if (fires) {
                    fired.add(timer);
                    if (queue) {
                        deliver(connection, stored.name(), timer, timer.sequence(), row.bytes());
                    }
                } else {
                    step.netTimers--;
                    step.netBytes -= row.bytes();
                }
            }
        }
        boolean complete = !anyDue(connection, stored.name(), target);
        step.endStep(complete ? target : reached);
        step.writeAll();
        return new Fired(fired, complete, reached, step.netTimers, step.netBytes);
    }

    /**
     * Fires the occurrences of a system clock's schedules due by the database's clock, at most {@code limit}
     * schedules' worth, each schedule whose row is free (another loop may hold one); answers each fired
     * occurrence's lateness and the budget change besides the deliveries, which the caller makes. Occurrences of
     * deleted schedules fire as plain timers ({@link FiringSql#FIRE_DUE}).
     */
    SystemFired fireDueOnSystemClock(Connection connection, String clock, long now, int limit)
            throws SQLException {
        List<String> due = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(ScheduleSql.SCHEDULES_DUE)) {
            select.setString(1, clock);
            select.setLong(2, now);
            select.setInt(3, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    due.add(rows.getString(1));
                }
            }
        }
        Step step = new Step(connection, clock, now, false);
        List<Long> lateness = new ArrayList<>();
        List<Timer> delivered = new ArrayList<>(); // what fired, for the clock's reservations
        for (String scheduleId : due) {
            ScheduleRows.Row row = Jdbc.queryFirst(connection, ScheduleSql.LOCK_IF_FREE, lock -> {
                lock.setString(1, clock);
                lock.setString(2, scheduleId);
            }, locked -> ScheduleRows.rowAt(locked, parser));
            if (row == null) {
                continue;
            }
            step.locked.put(scheduleId, row);
            List<Taken> taken = new ArrayList<>();
            try (PreparedStatement take = connection.prepareStatement(ScheduleSql.TAKE_OCCURRENCES_DUE)) {
                take.setString(1, clock);
                take.setString(2, scheduleId);
                take.setLong(3, now);
                try (ResultSet rows = take.executeQuery()) {
                    while (rows.next()) {
                        taken.add(Taken.at(rows));
                    }
                }
            }
            taken.sort(Comparator.comparing(Taken::timer, Timer::compareFiringOrder));
            for (Taken occurrence : taken) {
                Timer timer = occurrence.timer();
                boolean scheduled = step.isScheduled(row, occurrence);
                if (step.reached(occurrence)) {
                    deliver(connection, clock, timer, timer.sequence(), occurrence.bytes());
                    delivered.add(timer);
                    lateness.add(Math.max(0, now - timer.fireTime()));
                } else {
                    step.netTimers--;
                    step.netBytes -= occurrence.bytes();
                }
                // the occurrences after it that are due by now as well: each fires or is skipped, none a row
                while (scheduled && row.pending != Recurrence.NONE && row.pending <= now) {
                    long time = row.pending;
                    String timerId = row.pendingId();
                    if (step.reachScheduled(row, time)) {
                        Timer next = new Timer(timerId, time, row.spec.priority(), 0, 1, time,
                                row.spec.payload(), row.id, row.spec.traceContext(), row.spec.key());
                        long bytes = Limits.bytesOf(next.id(), next.payload());
                        deliver(connection, clock, next, null, bytes);
                        delivered.add(next);
                        step.netTimers++;
                        step.netBytes += bytes;
                        lateness.add(Math.max(0, now - time));
                    }
                }
                if (scheduled) {
                    step.addSuccessor(row, now);
                }
            }
        }
        step.writeAll();
        return new SystemFired(lateness.stream().mapToLong(Long::longValue).toArray(), step.netTimers,
                step.netBytes, delivered);
    }

    /**
     * What a system clock's firing of occurrences did: each delivery's lateness, and the budget change besides them
     * (successors and skipped occurrences), for the caller's one budget change, and the occurrences delivered (a
     * successor that never had a row with sequence 0).
     */
    record SystemFired(long[] lateness, long netTimers, long netBytes, List<Timer> timers) {
    }

    /** One firing step: the schedules it locked, each one's fires in it, and its budget change. */
    private final class Step {
        final Connection connection;
        final String clock;
        final long now;
        final boolean virtual;
        final Map<String, ScheduleRows.Row> locked = new LinkedHashMap<>();
        final Map<String, Integer> fires = new HashMap<>();
        /** Rows whose catch-up a virtual clock's step spent, moved on by {@link #endStep}. */
        final List<ScheduleRows.Row> spent = new ArrayList<>();
        long netTimers;
        long netBytes;

        Step(Connection connection, String clock, long now, boolean virtual) {
            this.connection = connection;
            this.clock = clock;
            this.now = now;
            this.virtual = virtual;
        }

        /** The schedule {@code id}, locked at its first use in the step; null when it was deleted. */
        ScheduleRows.Row schedule(String id) throws SQLException {
            if (!locked.containsKey(id)) {
                locked.put(id, ScheduleRows.lock(connection, clock, id, parser));
            }
            return locked.get(id);
        }

        boolean isScheduled(ScheduleRows.Row row, Taken taken) {
            return row != null && !taken.triggered() && row.pending == taken.timer().fireTime()
                    && taken.timer().id().equals(row.pendingId());
        }

        /**
         * An occurrence timer was taken by the step: whether it fires. A triggered one (or one whose schedule is
         * gone) fires; the scheduled one fires or is skipped, and on a virtual clock its successor is added at once,
         * created at the fired one's time.
         */
        boolean reached(Taken taken) throws SQLException {
            ScheduleRows.Row row = schedule(taken.timer().schedule());
            if (!isScheduled(row, taken)) {
                if (row != null) {
                    row.fired++;
                    row.triggered++;
                }
                return true;
            }
            boolean fires = reachScheduled(row, taken.timer().fireTime());
            if (virtual) {
                addSuccessor(row, taken.timer().fireTime()); // created when its predecessor fired
            }
            return fires;
        }

        /**
         * The scheduled occurrence at {@code time} is reached: fire or skip, count, and move pending on. When the
         * step spent the schedule's catch-up, a virtual clock's step moves it on in {@link #endStep}, once it knows
         * where the clock stops; a system clock's step stops at its now.
         */
        boolean reachScheduled(ScheduleRows.Row row, long time) {
            int stepFires = fires.getOrDefault(row.id, 0);
            OccurrenceStep step = OccurrenceStep.reach(row.spec, row.times, time, now, row.counted(), stepFires,
                    maxCatchUp, virtual);
            if (step.fires()) {
                row.fired++;
                fires.put(row.id, stepFires + 1);
            } else {
                row.skipped++;
            }
            row.taken = time;
            row.pending = step.next();
            if (step.spent()) {
                if (virtual) {
                    row.pending = Recurrence.NONE;
                    spent.add(row);
                } else {
                    skipThrough(row, now);
                }
            }
            return step.fires();
        }

        /** The step stopped the clock at {@code through}: the schedules whose catch-up it spent skip up to there. */
        void endStep(long through) throws SQLException {
            for (ScheduleRows.Row row : spent) {
                long firedAt = row.taken;
                skipThrough(row, through);
                addSuccessor(row, firedAt);
            }
            spent.clear();
        }

        private void skipThrough(ScheduleRows.Row row, long through) {
            OccurrenceStep.Skipped skipped = OccurrenceStep.skipThrough(row.spec, row.times, row.taken, through,
                    row.counted());
            row.skipped += skipped.count();
            row.taken = skipped.taken();
            row.pending = skipped.next();
        }

        /**
         * Adds the row's pending occurrence as a timer, created at {@code createdAt}. An occurrence whose id a
         * client's timer holds (one an older version let in) is skipped and counted, and the schedule moves on to
         * the next one, as in memory ({@link io.timeservice.model.ScheduleProgress#skipHeldOccurrence}): the
         * schedule never sticks with a {@code next} that has no timer.
         */
        void addSuccessor(ScheduleRows.Row row, long createdAt) throws SQLException {
            while (row.pending != Recurrence.NONE) {
                long bytes = ScheduleRows.addOccurrence(connection, clock, row, row.pendingId(), row.pending,
                        createdAt, false);
                if (bytes >= 0) {
                    if (bytes > 0) {
                        netTimers++;
                        netBytes += bytes;
                    }
                    return;
                }
                LOG.log(System.Logger.Level.WARNING, "schedule " + row.id + " of clock " + clock + ": occurrence "
                        + row.pendingId() + " is skipped, a client's timer has its id (let in by an older version)");
                row.skipHeldOccurrence();
            }
        }

        void writeAll() throws SQLException {
            for (ScheduleRows.Row row : locked.values()) {
                if (row != null) {
                    ScheduleRows.write(connection, clock, row, false);
                }
            }
        }
    }

    /** Whether an occurrence timer of the clock is due by {@code target}: an advance there takes the rounds. */
    boolean anyOccurrenceDue(Connection connection, String clock, long target) throws SQLException {
        return firstOccurrenceDue(connection, clock, target) != Long.MAX_VALUE;
    }

    private static long firstOccurrenceDue(Connection connection, String clock, long target) throws SQLException {
        return Jdbc.queryOne(connection, ScheduleSql.FIRST_OCCURRENCE_DUE, dueBy(clock, target), row -> {
            long first = row.getLong(1);
            return row.wasNull() ? Long.MAX_VALUE : first;
        });
    }

    private static boolean anyDue(Connection connection, String clock, long target) throws SQLException {
        return Jdbc.queryOne(connection, ScheduleSql.ANY_DUE, dueBy(clock, target), row -> row.getBoolean(1));
    }

    /** The parameters of a question on the clock's timers due by {@code target}. */
    private static Jdbc.Parameters dueBy(String clock, long target) {
        return select -> {
            select.setString(1, clock);
            select.setLong(2, target);
        };
    }

    /** The ready delivery of a fired timer; {@code sequence} null draws a new one (an occurrence without a row). */
    private static void deliver(Connection connection, String clock, Timer timer, Long sequence, long bytes)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(ScheduleSql.DELIVER)) {
            if (sequence == null) {
                insert.setNull(1, java.sql.Types.BIGINT);
            } else {
                insert.setLong(1, sequence);
            }
            insert.setString(2, clock);
            insert.setString(3, timer.id());
            insert.setLong(4, timer.fireTime());
            insert.setInt(5, timer.priority());
            insert.setLong(6, timer.version());
            insert.setLong(7, timer.createdAt());
            insert.setString(8, timer.payload());
            insert.setLong(9, bytes);
            insert.setLong(10, timer.fireTime());
            insert.setString(11, timer.schedule());
            insert.setString(12, timer.traceContext());
            insert.setString(13, timer.key());
            insert.setString(14, timer.key());
            insert.setString(15, clock);
            insert.executeUpdate();
        }
    }
}
