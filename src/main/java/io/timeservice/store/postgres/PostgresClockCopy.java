package io.timeservice.store.postgres;

import java.sql.PreparedStatement;

import io.timeservice.model.ClockRules;
import io.timeservice.model.ProblemException;

/**
 * Forks of the PostgreSQL store's clocks ({@link io.timeservice.store.ClockStore#copy}): one transaction that locks
 * the source's row ({@code FOR UPDATE}, so no advance, add, claim, ack or nack of it runs meanwhile) and copies the
 * clock row, its timers and its unacknowledged deliveries in one statement (one snapshot), in-flight ones ready again
 * from the source's now with their attempt kept and no claim, and its schedules with their counts (their pending
 * occurrences are among the timers).
 *
 * <p>Sequences: the {@code timers_seq} and {@code deliveries} keys make a sequence unique over all clocks, so the copy
 * takes fresh ones from the database's sequence, handed out in the source's sequence order: firing order, claim
 * order and every later sequence compare in the copy as in the source (later ones come after every copied one in
 * both). Entity tags of copied timers therefore differ from the source's, and so do retry times with jitter (a hash
 * of the sequence); the memory store keeps the sequences. The statements are {@link ClockSql}'s and, for the
 * schedules, {@link ScheduleSql#COPY}.
 */
public final class PostgresClockCopy {

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final int maxClocks;

    PostgresClockCopy(Jdbc jdbc, PendingBudgetStripes budget, int maxClocks) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.maxClocks = maxClocks;
    }

    /**
     * Creates the clock {@code name} as a copy of {@code source}, in one transaction; returns the copy.
     *
     * @throws ProblemException {@code invalid_id}, {@code clock_not_found} (no source), {@code clock_conflict}
     *                            ({@code name} exists), {@code clock_limit}, {@code capacity_exceeded}
     */
    public StoredClock copy(String name, String source) {
        ClockRules.requireValidClockName(name);
        return jdbc.inTransaction(connection -> {
            ClockRows.lockCreation(connection);
            StoredClock original = ClockRows.require(connection, source, " FOR UPDATE");
            if (ClockRows.find(connection, name, "") != null) {
                throw ClockRules.copyNameTaken(name, source);
            }
            ClockRules.requireClockRoom(ClockRows.count(connection), maxClocks);
            try (PreparedStatement insert = connection.prepareStatement(ClockSql.COPY_CLOCK)) {
                insert.setString(1, name);
                insert.setString(2, source);
                insert.executeUpdate();
            }
            long[] copied = Jdbc.queryOne(connection, ClockSql.COPY_ROWS, copy -> {
                copy.setString(1, source);
                copy.setString(2, name);
                copy.setLong(3, original.now());
            }, row -> new long[] {row.getLong(1), row.getLong(2), row.getLong(3)});
            long count = copied[0];
            long bytes = copied[1];
            long deliveries = copied[2];
            try (PreparedStatement schedules = connection.prepareStatement(ScheduleSql.COPY)) {
                schedules.setString(1, name);
                schedules.setString(2, source);
                schedules.executeUpdate();
            }
            try (PreparedStatement reservations = connection.prepareStatement(ReservationSql.COPY)) {
                reservations.setString(1, name);
                reservations.setString(2, source);
                reservations.setLong(3, original.now());
                reservations.executeUpdate();
            }
            try {
                budget.change(connection, count, bytes, count, bytes, deliveries, deliveries);
            } catch (PendingBudgetStripes.Exceeded exceeded) {
                if (exceeded.ofDeliveriesOnly(count, bytes, deliveries)) {
                    throw ClockRules.noDeliveryRoomForCopy(budget.maxDeliveries(), deliveries);
                }
                throw ClockRules.noRoomForCopy(budget.capacity(), count, budget.capacityBytes(), bytes,
                        count > exceeded.availableTimers);
            }
            return ClockRows.require(connection, name, "");
        });
    }
}
