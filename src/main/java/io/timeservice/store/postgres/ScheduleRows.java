package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

import io.timeservice.model.CronParser;
import io.timeservice.model.Limits;
import io.timeservice.model.Recurrence;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleProgress;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec;

/**
 * How a schedule row reads and is written (table {@code schedules}, keyed by (clock, id)), and the occurrence timer
 * rows it owns. Every statement ({@link ScheduleSql}) names the primary key of the row it touches, so each is one
 * index lookup.
 */
final class ScheduleRows {

    private ScheduleRows() {
    }

    /** A schedule as locked or read: its spec, compiled times and counts; changed in place, then {@link #write}. */
    static final class Row extends ScheduleProgress {

        Row(String id) {
            super(id);
        }

        /** The row of {@code schedule} as a snapshot holds it (its times are not compiled: only to be written). */
        static Row of(Schedule schedule) {
            Row row = new Row(schedule.id());
            row.restore(schedule);
            return row;
        }
    }

    /** Whether {@code clock} holds the schedule {@code id}, in any state (one primary-key probe). */
    static boolean exists(Connection connection, String clock, String id) throws SQLException {
        return Jdbc.queryOne(connection, ScheduleSql.EXISTS, select -> {
            select.setString(1, clock);
            select.setString(2, id);
        }, row -> row.getBoolean(1));
    }

    /** The schedule {@code id} of {@code clock}, its row locked, or null. */
    static Row lock(Connection connection, String clock, String id, CronParser parser) throws SQLException {
        return Jdbc.queryFirst(connection, ScheduleSql.LOCK, select -> {
            select.setString(1, clock);
            select.setString(2, id);
        }, row -> rowAt(row, parser));
    }

    static Row rowAt(ResultSet row, CronParser parser) throws SQLException {
        Row read = new Row(row.getString(1));
        read.spec = new ScheduleSpec(row.getString(2), row.getObject(3, Long.class), row.getString(4),
                row.getObject(5, Long.class), row.getObject(6, Long.class), row.getObject(7, Long.class),
                row.getInt(8), row.getString(9), ScheduleSpec.CatchUp.ofWire(row.getString(10)), row.getBoolean(11),
                row.getString(18), row.getString(19));
        read.times = ScheduleRules.recurrenceOf(read.spec, parser);
        Long pending = row.getObject(12, Long.class);
        read.pending = pending == null ? Recurrence.NONE : pending;
        read.fired = row.getLong(13);
        read.skipped = row.getLong(14);
        read.triggered = row.getLong(15);
        read.taken = row.getLong(16);
        read.version = row.getLong(17);
        return read;
    }

    /** Inserts {@code row} (a new schedule) or updates it (an existing one), as it is now. */
    static void write(Connection connection, String clock, Row row, boolean isNew) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(isNew ? ScheduleSql.INSERT : ScheduleSql.UPDATE)) {
            int i = 1;
            if (isNew) {
                statement.setString(i++, clock);
                statement.setString(i++, row.id);
            }
            ScheduleSpec spec = row.spec;
            statement.setString(i++, spec.cron());
            setLong(statement, i++, spec.every());
            statement.setString(i++, spec.zone());
            setLong(statement, i++, spec.start());
            setLong(statement, i++, spec.end());
            setLong(statement, i++, spec.limit());
            statement.setInt(i++, spec.priority());
            statement.setString(i++, spec.payload());
            statement.setString(i++, spec.catchUp().wire());
            statement.setBoolean(i++, spec.paused());
            setLong(statement, i++, row.pending == Recurrence.NONE ? null : row.pending);
            statement.setLong(i++, row.fired);
            statement.setLong(i++, row.skipped);
            statement.setLong(i++, row.triggered);
            statement.setLong(i++, row.taken);
            statement.setLong(i++, row.version);
            statement.setString(i++, spec.traceContext());
            statement.setString(i++, spec.key());
            if (!isNew) {
                statement.setString(i++, clock);
                statement.setString(i, row.id);
            }
            statement.executeUpdate();
        }
    }

    /**
     * Adds the occurrence timer {@code timerId} of schedule {@code row}, created at {@code createdAt}; answers the
     * bytes a new row holds (for the budget), 0 when the schedule's occurrence was pending already (a triggered one of
     * the same time becomes the scheduled one, not the other way round), -1 when a client's timer has the id.
     */
    static long addOccurrence(Connection connection, String clock, Row row, String timerId, long fireTime,
                              long createdAt, boolean triggered) throws SQLException {
        long bytes = Limits.bytesOf(timerId, row.spec.payload());
        Boolean inserted = Jdbc.queryFirst(connection, ScheduleSql.INSERT_OCCURRENCE, insert -> {
            insert.setString(1, clock);
            insert.setString(2, timerId);
            insert.setLong(3, fireTime);
            insert.setInt(4, row.spec.priority());
            insert.setLong(5, createdAt);
            insert.setString(6, row.spec.payload());
            insert.setLong(7, bytes);
            insert.setString(8, row.id);
            insert.setBoolean(9, triggered);
            insert.setString(10, clock);
            insert.setString(11, row.spec.traceContext());
            insert.setString(12, row.spec.key());
        }, added -> added.getBoolean(1));
        return inserted == null ? -1 : inserted ? bytes : 0;
    }

    /** Deletes the occurrence timer {@code timerId}; answers its bytes, or -1 when it was not pending. */
    static long removeOccurrence(Connection connection, String clock, String timerId) throws SQLException {
        Long bytes = Jdbc.queryFirst(connection, ScheduleSql.REMOVE_OCCURRENCE, delete -> {
            delete.setString(1, clock);
            delete.setString(2, timerId);
        }, row -> row.getLong(1));
        return bytes == null ? -1 : bytes;
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }
}
