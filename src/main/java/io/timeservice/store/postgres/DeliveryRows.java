package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryRules;

/**
 * What the deliveries' classes ({@link PostgresDeliveries}, {@link LeaseReleaser}, {@link PostgresDeadLetters}) read
 * the same way: the clock a call runs on, deliveries from {@link DeliverySql#VIEW} rows, claim tokens.
 */
final class DeliveryRows {

    private DeliveryRows() {
    }

    /**
     * The clock a delivery call runs on, read in the call's transaction: a virtual clock's row {@code FOR SHARE}, so
     * no advance of it runs until the call commits; a system clock's unlocked (claims and acks of one busy clock must
     * not queue on one row), its now the database's clock. One statement ({@link ClockSql#FIND_LOCKING_VIRTUAL}).
     *
     * @throws io.timeservice.model.ProblemException {@code clock_not_found}
     */
    static StoredClock onClock(Connection connection, String clock) throws SQLException {
        StoredClock stored = clock == null ? null : Jdbc.queryFirst(connection, ClockSql.FIND_LOCKING_VIRTUAL,
                select -> {
                    select.setString(1, clock);
                    select.setString(2, clock);
                }, ClockRows::clockOf);
        return ClockRows.found(clock, stored);
    }

    /**
     * The clock of a delivery call, once {@code validate} accepted the call's input and the clock is known to queue
     * its fired timers: the memory store's order of refusals ({@code clock_not_found}, the input, then
     * {@code clock_not_queued}), decided in the call's transaction, so that the call reads its clock once.
     */
    static StoredClock onQueueClock(Connection connection, String clock, Runnable validate) throws SQLException {
        StoredClock stored = onClock(connection, clock);
        validate.run();
        requireQueue(stored);
        return stored;
    }

    /**
     * @throws io.timeservice.model.ProblemException {@code clock_not_queued} for a clock that returns fired timers
     *                                                 from advance
     */
    static void requireQueue(StoredClock clock) {
        if (clock.delivery() == ClockSettings.DeliveryMode.RESPONSE) { // queue and push clocks hold deliveries
            throw DeliveryRules.clockNotQueued();
        }
    }

    /** The deliveries a statement selecting {@link DeliverySql#VIEW} answers, by sequence (RETURNING follows no order). */
    static List<Delivery> viewsOf(PreparedStatement statement) throws SQLException {
        List<Delivery> views = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                views.add(viewOf(rows));
            }
        }
        views.sort(Comparator.comparingLong(Delivery::sequence));
        return views;
    }

    /** The delivery in the row's {@link DeliverySql#VIEW} columns, as the memory store shows it (0 for a time it has not). */
    static Delivery viewOf(ResultSet row) throws SQLException {
        State state = State.valueOf(row.getString(7).toUpperCase(Locale.ROOT));
        UUID claim = row.getObject(8, UUID.class);
        return new Delivery(row.getString(1), row.getLong(2), row.getInt(3), row.getLong(4), row.getString(5),
                row.getInt(6), state, claim == null ? null : claim.toString(), row.getLong(9), row.getLong(10),
                row.getLong(11), row.getString(12), row.getString(13), row.getString(14), row.getString(15));
    }

    /** A claim token as the API carries it; null for text that is no token (no delivery holds it). */
    static UUID token(String claim) {
        try {
            return claim == null ? null : UUID.fromString(claim);
        } catch (IllegalArgumentException notAToken) {
            return null;
        }
    }
}
