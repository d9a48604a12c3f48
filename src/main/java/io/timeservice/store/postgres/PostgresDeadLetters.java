package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.model.Reservation;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ProblemException;
import io.timeservice.model.TimerRules;
import io.timeservice.store.StoreMetrics.DeliveryEvent;
import io.timeservice.store.StoreMetrics;

/**
 * The dead letters of the PostgreSQL store: deliveries whose last attempt failed, listed page by page, redriven
 * (ready again with a fresh set of attempts) or deleted (their budget share given back). Thread-safe and safe
 * across instances: each call is one transaction whose statements lock the rows they change.
 */
public final class PostgresDeadLetters {

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    /** Told of redrives and deletions after their transaction committed. */
    private final StoreMetrics metrics;

    PostgresDeadLetters(Jdbc jdbc, PendingBudgetStripes budget, StoreMetrics metrics) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.metrics = metrics;
    }

    /**
     * A page of {@code clock}'s dead deliveries in sequence order (the order they fired in), after
     * {@code afterSequence} (null: from the first): the next page starts after the last one's sequence.
     *
     * @throws ProblemException {@code invalid_limit} below 1 (the web layer bounds it, as for the memory store),
     *                            {@code clock_not_found}
     */
    public List<Delivery> dead(String clock, int limit, Long afterSequence) {
        TimerRules.requireLimit(limit);
        return jdbc.autocommit(connection -> {
            try (PreparedStatement list = connection.prepareStatement(DeliverySql.LIST_DEAD)) {
                list.setString(1, clock);
                list.setLong(2, afterSequence == null ? Long.MIN_VALUE : afterSequence);
                list.setInt(3, limit);
                List<Delivery> page = DeliveryRows.viewsOf(list);
                if (page.isEmpty()) {
                    ClockRows.require(connection, clock, "");
                }
                return page;
            }
        });
    }

    /**
     * Makes the dead deliveries of {@code id} (only the one with {@code sequence}, if given) ready again at the
     * clock's now, with attempt 1 and a fresh set of retries; they stay counted in the budget. Returns them so.
     *
     * @throws ProblemException {@code clock_not_found}; {@code delivery_not_found} when none is dead
     */
    public List<Delivery> redrive(String clock, String id, Long sequence) {
        List<Delivery> madeReady = jdbc.inTransaction(connection -> {
            StoredClock stored = DeliveryRows.onClock(connection, clock);
            try (PreparedStatement redrive = deadOfId(connection, DeliverySql.REDRIVE, 2, clock, id, sequence)) {
                redrive.setLong(1, stored.now());
                List<Delivery> redriven = requireSome(id, sequence, DeliveryRows.viewsOf(redrive));
                ReadyWakeups.notify(connection, clock);
                return redriven;
            }
        });
        metrics.deliveries(DeliveryEvent.REDRIVEN, madeReady.size());
        return madeReady;
    }

    /**
     * Deletes the dead deliveries of {@code id} (only the one with {@code sequence}, if given), giving their share of
     * the budget back. Returns them as they were.
     *
     * @throws ProblemException {@code clock_not_found}; {@code delivery_not_found} when none is dead
     */
    public List<Delivery> deleteDead(String clock, String id, Long sequence) {
        List<Delivery> gone = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, "");
            List<Delivery> deleted = new ArrayList<>();
            long bytes = 0;
            try (PreparedStatement delete = deadOfId(connection, DeliverySql.DELETE_DEAD, 1, clock, id, sequence);
                 ResultSet rows = delete.executeQuery()) {
                while (rows.next()) {
                    deleted.add(DeliveryRows.viewOf(rows));
                    bytes += rows.getLong(14);
                }
            }
            deleted.sort(Comparator.comparingLong(Delivery::sequence));
            requireSome(id, sequence, deleted);
            budget.release(connection, deleted.size(), bytes, deleted.size());
            PostgresReservations.left(connection, stored, Reservation.State.DEAD,
                    deleted.stream().map(Delivery::id).toList(), deleted.stream().map(Delivery::sequence).toList());
            return deleted;
        });
        metrics.deliveries(DeliveryEvent.DELETED, gone.size());
        return gone;
    }

    /** {@link DeliverySql#DEAD_OF_ID}'s four parameters bound from {@code first}. */
    private static PreparedStatement deadOfId(Connection connection, String sql, int first, String clock, String id,
                                              Long sequence) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setString(first, clock);
        statement.setString(first + 1, id);
        statement.setObject(first + 2, sequence, java.sql.Types.BIGINT);
        statement.setObject(first + 3, sequence, java.sql.Types.BIGINT);
        return statement;
    }

    private static List<Delivery> requireSome(String id, Long sequence, List<Delivery> found) {
        if (found.isEmpty()) {
            throw DeliveryRules.deadDeliveryNotFound(id, sequence);
        }
        return found;
    }
}
