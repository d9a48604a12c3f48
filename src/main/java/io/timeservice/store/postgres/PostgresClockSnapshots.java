package io.timeservice.store.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.CronParser;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.SnapshotSequences;
import io.timeservice.model.Timer;

/**
 * Saved clocks on the PostgreSQL store ({@link io.timeservice.store.ClockStore#snapshot} and {@code load}). A save
 * reads the clock row {@code FOR SHARE} (no advance or fork of it meanwhile), its timers and unacknowledged
 * deliveries in one statement, by sequence, so each row's place is its number in the snapshot, and its schedule rows;
 * the transaction is repeatable read, so both statements see one snapshot. A load is one transaction holding the
 * creation lock, as a fork: the clock row, fresh sequences from the database's sequence in the snapshot's order
 * (sequences are unique over all clocks here), the timers and deliveries inserted a chunk of rows per statement (an
 * occurrence timer is the row a live schedule's is: {@code schedule} set, {@code triggered} unless it is its
 * schedule's pending one), the schedule rows as they stand, counted in {@code schedule_count} beyond
 * {@code timeservice.schedules.max} if need be (as a fork counts), and the whole clock counted in the pending budget.
 * The statements are {@link ClockSql}'s and {@link ScheduleSql}'s.
 */
public final class PostgresClockSnapshots {

    /** Rows per insert statement of a load: arrays of this many elements per column. */
    static final int CHUNK = 10_000;

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final int maxClocks;
    private final CronParser parser;

