package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.timeservice.core.DeliveryCounts;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;

/**
 * Deliveries on the PostgreSQL store (table {@code deliveries}): firing due timers of system clocks into the ready
 * queue, claiming in firing order with leases, ack, nack and extend checked against the claim's token, and the
 * lease expiry and retry steps. Every decision about time uses the database's clock ({@code db_now_ms()}), so
 * instances with skewed clocks agree.
 *
 * <p>Thread-safe and safe across instances: the claim is one statement whose inner SELECT takes the front of the
 * ready queue with {@code FOR UPDATE SKIP LOCKED}, so concurrent claimers (any instance) take disjoint rows and no
 * row is handed out twice; ack, nack and extend are single conditional UPDATEs that change nothing unless the
 * delivery is in flight under that claim with its lease not yet expired. A lease is lost only by its expiry.
 */
public final class PostgresDeliveries {

    /**
     * Claims up to {@code max} ready deliveries of one clock in firing order. The inner SELECT is the fence: it is
     * planned on its own (a subquery in FROM), reads the front of the partial index {@code deliveries_ready} and
     * locks what it returns, skipping rows another claim holds; the UPDATE then marks exactly those rows.
     */
    static final String CLAIM = """
            UPDATE deliveries d
               SET state = 'in_flight', claim = gen_random_uuid(), lease_until = db_now_ms() + ?
              FROM (SELECT seq FROM deliveries
                     WHERE clock = ? AND state = 'ready'
                     ORDER BY fire_time, priority, seq
                     LIMIT ?
                     FOR UPDATE SKIP LOCKED) picked
             WHERE d.seq = picked.seq
            RETURNING d.id, d.fire_time, d.priority, d.seq, d.payload, d.attempt, d.claim, d.lease_until""";

    /** Moves a system clock's due timers (the database's clock decides) into its ready queue, in firing order. */
    private static final String FIRE_DUE = """
            WITH picked AS (
                SELECT seq FROM timers
                 WHERE clock = ? AND fire_time <= db_now_ms()
                 ORDER BY fire_time, priority, seq
                 LIMIT ?
                 FOR UPDATE SKIP LOCKED),
            fired AS (
                DELETE FROM timers t USING picked WHERE t.seq = picked.seq RETURNING t.*)
            INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state)
            SELECT seq, clock, id, fire_time, priority, version, created_at, payload, bytes, 'ready' FROM fired""";

    /** A delivery in flight under this claim whose lease has not expired: the only one ack, nack or extend touch. */
    private static final String HELD =
            " WHERE clock = ? AND id = ? AND claim = ? AND state = 'in_flight' AND lease_until > db_now_ms()";

    private static final String ACK = "UPDATE deliveries SET state = 'acked', done_at = db_now_ms(),"
            + " lease_until = NULL" + HELD + " RETURNING bytes";
    private static final String ALREADY_ACKED = """
            SELECT 1 FROM deliveries WHERE clock = ? AND id = ? AND claim = ? AND state = 'acked'""";
    private static final String EXTEND = "UPDATE deliveries SET lease_until = db_now_ms() + ?" + HELD;
    /** The backoff of the attempt that just failed: {@link RetryPolicy}, in SQL (attempt is the column). */
    private static final String BACKOFF = "floor(least(?::float8, ?::float8 * power(?::float8, attempt - 1))"
            + " * (1 - ?::float8 * random()))::bigint";
    /** A failed attempt: waiting for retry_at with attempt + 1, or dead after the last one. */
    private static final String FAILED_ATTEMPT = """
               SET state = CASE WHEN attempt >= ? THEN 'dead' ELSE 'waiting' END,
                   done_at = CASE WHEN attempt >= ? THEN db_now_ms() END,
                   attempt = CASE WHEN attempt >= ? THEN attempt ELSE attempt + 1 END,
                   claim = NULL, lease_until = NULL,
                   retry_at = CASE WHEN attempt >= ? THEN NULL ELSE db_now_ms() + %s END""";
    private static final String NACK = "UPDATE deliveries "
            + FAILED_ATTEMPT.formatted("coalesce(?, " + BACKOFF + ")") + HELD;
    private static final String EXPIRE = "UPDATE deliveries " + FAILED_ATTEMPT.formatted(BACKOFF) + """

             WHERE seq IN (SELECT seq FROM deliveries
                            WHERE clock = ? AND state = 'in_flight' AND lease_until <= db_now_ms()
                            ORDER BY lease_until LIMIT ? FOR UPDATE SKIP LOCKED)""";
    private static final String RETRY = """
            UPDATE deliveries SET state = 'ready', retry_at = NULL, ready_at = db_now_ms()
             WHERE seq IN (SELECT seq FROM deliveries
                            WHERE clock = ? AND state = 'waiting' AND retry_at <= db_now_ms()
                            ORDER BY retry_at LIMIT ? FOR UPDATE SKIP LOCKED)""";
    private static final String PURGE_ACKED = """
            DELETE FROM deliveries
             WHERE seq IN (SELECT seq FROM deliveries WHERE state = 'acked' AND done_at <= db_now_ms() - ?
                            LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private static final String DEAD_COLUMNS = "id, fire_time, priority, seq, payload, attempt, done_at";
    private static final String LIST_DEAD = "SELECT " + DEAD_COLUMNS + """

