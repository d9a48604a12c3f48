package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Delivery.State;
import io.timeservice.model.TimeRules;
import io.timeservice.store.StoreMetrics.DeliveryEvent;
import io.timeservice.store.StoreMetrics;

/**
 * The deliveries' retry step on the PostgreSQL store: leases that ended become waiting or dead, waiting deliveries
 * whose retry time came become ready (the purge of acknowledged rows is {@link AckedRowPurge}'s). The firing loop
 * runs it for system clocks; a claim on a system clock runs the retry step first, and an advance
 * runs it for its virtual clock in its own transaction ({@link #releaseDue(Connection, StoredClock, long, boolean)}).
 *
 * <p>Thread-safe and safe across instances: the statements take the rows they move {@code FOR UPDATE SKIP LOCKED},
 * so concurrent releasers (any instance) move disjoint rows. Moving a delivery takes no budget: it stays counted
 * until it is acknowledged or deleted.
 */
public final class LeaseReleaser {

    private final Jdbc jdbc;
    /** Told of the moves after their transaction committed, as the memory store tells of them. */
    private final StoreMetrics metrics;

    LeaseReleaser(Jdbc jdbc, StoreMetrics metrics) {
        this.jdbc = jdbc;
        this.metrics = metrics;
    }

    /**
     * The retry step of {@code clock} at its now, at most {@code limit} rows of each kind: in-flight deliveries whose
     * lease ended become waiting (attempt + 1, ready at the lease's end plus the clock policy's backoff) or dead,
     * then waiting ones whose retry time has come become ready. Returns what moved, and reports it. Instances may
     * run it at once (SKIP LOCKED). An advance runs it for its virtual clock by itself.
     *
     * @throws io.timeservice.model.ProblemException {@code clock_not_found}
     */
    public Released releaseDue(String clock, int limit) {
        Released released = jdbc.inTransaction(connection -> releaseDue(connection,
                DeliveryRows.onClock(connection, clock), limit, true));
        released.reportTo(metrics);
        return released;
    }

    /**
     * The retry step of {@code clock} at its now ({@code clock.now()}), on the caller's transaction, which holds the
     * clock's row; {@code skipLocked} leaves rows other transactions hold to them (an advance, which holds its clock
     * {@code FOR UPDATE}, passes false: no other call can hold them, and it must move every one, as memory does).
     * Notifies claimers when something became ready. Takes no budget (what moves stays counted).
     */
    static Released releaseDue(Connection connection, StoredClock clock, long limit, boolean skipLocked)
            throws SQLException {
        String skip = skipLocked ? " SKIP LOCKED" : "";
        long now = clock.now();
        List<FailedAttempt> expired = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(DeliverySql.EXPIRED.formatted(skip))) {
            select.setString(1, clock.name());
            select.setLong(2, now);
            select.setLong(3, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long sequence = rows.getLong(1);
                    int attempt = rows.getInt(2);
                    long leaseUntil = rows.getLong(3);
                    expired.add(FailedAttempt.expired(sequence, attempt, rows.getLong(4), clock.retry(), leaseUntil,
                            TimeRules.saturatedAdd(leaseUntil, clock.retry().backoffMillis(sequence, attempt + 1))));
                }
            }
        }
        int died = 0;
        if (!expired.isEmpty()) {
            for (FailedAttempt failed : expired) {
                died += failed.state() == State.DEAD ? 1 : 0;
            }
            FailedAttempt.apply(connection, expired);
        }
        try (PreparedStatement retry = connection.prepareStatement(DeliverySql.RETRY.formatted(skip))) {
            retry.setString(1, clock.name());
            retry.setLong(2, now);
            retry.setLong(3, limit);
            int ready = retry.executeUpdate();
            if (ready > 0) {
                ReadyWakeups.notify(connection, clock.name());
            }
            return expired.isEmpty() && ready == 0 ? Released.NOTHING : new Released(expired.size(), died, ready);
        }
    }

    /**
     * What one retry step moved, as the memory store's {@code DeliveryQueue.Settled} counts it: {@code expired}
     * leases that ended (waiting again or dead), {@code died} those of them that were dead after their last attempt,
     * {@code readied} waiting deliveries whose retry time had come.
     */
    public record Released(int expired, int died, int readied) {
        static final Released NOTHING = new Released(0, 0, 0);

        /** Reports the events; call after the transaction that moved them committed. */
        void reportTo(StoreMetrics metrics) {
            report(metrics, DeliveryEvent.EXPIRED, expired);
            report(metrics, DeliveryEvent.DEAD, died);
            report(metrics, DeliveryEvent.REDELIVERED, readied);
        }

        private static void report(StoreMetrics metrics, DeliveryEvent event, int count) {
            if (count > 0) {
                metrics.deliveries(event, count);
            }
        }
    }
}