    PostgresClockSnapshots(Jdbc jdbc, PendingBudgetStripes budget, int maxClocks, CronParser parser) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.maxClocks = maxClocks;
        this.parser = parser;
    }

    /**
     * The clock {@code name} saved whole, in one transaction.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public ClockSnapshot snapshot(String name) {
        return jdbc.inRepeatableRead(connection -> {
            StoredClock clock = ClockRows.require(connection, name, " FOR SHARE");
            List<Timer> timers = new ArrayList<>();
            List<Delivery> deliveries = new ArrayList<>();
            long number = 0;
            try (PreparedStatement select = connection.prepareStatement(ClockSql.SAVED_ROWS)) {
                select.setString(1, name);
                select.setString(2, name);
                select.setFetchSize(CHUNK);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        number++;
                        if (!row.getBoolean(1)) {
                            timers.add(new Timer(row.getString(2), row.getLong(3), row.getInt(4), number,
                                    row.getLong(6), row.getLong(7), row.getString(8), row.getString(14),
                                    row.getString(15), row.getString(16)));
                        } else {
                            Delivery stored = new Delivery(row.getString(2), row.getLong(3), row.getInt(4), number,
                                    row.getString(8), row.getInt(10),
                                    StoredClock.ofSql(Delivery.State.class, row.getString(9)), null, 0,
                                    row.getLong(11), row.getLong(12), row.getString(13), row.getString(14),
                                    row.getString(15), row.getString(16));
                            deliveries.add(ClockSnapshot.saved(stored, number, clock.now()));
                        }
                    }
                }
            }
            return new ClockSnapshot(clock.name(), clock.settings(), clock.now(), number + 1, timers,
                    schedules(connection, name), deliveries, PostgresReservations.list(connection, clock));
        });
    }

    /**
     * Creates the clock {@code name} from {@code snapshot} in one transaction; returns it.
     *
     * @throws ProblemException {@code invalid_id}, {@code clock_conflict} ({@code name} exists), {@code clock_limit},
     *                            {@code capacity_exceeded}
     */
    public StoredClock load(String name, ClockSnapshot snapshot) {
        ClockRules.requireValidClockName(name);
        return jdbc.inTransaction(connection -> {
            ClockRows.lockCreation(connection);
            if (ClockRows.find(connection, name, "") != null) {
                throw ClockRules.loadNameTaken(name);
            }
            ClockRules.requireClockRoom(ClockRows.count(connection), maxClocks);
            ClockSettings settings = snapshot.settings();
            ClockRows.insert(connection, name, settings, settings.isSystem() ? 0 : snapshot.now());
            if (snapshot.firedThrough() < snapshot.now()) {
                ClockRows.firedThrough(connection, name, snapshot.firedThrough());
            }
            long[] fresh = freshSequences(connection, (int) snapshot.count());
            SnapshotSequences numbering = numbering(snapshot);
            insertTimers(connection, name, snapshot, fresh, numbering);
            insertDeliveries(connection, name, snapshot.deliveries(), fresh, numbering);
            insertSchedules(connection, name, snapshot.schedules());
            long count = snapshot.count();
            long bytes = snapshot.bytes();
            long deliveries = snapshot.deliveries().size();
            try {
                budget.change(connection, count, bytes, count, bytes, deliveries, deliveries);
            } catch (PendingBudgetStripes.Exceeded exceeded) {
                if (exceeded.ofDeliveriesOnly(count, bytes, deliveries)) {
                    throw ClockRules.noDeliveryRoomForCopy(budget.maxDeliveries(), deliveries);
                }
                throw ClockRules.noRoomForCopy(budget.capacity(), count, budget.capacityBytes(), bytes,
                        count > exceeded.availableTimers);
            }
            StoredClock loaded = ClockRows.require(connection, name, "");
            if (!snapshot.reservations().isEmpty()) {
                PostgresReservations.leave(connection, loaded, snapshot.reservations());
            }
            return loaded;
        });
    }

    /** {@code count} sequences of the database's, ascending. */
    private static long[] freshSequences(Connection connection, int count) throws SQLException {
        long[] fresh = new long[count];
        try (PreparedStatement select = connection.prepareStatement(ClockSql.FRESH_SEQUENCES)) {
            select.setInt(1, count);
            select.setFetchSize(CHUNK);
            try (ResultSet row = select.executeQuery()) {
                for (int i = 0; i < count && row.next(); i++) {
                    fresh[i] = row.getLong(1);
                }
            }
        }
        Arrays.sort(fresh);
        return fresh;
    }

    /** The snapshot's own sequences ranked, so that each takes the fresh sequence of its rank. */
    private static SnapshotSequences numbering(ClockSnapshot snapshot) {
        long[] all = new long[(int) snapshot.count()];
        int i = 0;
        for (Timer timer : snapshot.timers()) {
            all[i++] = timer.sequence();
        }
        for (Delivery delivery : snapshot.deliveries()) {
            all[i++] = delivery.sequence();
        }
        return new SnapshotSequences(all);
    }

    /** The schedules of the clock {@code name}, by id, as their rows stand. */
    private List<Schedule> schedules(Connection connection, String name) throws SQLException {
        List<Schedule> schedules = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(ScheduleSql.LIST)) {
            select.setString(1, name);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    schedules.add(ScheduleRows.rowAt(row, parser).view());
                }
            }
        }
        return schedules;
    }

    private static void insertSchedules(Connection connection, String name, List<Schedule> schedules)
            throws SQLException {
        for (Schedule schedule : schedules) {
            ScheduleRows.write(connection, name, ScheduleRows.Row.of(schedule), true);
        }
        if (!schedules.isEmpty()) {
            try (PreparedStatement count = connection.prepareStatement(ScheduleSql.COUNT_MORE)) {
                count.setLong(1, schedules.size());
                count.executeUpdate();
            }
        }
    }

    private static void insertTimers(Connection connection, String name, ClockSnapshot snapshot, long[] fresh,
                                     SnapshotSequences numbering) throws SQLException {
        List<Timer> timers = snapshot.timers();
        Map<String, Schedule> schedules = new HashMap<>();
        for (Schedule schedule : snapshot.schedules()) {
            schedules.put(schedule.id(), schedule);
        }
        try (PreparedStatement insert = connection.prepareStatement(ClockSql.LOAD_TIMERS)) {
            for (int start = 0; start < timers.size(); start += CHUNK) {
                List<Timer> chunk = timers.subList(start, Math.min(timers.size(), start + CHUNK));
                int n = chunk.size();
                Object[][] columns = {new String[n], new Long[n], new Integer[n], new Long[n], new Integer[n],
                        new Long[n], new String[n], new Long[n], new String[n], new Boolean[n], new String[n],
                        new String[n]};
                for (int i = 0; i < n; i++) {
                    Timer t = chunk.get(i);
                    columns[0][i] = t.id();
                    columns[1][i] = t.fireTime();
                    columns[2][i] = t.priority();
                    columns[3][i] = fresh[(int) numbering.of(t.sequence()) - 1];
                    columns[4][i] = (int) t.version();
                    columns[5][i] = t.createdAt();
                    columns[6][i] = t.payload();
                    columns[7][i] = Limits.bytesOf(t.id(), t.payload());
                    columns[8][i] = t.schedule();
                    columns[9][i] = t.schedule() != null && !ClockSnapshot.isScheduledOccurrence(t, schedules);
                    columns[10][i] = t.traceContext();
                    columns[11][i] = t.key();
                }
                insert.setString(1, name);
                insert.setString(2, name);
                bind(connection, insert, 3, columns, "text", "bigint", "int", "bigint", "int", "bigint", "text",
                        "bigint", "text", "boolean", "text", "text");
                insert.executeUpdate();
            }
        }
    }

    private static void insertDeliveries(Connection connection, String name, List<Delivery> deliveries,
                                         long[] fresh, SnapshotSequences numbering) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(ClockSql.LOAD_DELIVERIES)) {
            for (int start = 0; start < deliveries.size(); start += CHUNK) {
                List<Delivery> chunk = deliveries.subList(start, Math.min(deliveries.size(), start + CHUNK));
                int n = chunk.size();
                Object[][] columns = {new String[n], new Long[n], new Integer[n], new Long[n], new String[n],
                        new Long[n], new String[n], new Integer[n], new Long[n], new Long[n], new String[n],
                        new String[n], new String[n], new String[n]};
                for (int i = 0; i < n; i++) {
                    Delivery d = chunk.get(i);
                    columns[0][i] = d.id();
                    columns[1][i] = d.fireTime();
                    columns[2][i] = d.priority();
                    columns[3][i] = fresh[(int) numbering.of(d.sequence()) - 1];
                    columns[4][i] = d.payload();
                    columns[5][i] = Limits.bytesOf(d.id(), d.payload());
                    columns[6][i] = StoredClock.sql(d.state());
                    columns[7][i] = d.attempt();
                    columns[8][i] = d.state() == Delivery.State.WAITING ? d.retryAt() : null;
                    columns[9][i] = d.readyAt();
                    columns[10][i] = d.deadReason();
                    columns[11][i] = d.schedule();
                    columns[12][i] = d.traceContext();
                    columns[13][i] = d.key();
                }
                insert.setString(1, name);
                insert.setString(2, name);
                bind(connection, insert, 3, columns, "text", "bigint", "int", "bigint", "text", "bigint", "text",
                        "int", "bigint", "bigint", "text", "text", "text", "text");
                insert.executeUpdate();
            }
        }
    }

    private static void bind(Connection connection, PreparedStatement insert, int first, Object[][] columns,
                             String... types) throws SQLException {
        for (int c = 0; c < columns.length; c++) {
            Array array = connection.createArrayOf(types[c], columns[c]);
            insert.setArray(first + c, array);
        }
    }
}
