package io.timeservice.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

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
 * of the sequence); the memory store keeps the sequences.
 */
public final class PostgresClockCopy {

    /**
     * Copies the timers and deliveries of the clock {@code src} into {@code dst} with fresh sequences in the same
     * order, an in-flight delivery ready at {@code now}; answers the count and bytes copied, and how many of the count
     * are deliveries.
     */
    private static final String COPY = """
            WITH args AS (SELECT ?::text AS src, ?::text AS dst, ?::bigint AS now),
            old AS (
                SELECT seq FROM timers WHERE clock = (SELECT src FROM args)
                UNION ALL SELECT seq FROM deliveries WHERE clock = (SELECT src FROM args) AND state <> 'acked'),
            fresh AS MATERIALIZED (
                SELECT nextval('timer_sequence') AS seq FROM generate_series(1, (SELECT count(*) FROM old))),
            mapped AS MATERIALIZED (
                SELECT o.seq AS old_seq, f.seq AS new_seq
                  FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS r FROM old) o
                  JOIN (SELECT seq, row_number() OVER (ORDER BY seq) AS r FROM fresh) f USING (r)),
            copied_timers AS (
                INSERT INTO timers (clock, id, fire_time, priority, seq, version, created_at, created_at_wall,
                                    payload, bytes, schedule, triggered, system_clock)
                SELECT (SELECT dst FROM args), t.id, t.fire_time, t.priority, m.new_seq, t.version, t.created_at, t.created_at_wall,
                       t.payload, t.bytes, t.schedule, t.triggered, t.system_clock
                  FROM timers t JOIN mapped m ON m.old_seq = t.seq
                 WHERE t.clock = (SELECT src FROM args)
                RETURNING bytes),
            copied_deliveries AS (
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                        attempt, claim, lease_until, retry_at, ready_at, done_at, dead_reason, schedule,
                                        system_clock)
                SELECT m.new_seq, (SELECT dst FROM args), d.id, d.fire_time, d.priority, d.version, d.created_at, d.payload, d.bytes,
                       CASE WHEN d.state = 'in_flight' THEN 'ready' ELSE d.state END, d.attempt, NULL, NULL,
                       d.retry_at, CASE WHEN d.state = 'in_flight' THEN (SELECT now FROM args) ELSE d.ready_at END, d.done_at,
                       d.dead_reason, d.schedule, d.system_clock
                  FROM deliveries d JOIN mapped m ON m.old_seq = d.seq
                 WHERE d.clock = (SELECT src FROM args) AND d.state <> 'acked'
                RETURNING bytes)
            SELECT (SELECT count(*) FROM copied_timers) + (SELECT count(*) FROM copied_deliveries),
                   (SELECT coalesce(sum(bytes), 0) FROM copied_timers)
                       + (SELECT coalesce(sum(bytes), 0) FROM copied_deliveries),
                   (SELECT count(*) FROM copied_deliveries)""";
    /**
     * Copies the schedules of the clock {@code src} into {@code dst} as they stand (counts, pending occurrence, version)
     * and counts them in {@code schedule_count}, beyond {@code timeservice.schedules.max} if need be: a fork copies
     * whole, as a recovered memory store counts what it rebuilt.
     */
    private static final String COPY_SCHEDULES = """
            WITH copied AS (
                INSERT INTO schedules (clock, id, cron, every_ms, zone, start_ms, end_ms, occurrence_limit, priority,
                                       payload, catch_up, paused, pending, fired, skipped, triggered, taken, version)
                SELECT ?, id, cron, every_ms, zone, start_ms, end_ms, occurrence_limit, priority, payload, catch_up,
                       paused, pending, fired, skipped, triggered, taken, version
                  FROM schedules WHERE clock = ?
                RETURNING 1)
            UPDATE schedule_count SET schedules = schedules + (SELECT count(*) FROM copied)""";
    private static final String COPY_CLOCK = """
            INSERT INTO clocks (name, mode, now_ms, initial_now, delivery, settings, rate_millionths, anchor_wall,
                                push_url, push_timeout, push_concurrency, push_header_names, push_header_values,
                                push_secrets, fired_through)
            SELECT ?, mode, now_ms, CASE WHEN mode = 'scaled' THEN clock_now_ms(clocks) ELSE now_ms END, delivery,
                   settings, rate_millionths, anchor_wall, push_url, push_timeout, push_concurrency,
                   push_header_names, push_header_values, push_secrets, fired_through
              FROM clocks WHERE name = ?""";

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
            PostgresClocks.lockCreation(connection);
            StoredClock original = PostgresClocks.require(connection, source, " FOR UPDATE");
            if (PostgresClocks.find(connection, name, "") != null) {
                throw ClockRules.copyNameTaken(name, source);
            }
            ClockRules.requireClockRoom(PostgresClocks.count(connection), maxClocks);
            try (PreparedStatement insert = connection.prepareStatement(COPY_CLOCK)) {
                insert.setString(1, name);
                insert.setString(2, source);
                insert.executeUpdate();
            }
            long count;
            long bytes;
            long deliveries;
            try (PreparedStatement copy = connection.prepareStatement(COPY)) {
                copy.setString(1, source);
                copy.setString(2, name);
                copy.setLong(3, original.now());
                try (ResultSet row = copy.executeQuery()) {
                    row.next();
                    count = row.getLong(1);
                    bytes = row.getLong(2);
                    deliveries = row.getLong(3);
                }
            }
            try (PreparedStatement schedules = connection.prepareStatement(COPY_SCHEDULES)) {
                schedules.setString(1, name);
                schedules.setString(2, source);
                schedules.executeUpdate();
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
            return PostgresClocks.require(connection, name, "");
        });
    }
}
