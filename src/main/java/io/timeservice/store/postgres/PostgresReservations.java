package io.timeservice.store.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;

/**
 * The PostgreSQL store's reserved ids (a clock's dedupe window; the memory store's {@code Reservations}): rows of
 * {@code reservations} ({@link ReservationSql}), written in the transaction that made a timer leave the pending set
 * (fired, cancelled, its delivery acknowledged or its dead letter deleted) and read by the transaction of an add,
 * which holds the clock's row {@code FOR SHARE}. A reservation's end is on the clock's own time (the expiry column);
 * a fired timer of a queueing clock is reserved without an end while its delivery is queued. Each call on a clock
 * with a window first purges the clock's ended rows (by the expiry index). A clock without a window costs nothing
 * here: every method returns before any statement.
 *
 * <p>The cap ({@code timeservice.dedupe.max-reservations}) counts every clock's rows, as the idempotency keys' cap
 * does: one count per add on a clock with a window.
 */
final class PostgresReservations {

    private volatile long max = Long.MAX_VALUE;

    /** Bounds the reservations over every clock: an add on a clock with a window beyond it is refused. */
    void limit(long maxReservations) {
        max = maxReservations;
    }

    /**
     * Refuses an add of {@code id} the clock keeps reserved ({@code duplicate_id} with {@code previous}), or one
     * beyond the cap ({@code reservation_limit}).
     */
    void requireAddable(Connection connection, StoredClock clock, String id) throws SQLException {
        if (clock.dedupeWindow() == 0) {
            return;
        }
        Reservation held = find(connection, clock, id);
        if (held != null) {
            throw TimerRules.idReserved(held);
        }
        purge(connection, clock);
        if (max != Long.MAX_VALUE) {
            TimerRules.requireReservationRoom(Jdbc.queryOne(connection, ReservationSql.COUNT, count -> { },
                    row -> row.getLong(1)), max);
        }
    }

    /** The live reservation of {@code id}, or null. */
    static Reservation find(Connection connection, StoredClock clock, String id) throws SQLException {
        return Jdbc.queryFirst(connection, ReservationSql.FIND, select -> {
            select.setString(1, clock.name());
            select.setString(2, id);
            select.setLong(3, clock.now());
        }, row -> reservation(id, row, 1));
    }

    /** {@code fired} left the pending set: reserved from their fireTimes, or while queued on a queueing clock. */
    static void fired(Connection connection, StoredClock clock, List<Timer> fired) throws SQLException {
        if (clock.dedupeWindow() == 0 || fired.isEmpty()) {
            return;
        }
        List<Reservation> left = new ArrayList<>(fired.size());
        for (Timer timer : fired) {
            left.add(new Reservation(timer.id(), Reservation.State.FIRED, timer.fireTime(), timer.sequence()));
        }
        leave(connection, clock, left);
    }

    /** The timers {@code ids} of {@code sequences} left now as {@code state} (cancelled, acknowledged, dead). */
    static void left(Connection connection, StoredClock clock, Reservation.State state, List<String> ids,
                     List<Long> sequences) throws SQLException {
        if (clock.dedupeWindow() == 0 || ids.isEmpty()) {
            return;
        }
        List<Reservation> left = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            left.add(new Reservation(ids.get(i), state, clock.now(), sequences.get(i)));
        }
        leave(connection, clock, left);
    }

    /** Writes {@code left} (new rows or rows reserved again), after purging the clock's ended ones. */
    static void leave(Connection connection, StoredClock clock, List<Reservation> left) throws SQLException {
        purge(connection, clock);
        int n = left.size();
        String[] ids = new String[n];
        String[] states = new String[n];
        Long[] times = new Long[n];
        Long[] sequences = new Long[n];
        Long[] expiries = new Long[n];
        for (int i = 0; i < n; i++) {
            Reservation r = left.get(i);
            ids[i] = r.id();
            states[i] = r.state().code();
            times[i] = r.time();
            sequences[i] = r.sequence();
            boolean pinned = clock.queues() && r.state() == Reservation.State.FIRED;
            expiries[i] = pinned ? null : r.time() + clock.dedupeWindow();
        }
        try (PreparedStatement insert = connection.prepareStatement(ReservationSql.LEAVE)) {
            insert.setString(1, clock.name());
            insert.setArray(2, array(connection, "text", ids));
            insert.setArray(3, array(connection, "text", states));
            insert.setArray(4, array(connection, "bigint", times));
            insert.setArray(5, array(connection, "bigint", sequences));
            insert.setArray(6, array(connection, "bigint", expiries));
            insert.executeUpdate();
        }
    }

    /** Releases {@code id}'s live reservation; answers it, or null when the clock keeps none. */
    static Reservation release(Connection connection, StoredClock clock, String id) throws SQLException {
        return Jdbc.queryFirst(connection, ReservationSql.RELEASE, delete -> {
            delete.setString(1, clock.name());
            delete.setString(2, id);
            delete.setLong(3, clock.now());
        }, row -> reservation(id, row, 1));
    }

    /** The clock's live reservations, by the time their windows began (a snapshot, a fork). */
    static List<Reservation> list(Connection connection, StoredClock clock) throws SQLException {
        List<Reservation> all = new ArrayList<>();
        if (clock.dedupeWindow() == 0) {
            return all;
        }
        try (PreparedStatement select = connection.prepareStatement(ReservationSql.LIST)) {
            select.setString(1, clock.name());
            select.setLong(2, clock.now());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    all.add(reservation(rows.getString(1), rows, 2));
                }
            }
        }
        return all;
    }

    /** Forgets every reservation of the clock (the demo's reset). */
    static void deleteAll(Connection connection, String clock) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(ReservationSql.DELETE_ALL)) {
            delete.setString(1, clock);
            delete.executeUpdate();
        }
    }

    private static void purge(Connection connection, StoredClock clock) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(ReservationSql.PURGE)) {
            delete.setString(1, clock.name());
            delete.setLong(2, clock.now());
            delete.executeUpdate();
        }
    }

    /** The reservation of {@code id} in columns state, time, seq from {@code first} on. */
    private static Reservation reservation(String id, ResultSet row, int first) throws SQLException {
        return new Reservation(id, Reservation.State.valueOf(row.getString(first).toUpperCase(Locale.ROOT)),
                row.getLong(first + 1), row.getLong(first + 2));
    }

    private static Array array(Connection connection, String type, Object[] values) throws SQLException {
        return connection.createArrayOf(type, values);
    }
}
