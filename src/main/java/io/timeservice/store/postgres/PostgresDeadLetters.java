package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.Reservation;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ProblemException;
import io.timeservice.model.TimerRules;
import io.timeservice.store.DeliveryStore.Chunk;
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
                    bytes += rows.getLong(16);
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
 
    /**
     * Up to {@code limit} of {@code clock}'s deliveries that {@code filter} takes, by sequence after
     * {@code afterSequence}.
     *
     * @throws ProblemException {@code invalid_limit}, {@code invalid_request}, {@code clock_not_found}
     */
    public List<Delivery> list(String clock, DeliveryFilter filter, int limit, long afterSequence) {
        TimerRules.requireLimit(limit);
        DeliveryRules.requireFilter(filter);
        return jdbc.autocommit(connection -> {
            try (PreparedStatement list = connection.prepareStatement(DeliverySql.LIST)) {
                list.setString(1, clock);
                list.setString(2, filter.state().name().toLowerCase(java.util.Locale.ROOT));
                list.setLong(3, afterSequence);
                int next = bindFilter(list, 4, filter);
                list.setInt(next, limit);
                List<Delivery> page = DeliveryRows.viewsOf(list);
                if (page.isEmpty()) {
                    ClockRows.require(connection, clock, "");
                }
                return page;
            }
        });
    }

    /** How many of {@code clock}'s deliveries {@code filter} takes. @throws ProblemException as {@link #list} */
    public long count(String clock, DeliveryFilter filter) {
        DeliveryRules.requireFilter(filter);
        return jdbc.autocommit(connection -> {
            ClockRows.require(connection, clock, "");
            try (PreparedStatement count = connection.prepareStatement(DeliverySql.COUNT_MATCHING)) {
                count.setString(1, clock);
                count.setString(2, filter.state().name().toLowerCase(java.util.Locale.ROOT));
                bindFilter(count, 3, filter);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    /** One chunk of a bulk redrive, in one transaction: see {@link io.timeservice.store.DeliveryStore#redriveChunk}. */
    public Chunk redriveChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        DeliveryRules.requireFilter(filter);
        Chunk chunk = jdbc.inTransaction(connection -> {
            StoredClock stored = DeliveryRows.onClock(connection, clock);
            try (PreparedStatement redrive = connection.prepareStatement(DeliverySql.REDRIVE_CHUNK)) {
                redrive.setLong(1, stored.now());
                redrive.setString(2, clock);
                redrive.setLong(3, afterSequence);
                redrive.setInt(bindFilter(redrive, 4, filter), max);
                int changed = 0;
                long last = afterSequence;
                try (ResultSet rows = redrive.executeQuery()) {
                    while (rows.next()) {
                        changed++;
                        last = Math.max(last, rows.getLong(1));
                    }
                }
                if (changed > 0) {
                    ReadyWakeups.notify(connection, clock);
                }
                return new Chunk(changed, changed, last, changed == max);
            }
        });
        metrics.deliveries(DeliveryEvent.REDRIVEN, chunk.changed());
        return chunk;
    }

    /** One chunk of a bulk deletion, in one transaction, giving the budget its share back. */
    public Chunk deleteChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        DeliveryRules.requireFilter(filter);
        Chunk chunk = jdbc.inTransaction(connection -> {
            ClockRows.require(connection, clock, "");
            try (PreparedStatement delete = connection.prepareStatement(DeliverySql.DELETE_CHUNK)) {
                delete.setString(1, clock);
                delete.setLong(2, afterSequence);
                delete.setInt(bindFilter(delete, 3, filter), max);
                int changed = 0;
                long bytes = 0;
                long last = afterSequence;
                try (ResultSet rows = delete.executeQuery()) {
                    while (rows.next()) {
                        changed++;
                        last = Math.max(last, rows.getLong(1));
                        bytes += rows.getLong(2);
                    }
                }
                if (changed > 0) {
                    budget.release(connection, changed, bytes, changed);
                }
                return new Chunk(changed, changed, last, changed == max);
            }
        });
        metrics.deliveries(DeliveryEvent.DELETED, chunk.changed());
        return chunk;
    }

    /** Binds {@link DeliverySql}'s filter conditions from {@code first}; returns the next parameter's index. */
    private static int bindFilter(PreparedStatement statement, int first, DeliveryFilter filter) throws SQLException {
        statement.setString(first, filter.idPrefix());
        statement.setString(first + 1, filter.idPrefix());
        statement.setObject(first + 2, filter.minAttempt(), java.sql.Types.INTEGER);
        statement.setObject(first + 3, filter.minAttempt(), java.sql.Types.INTEGER);
        statement.setString(first + 4, filter.reason());
        statement.setString(first + 5, filter.reason());
        statement.setObject(first + 6, filter.deadSince(), java.sql.Types.BIGINT);
        statement.setObject(first + 7, filter.deadSince(), java.sql.Types.BIGINT);
        return first + 8;
    }
}