             FROM deliveries
             WHERE clock = ? AND state = 'dead' AND seq > ?
             ORDER BY seq LIMIT ?""";
    /** The dead deliveries of an id (or the one with that sequence), in sequence order. */
    private static final String DEAD_OF_ID = " WHERE clock = ? AND id = ? AND state = 'dead'"
            + " AND (?::bigint IS NULL OR seq = ?::bigint)";
    /** Dead deliveries become ready again with a fresh set of attempts; returns them as they were (the subquery). */
    private static final String REDRIVE = """
            UPDATE deliveries d SET state = 'ready', attempt = 1, done_at = NULL, ready_at = db_now_ms()
              FROM (SELECT seq, attempt, done_at FROM deliveries""" + DEAD_OF_ID + """
             FOR UPDATE) was
             WHERE d.seq = was.seq
            RETURNING d.id, d.fire_time, d.priority, d.seq, d.payload, was.attempt, was.done_at""";
    private static final String DELETE_DEAD = "DELETE FROM deliveries" + DEAD_OF_ID + " RETURNING " + DEAD_COLUMNS
            + ", bytes";
    /**
     * What "no such dead delivery" answers. Issue 16 names it 404 {@code delivery_not_found}, which {@code ErrorCode}
     * does not have on this branch yet (the lead's adds it): then change this line.
     */
    static final ErrorCode NO_DEAD_DELIVERY = ErrorCode.DELIVERY_NOT_FOUND;
    public static final int MAX_DEAD_PAGE = 1_000;

    private static final Comparator<Delivery> FIRING_ORDER = Comparator.comparingLong(Delivery::fireTime)
            .thenComparingInt(Delivery::priority).thenComparingLong(Delivery::sequence);

    /** Longest lease a claim or extend may ask for: 12 h (issue 16). */
    public static final long MAX_LEASE_MILLIS = 12 * 3_600_000L;
    public static final int MAX_CLAIM = 1_000;

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final ReadyWakeups wakeups;
    private final FiringAlarm alarm;

    /** Longest a claim may wait for something to become ready: 30 s (issue 16). */
    public static final long MAX_CLAIM_WAIT_MILLIS = 30_000;

    PostgresDeliveries(Jdbc jdbc, PendingBudgetStripes budget, ReadyWakeups wakeups, FiringAlarm alarm) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.wakeups = wakeups;
        this.alarm = alarm;
    }

    /**
     * Fires up to {@code limit} timers of {@code clock} that are due by the database's clock into its ready queue;
     * returns how many. Instances may run it at once: each moves timers no other is moving. The timers stay counted
     * in the budget as deliveries.
     *
     * <p>The clock's row is locked ({@code FOR KEY SHARE}) before any timer: the deliveries' foreign key takes that
     * lock anyway, and taking it last could deadlock with a deletion of the clock, which locks the clock first and
     * then its timers.
     *
     * @throws SchedulerException {@code clock_not_found}
     */
    public int fireDue(String clock, int limit) {
        return jdbc.inTransaction(connection -> {
            PostgresClocks.require(connection, clock, " FOR KEY SHARE");
            try (PreparedStatement fire = connection.prepareStatement(FIRE_DUE)) {
                fire.setString(1, clock);
                fire.setInt(2, limit);
                int fired = fire.executeUpdate();
                if (fired > 0) {
                    ReadyWakeups.notify(connection, clock);
                }
                return fired;
            }
        });
    }

    /**
     * Claims up to {@code max} ready deliveries of {@code clock}, oldest first in firing order, each leased for
     * {@code leaseMillis} from now (the database's clock) under a token of its own.
     *
     * @throws SchedulerException {@code invalid_request} for max outside 1..{@value #MAX_CLAIM} or a lease outside
     *                            1 ms..12 h
     */
    public List<Delivery> claim(String clock, int max, long leaseMillis) {
        if (max < 1 || max > MAX_CLAIM) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "max must be between 1 and " + MAX_CLAIM + ": "
                    + max);
        }
        requireLease(leaseMillis);
        List<Delivery> leased = jdbc.autocommit(connection -> {
            try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
                claim.setLong(1, leaseMillis);
                claim.setString(2, clock);
                claim.setInt(3, max);
                List<Delivery> claimed = new ArrayList<>(max);
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        claimed.add(new Delivery(rows.getString(1), rows.getLong(2), rows.getInt(3), rows.getLong(4),
                                rows.getString(5), rows.getInt(6), rows.getObject(7, UUID.class), rows.getLong(8)));
                    }
                }
                if (claimed.isEmpty()) {
                    PostgresClocks.require(connection, clock, ""); // nothing ready, or no such clock
                }
                claimed.sort(FIRING_ORDER); // RETURNING follows no order
                return claimed;
            }
        });
        if (!leased.isEmpty()) {
            alarm.dueAt(leased.get(0).leaseUntil()); // the firing loop releases the leases when they expire
        }
        return leased;
    }

    /**
     * A long poll: claims as {@link #claim(String, int, long)} does, and when nothing is ready waits up to
     * {@code waitMillis} for deliveries of {@code clock} to become ready on any instance (woken by a notification,
     * else by the slow poll), then claims again; answers what it got, or nothing when the wait ends empty. Holds
     * no connection while it waits.
     *
     * @throws SchedulerException as {@link #claim(String, int, long)}; {@code invalid_request} for a wait outside
     *                            0..{@value #MAX_CLAIM_WAIT_MILLIS} ms
     */
    public List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        if (waitMillis < 0 || waitMillis > MAX_CLAIM_WAIT_MILLIS) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "wait must be between 0 and "
                    + MAX_CLAIM_WAIT_MILLIS + " ms: " + waitMillis);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (true) {
            long seen = wakeups.generation(clock); // before the claim: a wake-up after it ends the wait below
            List<Delivery> claimed = claim(clock, max, leaseMillis);
            long left = deadline - System.nanoTime();
            if (!claimed.isEmpty() || left <= 0) {
                return claimed;
            }
            try {
                wakeups.awaitChange(clock, seen, left);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return claimed;
            }
        }
    }

    /**
     * Acknowledges the delivery {@code id} held under {@code claim}: done, its budget share given back. Idempotent
     * for the same claim.
     *
     * @return false when the claim is lost (wrong, expired, or the delivery was nacked): nothing changed
     * @throws SchedulerException {@code clock_not_found}
     */
    public boolean ack(String clock, String id, String claim) {
        UUID token = token(claim);
        if (token == null) {
            return jdbc.autocommit(connection -> lost(connection, clock));
        }
        return jdbc.inTransaction(connection -> {
            try (PreparedStatement ack = held(connection, ACK, 1, clock, id, token);
                 ResultSet row = ack.executeQuery()) {
                if (row.next()) {
                    budget.release(connection, 1, row.getLong(1));
                    return true;
                }
            }
            try (PreparedStatement acked = held(connection, ALREADY_ACKED, 1, clock, id, token);
                 ResultSet row = acked.executeQuery()) {
                return row.next() || lost(connection, clock);
            }
        });
    }

    /**
     * Gives the delivery {@code id} held under {@code claim} back: tried again after {@code retryAfterMillis}
     * (null: the policy's backoff) with attempt + 1, or dead if this was its last attempt.
     *
     * @return false when the claim is lost: nothing changed
     */
    public boolean nack(String clock, String id, String claim, Long retryAfterMillis, RetryPolicy policy) {
        if (retryAfterMillis != null && (retryAfterMillis < 0 || retryAfterMillis > MAX_LEASE_MILLIS)) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "retryAfter must be between 0 and "
                    + MAX_LEASE_MILLIS + ": " + retryAfterMillis);
        }
        UUID token = token(claim);
        if (token == null) {
            return jdbc.autocommit(connection -> lost(connection, clock));
        }
        boolean nacked = jdbc.autocommit(connection -> {
            try (PreparedStatement nack = connection.prepareStatement(NACK)) {
                setFailedAttempt(nack, 1, policy);
                if (retryAfterMillis == null) {
                    nack.setNull(5, java.sql.Types.BIGINT);
                } else {
                    nack.setLong(5, retryAfterMillis);
                }
                setBackoff(nack, 6, policy);
                bindHeld(nack, 10, clock, id, token);
                return nack.executeUpdate() == 1 || lost(connection, clock);
            }
        });
        if (nacked) { // the firing loop makes it ready at its retry time, no sooner than the shortest backoff
            alarm.dueIn(retryAfterMillis != null ? retryAfterMillis
                    : (long) (policy.initialBackoffMillis() * (1 - policy.jitter())));
        }
        return nacked;
    }

    /**
     * Extends the lease of the delivery {@code id} held under {@code claim} to {@code leaseMillis} from now.
     *
     * @return false when the claim is lost: nothing changed
     */
    public boolean extend(String clock, String id, String claim, long leaseMillis) {
        requireLease(leaseMillis);
        UUID token = token(claim);
        if (token == null) {
            return jdbc.autocommit(connection -> lost(connection, clock));
        }
        return jdbc.autocommit(connection -> {
            try (PreparedStatement extend = held(connection, EXTEND, 2, clock, id, token)) {
                extend.setLong(1, leaseMillis);
                return extend.executeUpdate() == 1 || lost(connection, clock);
            }
        });
    }

    /**
     * The retry steps of {@code clock}, at most {@code limit} rows each: in-flight deliveries whose lease expired
     * become waiting (attempt + 1, after the policy's backoff) or dead, and waiting ones whose retry time has come
     * become ready. Returns how many rows moved. Instances may run it at once (SKIP LOCKED).
     */
    public int releaseDue(String clock, RetryPolicy policy, int limit) {
        return jdbc.autocommit(connection -> {
            int moved;
            try (PreparedStatement expire = connection.prepareStatement(EXPIRE)) {
                setFailedAttempt(expire, 1, policy);
                setBackoff(expire, 5, policy);
                expire.setString(9, clock);
                expire.setInt(10, limit);
                moved = expire.executeUpdate();
            }
            try (PreparedStatement retry = connection.prepareStatement(RETRY)) {
                retry.setString(1, clock);
                retry.setInt(2, limit);
                int ready = retry.executeUpdate();
                if (ready > 0) {
                    ReadyWakeups.notify(connection, clock); // autocommit: after the rows are committed
                }
                return moved + ready;
            }
        });
    }

    /** Deletes up to {@code limit} deliveries acknowledged more than {@code olderThanMillis} ago; returns how many. */
    public int purgeAcked(long olderThanMillis, int limit) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement purge = connection.prepareStatement(PURGE_ACKED)) {
                purge.setLong(1, olderThanMillis);
                purge.setInt(2, limit);
                return purge.executeUpdate();
            }
        });
    }

    // ---- dead letters ----

    /**
     * A page of {@code clock}'s dead deliveries in sequence order (the order they fired in), after
     * {@code afterSequence} (null: from the first): the next page starts after the last one's sequence.
     *
     * @throws SchedulerException {@code invalid_limit} outside 1..{@value #MAX_DEAD_PAGE}, {@code clock_not_found}
     */
    public List<DeadDelivery> dead(String clock, int limit, Long afterSequence) {
        if (limit < 1 || limit > MAX_DEAD_PAGE) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "limit must be between 1 and " + MAX_DEAD_PAGE
                    + ": " + limit);
        }
        return jdbc.autocommit(connection -> {
            try (PreparedStatement list = connection.prepareStatement(LIST_DEAD)) {
                list.setString(1, clock);
                list.setLong(2, afterSequence == null ? Long.MIN_VALUE : afterSequence);
                list.setInt(3, limit);
                List<DeadDelivery> page = deadOf(list);
                if (page.isEmpty()) {
                    PostgresClocks.require(connection, clock, "");
                }
                return page;
            }
        });
    }

    /**
     * Makes the dead deliveries of {@code id} (only the one with {@code sequence}, if given) ready again, with
     * attempt 1 and a fresh set of retries; they stay counted in the budget. Returns them as they were.
     *
     * @throws SchedulerException {@code clock_not_found}; {@link #NO_DEAD_DELIVERY} when none is dead
     */
    public List<DeadDelivery> redrive(String clock, String id, Long sequence) {
        return jdbc.inTransaction(connection -> {
            try (PreparedStatement redrive = deadOfId(connection, REDRIVE, clock, id, sequence)) {
                List<DeadDelivery> redriven = requireSome(connection, clock, id, deadOf(redrive));
                ReadyWakeups.notify(connection, clock);
                return redriven;
            }
        });
    }

    /**
     * Deletes the dead deliveries of {@code id} (only the one with {@code sequence}, if given), giving their share of
     * the budget back. Returns them as they were.
     *
     * @throws SchedulerException {@code clock_not_found}; {@link #NO_DEAD_DELIVERY} when none is dead
     */
    public List<DeadDelivery> deleteDead(String clock, String id, Long sequence) {
        return jdbc.inTransaction(connection -> {
            List<DeadDelivery> deleted = new ArrayList<>();
            long bytes = 0;
            try (PreparedStatement delete = deadOfId(connection, DELETE_DEAD, clock, id, sequence);
                 ResultSet rows = delete.executeQuery()) {
                while (rows.next()) {
                    deleted.add(deadDeliveryOf(rows));
                    bytes += rows.getLong(8);
                }
            }
            requireSome(connection, clock, id, deleted);
            budget.release(connection, deleted.size(), bytes);
            return deleted;
        });
    }

    private static PreparedStatement deadOfId(Connection connection, String sql, String clock, String id,
                                              Long sequence) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setString(1, clock);
        statement.setString(2, id);
        statement.setObject(3, sequence, java.sql.Types.BIGINT);
        statement.setObject(4, sequence, java.sql.Types.BIGINT);
        return statement;
    }

    private static List<DeadDelivery> deadOf(PreparedStatement statement) throws SQLException {
        List<DeadDelivery> dead = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                dead.add(deadDeliveryOf(rows));
            }
        }
        dead.sort(Comparator.comparingLong(DeadDelivery::sequence)); // RETURNING follows no order
        return dead;
    }

    private static DeadDelivery deadDeliveryOf(ResultSet row) throws SQLException {
        return new DeadDelivery(row.getString(1), row.getLong(2), row.getInt(3), row.getLong(4), row.getString(5),
                row.getInt(6), row.getLong(7));
    }

    private static List<DeadDelivery> requireSome(Connection connection, String clock, String id,
                                                  List<DeadDelivery> found) throws SQLException {
        if (found.isEmpty()) {
            PostgresClocks.require(connection, clock, "");
            throw new SchedulerException(NO_DEAD_DELIVERY, "no dead delivery " + id + " on clock " + clock);
        }
        return found;
    }

    /**
     * The deliveries of {@code clock} by state, read in one statement. {@code firingHeldBack} is always false: this
     * store sets no limit on deliveries that holds firing back.
     *
     * @throws SchedulerException {@code clock_not_found}
     */
    public DeliveryCounts counts(String clock) {
        return jdbc.autocommit(connection -> {
            PostgresClocks.require(connection, clock, "");
            try (PreparedStatement count = connection.prepareStatement("""
                    SELECT count(*) FILTER (WHERE state = 'ready'), count(*) FILTER (WHERE state = 'in_flight'),
                           count(*) FILTER (WHERE state = 'waiting'), count(*) FILTER (WHERE state = 'dead'),
                           min(ready_at) FILTER (WHERE state = 'ready')
                      FROM deliveries WHERE clock = ? AND state <> 'acked'""")) {
                count.setString(1, clock);
                try (ResultSet row = count.executeQuery()) {
                    row.next();
                    return new DeliveryCounts(row.getInt(1), row.getInt(2), row.getInt(3), row.getInt(4),
                            row.getObject(5, Long.class), false);
                }
            }
        });
    }

    /**
     * The latest delivery of {@code id} on {@code clock} (highest sequence) as it is now, for answering a nack or
     * an extend; null when none is left. Read after the change, not in its transaction.
     */
    public io.timeservice.core.Delivery latest(String clock, String id) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT id, fire_time, priority, seq, payload, attempt, state, claim, lease_until, retry_at,
                           ready_at
                      FROM deliveries WHERE clock = ? AND id = ? AND state <> 'acked'
                     ORDER BY seq DESC LIMIT 1""")) {
                select.setString(1, clock);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return null;
                    }
                    io.timeservice.core.Delivery.State state = io.timeservice.core.Delivery.State.valueOf(
                            row.getString(7).toUpperCase(java.util.Locale.ROOT));
                    Object claim = row.getObject(8);
                    return new io.timeservice.core.Delivery(row.getString(1), row.getLong(2), row.getInt(3),
                            row.getLong(4), row.getString(5), row.getInt(6), state,
                            claim == null ? null : claim.toString(), row.getObject(9) == null ? 0 : row.getLong(9),
                            row.getObject(10) == null ? 0 : row.getLong(10),
                            row.getObject(11) == null ? 0 : row.getLong(11), state == io.timeservice.core.Delivery.State.DEAD
                                    ? "died on attempt " + row.getInt(6) : null);
                }
            }
        });
    }

    /** How many deliveries of {@code clock} are in {@code state} (ready, in_flight, waiting, dead, acked). */
    public int count(String clock, String state) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement count = connection.prepareStatement(
                    "SELECT count(*) FROM deliveries WHERE clock = ? AND state = ?")) {
                count.setString(1, clock);
                count.setString(2, state);
                try (ResultSet row = count.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        });
    }

    /** A claim that matched nothing: lost (false), unless the clock itself is missing (clock_not_found). */
    private static boolean lost(Connection connection, String clock) throws SQLException {
        PostgresClocks.require(connection, clock, "");
        return false;
    }

    private static PreparedStatement held(Connection connection, String sql, int first, String clock, String id,
                                          UUID token) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        bindHeld(statement, first, clock, id, token);
        return statement;
    }

    private static void bindHeld(PreparedStatement statement, int first, String clock, String id, UUID token)
            throws SQLException {
        statement.setString(first, clock);
        statement.setString(first + 1, id);
        statement.setObject(first + 2, token);
    }

    /**
     * Binds the four "attempt >= maxAttempts" parameters of {@link #FAILED_ATTEMPT} from {@code first}; the retry
     * delay's parameters follow them. (Every right-hand side of the SET reads the failed attempt's number.)
     */
    private static void setFailedAttempt(PreparedStatement statement, int first, RetryPolicy policy)
            throws SQLException {
        for (int i = 0; i < 4; i++) {
            statement.setInt(first + i, policy.maxAttempts());
        }
    }

    /** Binds {@link #BACKOFF}'s four parameters from {@code first}. */
    private static void setBackoff(PreparedStatement statement, int first, RetryPolicy policy) throws SQLException {
        statement.setDouble(first, policy.maxBackoffMillis());
        statement.setDouble(first + 1, policy.initialBackoffMillis());
        statement.setDouble(first + 2, policy.multiplier());
        statement.setDouble(first + 3, policy.jitter());
    }

    /** A claim token as the API carries it; null for text that is no token (no delivery holds it). */
    private static UUID token(String claim) {
        try {
            return claim == null ? null : UUID.fromString(claim);
        } catch (IllegalArgumentException notAToken) {
            return null;
        }
    }

    private static void requireLease(long leaseMillis) {
        if (leaseMillis < 1 || leaseMillis > MAX_LEASE_MILLIS) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "lease must be between 1 and "
                    + MAX_LEASE_MILLIS + " ms: " + leaseMillis);
        }
    }
}
