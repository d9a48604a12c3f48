package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Rules;
import io.timeservice.model.SchedulerException;
import io.timeservice.store.LongPoll;
import io.timeservice.store.MeasuredCall;
import io.timeservice.store.SchedulerMetrics.DeliveryEvent;
import io.timeservice.store.SchedulerMetrics;

/**
 * Deliveries on the PostgreSQL store (table {@code deliveries}), with the memory store's semantics: firing due timers
 * of system clocks into the ready queue, claiming longest-ready first (first attempts in firing order) with leases,
 * ack, nack and extend checked against the claim's token, lease expiry and retries by the clock's retry policy
 * ({@link RetryPolicy}, kept in {@code clocks.settings}), dead letters.
 *
 * <p>Time is the clock's own, as in memory: a virtual clock's {@code now_ms} (leases and retries of a virtual clock end
 * only by advancing it, which runs the retry step in its transaction), the database's clock ({@code db_now_ms()}) for
 * a system clock, so instances with skewed clocks agree. Every call reads its clock first, in its transaction; a
 * virtual clock's row is read {@code FOR SHARE}, so no advance of it runs until the call commits (the memory store's
 * lock), and locked before any delivery row (the store's lock order: clock, then timers and deliveries). A system
 * clock's row is not locked: claims and acks of one busy clock must not queue on one row.
 *
 * <p>Thread-safe and safe across instances: the claim's inner SELECT takes the front of the ready queue with
 * {@code FOR UPDATE SKIP LOCKED}, so concurrent claimers (any instance) take disjoint rows and no row is handed out
 * twice; ack, nack and extend change nothing unless the delivery is in flight under that claim with its lease not
 * yet ended by the clock's now. A lease is lost only by its end.
 */
public final class PostgresDeliveries {

    /** A delivery as the API shows it ({@link io.timeservice.model.Delivery}), from the row {@code d}. */
    private static final String VIEW = "d.id, d.fire_time, d.priority, d.seq, d.payload, d.attempt, d.state, d.claim,"
            + " d.lease_until, d.retry_at, d.ready_at, d.dead_reason";

    /**
     * Claims up to {@code max} ready deliveries of one clock, longest-ready first. The inner SELECT is the fence: it
     * is planned on its own (a subquery in FROM), reads the front of the partial index {@code deliveries_ready} and
     * locks what it returns, skipping rows another claim holds; the UPDATE then marks exactly those rows.
     */
    static final String CLAIM = """
            UPDATE deliveries d
               SET state = 'in_flight', claim = gen_random_uuid(), lease_until = ?
              FROM (SELECT seq FROM deliveries
                     WHERE clock = ? AND state = 'ready'
                     ORDER BY ready_at, fire_time, priority, seq
                     LIMIT ?
                     FOR UPDATE SKIP LOCKED) picked
             WHERE d.seq = picked.seq
            RETURNING d.id, d.fire_time, d.priority, d.seq, d.payload, d.attempt, d.claim, d.lease_until, d.ready_at""";

    /**
     * Moves a system clock's due timers (the database's clock decides) into its ready queue, in firing order; a first
     * attempt is ready from its fire time on, as in memory.
     */
    private static final String FIRE_DUE = """
            WITH picked AS (
                SELECT seq FROM timers
                 WHERE clock = ? AND fire_time <= db_now_ms()
                 ORDER BY fire_time, priority, seq
                 LIMIT ?
                 FOR UPDATE SKIP LOCKED),
            fired AS (
                DELETE FROM timers t USING picked WHERE t.seq = picked.seq RETURNING t.*)
            INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                    ready_at)
            SELECT seq, clock, id, fire_time, priority, version, created_at, payload, bytes, 'ready', fire_time
              FROM fired
            RETURNING fire_time, db_now_ms()""";

    /**
     * A delivery in flight under this claim whose lease has not ended by the clock's now (the last parameter): the
     * only one ack, nack or extend touch.
     */
    private static final String HELD =
            " WHERE d.clock = ? AND d.id = ? AND d.claim = ? AND d.state = 'in_flight' AND d.lease_until > ?";

    /** done_at is the database's clock on every clock: acked rows are purged by age, and repeated acks read them. */
    private static final String ACK = "UPDATE deliveries d SET state = 'acked', done_at = db_now_ms(), lease_until = NULL"
            + HELD + " RETURNING d.bytes";
    private static final String ALREADY_ACKED = """
            SELECT 1 FROM deliveries WHERE clock = ? AND id = ? AND claim = ? AND state = 'acked'""";
    /** {@link #ACK} for many (id, claim) pairs: the held rows locked in sequence order, then acknowledged. */
    private static final String ACK_ALL = """
            WITH held AS (
                SELECT d.seq FROM deliveries d JOIN unnest(?::text[], ?::uuid[]) AS a(id, claim)
                       ON d.id = a.id AND d.claim = a.claim
                 WHERE d.clock = ? AND d.state = 'in_flight' AND d.lease_until > ?
                 ORDER BY d.seq
                   FOR UPDATE OF d)
            UPDATE deliveries d SET state = 'acked', done_at = db_now_ms(), lease_until = NULL
              FROM (SELECT DISTINCT seq FROM held) h
             WHERE d.seq = h.seq
            RETURNING d.id, d.claim, d.bytes""";
    /** Which of the (id, claim) pairs were acknowledged before with that claim. */
    private static final String ACKED_BEFORE = """
            SELECT d.id, d.claim FROM deliveries d JOIN unnest(?::text[], ?::uuid[]) AS a(id, claim)
                   ON d.id = a.id AND d.claim = a.claim
             WHERE d.clock = ? AND d.state = 'acked'""";
    private static final String EXTEND = "UPDATE deliveries d SET lease_until = ?" + HELD + " RETURNING " + VIEW;
    private static final String NACKED = "SELECT d.seq, d.attempt FROM deliveries d" + HELD + " FOR UPDATE OF d";
    /** Failed attempts (nacked or expired), each decided in Java ({@link Failed}): one statement for all of them. */
    private static final String FAILED = """
            UPDATE deliveries d
               SET state = f.state, attempt = f.attempt, claim = NULL, lease_until = NULL, retry_at = f.retry_at,
                   ready_at = coalesce(f.ready_at, d.ready_at), dead_reason = f.reason,
                   done_at = CASE WHEN f.state = 'dead' THEN db_now_ms() END
              FROM unnest(?::bigint[], ?::text[], ?::int[], ?::bigint[], ?::bigint[], ?::text[])
                   AS f (seq, state, attempt, retry_at, ready_at, reason)
             WHERE d.seq = f.seq
            RETURNING""" + " " + VIEW;
    /** In-flight deliveries whose lease ended by the clock's now, in the memory store's order (lease end, sequence). */
    private static final String EXPIRED = """
            SELECT seq, attempt, lease_until FROM deliveries
             WHERE clock = ? AND state = 'in_flight' AND lease_until <= ?
             ORDER BY lease_until, seq LIMIT ? FOR UPDATE%s""";
    /** Waiting deliveries whose retry time has come become ready at that time (as in memory). */
    private static final String RETRY = """
            UPDATE deliveries SET state = 'ready', ready_at = retry_at, retry_at = NULL
             WHERE seq IN (SELECT seq FROM deliveries
                            WHERE clock = ? AND state = 'waiting' AND retry_at <= ?
                            ORDER BY retry_at, seq LIMIT ? FOR UPDATE%s)""";
    private static final String PURGE_ACKED = """
            DELETE FROM deliveries
             WHERE seq IN (SELECT seq FROM deliveries WHERE state = 'acked' AND done_at <= db_now_ms() - ?
                            LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private static final String LIST_DEAD = "SELECT " + VIEW + """

             FROM deliveries d
             WHERE d.clock = ? AND d.state = 'dead' AND d.seq > ?
             ORDER BY d.seq LIMIT ?""";
    /** The dead deliveries of an id (or the one with that sequence), in sequence order. */
    private static final String DEAD_OF_ID = " WHERE d.clock = ? AND d.id = ? AND d.state = 'dead'"
            + " AND (?::bigint IS NULL OR d.seq = ?::bigint)";
    /** Dead deliveries become ready again at the clock's now with a fresh set of attempts; returns them so. */
    private static final String REDRIVE = "UPDATE deliveries d SET state = 'ready', attempt = 1, done_at = NULL,"
            + " dead_reason = NULL, ready_at = ?" + DEAD_OF_ID + " RETURNING " + VIEW;
    private static final String DELETE_DEAD = "DELETE FROM deliveries d" + DEAD_OF_ID + " RETURNING " + VIEW
            + ", d.bytes";

    private static final Comparator<ClaimedDelivery> READY_ORDER = Comparator.comparingLong(ClaimedDelivery::readyAt)
            .thenComparingLong(ClaimedDelivery::fireTime).thenComparingInt(ClaimedDelivery::priority)
            .thenComparingLong(ClaimedDelivery::sequence);

    /** Most expired leases and most due retries one claim on a system clock moves before it claims. */
    static final int RELEASE_ON_CLAIM = 1_000;

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final ReadyWakeups wakeups;
    /** Set while the service stops: long polls answer at once ({@link #endWaits}). */
    private volatile boolean waitsEnded;
    private final FiringAlarm alarm;
    /** Told of every delivery event after its transaction committed, as the memory store tells of them. */
    private final SchedulerMetrics metrics;

    PostgresDeliveries(Jdbc jdbc, PendingBudgetStripes budget, ReadyWakeups wakeups, FiringAlarm alarm,
                       SchedulerMetrics metrics) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.wakeups = wakeups;
        this.alarm = alarm;
        this.metrics = metrics;
    }

    /**
     * Fires up to {@code limit} timers of {@code clock} that are due by the database's clock into its ready queue;
     * returns how many. Instances may run it at once: each moves timers no other is moving. The timers stay counted
     * in the budget as deliveries. Reports each one's fire lag: the database's now minus its fire time.
     *
     * <p>The clock's row is locked ({@code FOR KEY SHARE}) before any timer: the deliveries' foreign key takes that
     * lock anyway, and taking it last could deadlock with a deletion of the clock, which locks the clock first and
     * then its timers.
     *
     * @throws SchedulerException {@code clock_not_found}
     */
    public int fireDue(String clock, int limit) {
        long[] lags = jdbc.inTransaction(connection -> {
            PostgresClocks.require(connection, clock, " FOR KEY SHARE");
            try (PreparedStatement fire = connection.prepareStatement(FIRE_DUE)) {
                fire.setString(1, clock);
                fire.setInt(2, limit);
                List<Long> fired = new ArrayList<>();
                try (ResultSet rows = fire.executeQuery()) {
                    while (rows.next()) {
                        fired.add(Math.max(0, rows.getLong(2) - rows.getLong(1)));
                    }
                }
                if (!fired.isEmpty()) {
                    ReadyWakeups.notify(connection, clock);
                }
                return fired.stream().mapToLong(Long::longValue).toArray();
            }
        });
        for (long lag : lags) {
            metrics.fireLag(lag);
        }
        return lags.length;
    }

    /**
     * Claims up to {@code max} ready deliveries of {@code clock}, longest-ready first (first attempts in firing
     * order), each leased for {@code leaseMillis} from the clock's now under a token of its own. On a system clock it
     * first runs the retry step, as the memory store's claim does; a virtual clock's retry step ran with the advance
     * that brought its now.
     *
     * @throws SchedulerException {@code invalid_limit} for max outside 1..{@value Limits#MAX_CLAIM},
     *                            {@code invalid_request} for a lease outside the memory store's range,
     *                            {@code clock_not_found}
     */
    public List<ClaimedDelivery> claim(String clock, int max, long leaseMillis) {
        Rules.requireClaim(max, leaseMillis, 0);
        boolean[] onSystemClock = new boolean[1];
        long[] claimedAt = new long[1];
        Released[] released = {Released.NOTHING};
        Supplier<List<ClaimedDelivery>> look = () -> jdbc.inTransaction(connection -> {
            StoredClock stored = onClock(connection, clock);
            onSystemClock[0] = stored.mode() == ClockSettings.Mode.SYSTEM;
            claimedAt[0] = stored.now();
            if (stored.mode() == ClockSettings.Mode.SYSTEM) {
                released[0] = releaseDue(connection, stored, RELEASE_ON_CLAIM, true);
            }
            try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
                claim.setLong(1, stored.now() + leaseMillis);
                claim.setString(2, clock);
                claim.setInt(3, max);
                List<ClaimedDelivery> claimed = new ArrayList<>(max);
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        claimed.add(new ClaimedDelivery(rows.getString(1), rows.getLong(2), rows.getInt(3), rows.getLong(4),
                                rows.getString(5), rows.getInt(6), rows.getObject(7, UUID.class), rows.getLong(8),
                                rows.getLong(9)));
                    }
                }
                claimed.sort(READY_ORDER); // RETURNING follows no order
                return claimed;
            }
        });
        // timed per look, as the memory store times a claim: a long poll's wait is no latency
        List<ClaimedDelivery> leased = MeasuredCall.measure(metrics, SchedulerMetrics.Operation.CLAIM, look);
        if (onSystemClock[0] && !leased.isEmpty()) {
            alarm.dueAt(leased.get(0).leaseUntil()); // the firing loop releases the leases when they expire
        }
        released[0].reportTo(metrics);
        reportClaimed(leased, onSystemClock[0], claimedAt[0]);
        return leased;
    }

    /**
     * Reports a claim: how many, and on a system clock each one's lateness, the claim's now minus the time it became
     * ready, both the database's clock.
     */
    private void reportClaimed(List<ClaimedDelivery> claimed, boolean onSystemClock, long now) {
        if (claimed.isEmpty()) {
            return;
        }
        metrics.deliveries(DeliveryEvent.CLAIMED, claimed.size());
        if (onSystemClock) {
            for (ClaimedDelivery delivery : claimed) {
                metrics.deliveryLateness(Math.max(0, now - delivery.readyAt()));
            }
        }
    }

    /**
     * A long poll: claims as {@link #claim(String, int, long)} does, and when nothing is ready waits up to
     * {@code waitMillis} for deliveries of {@code clock} to become ready on any instance (woken by a notification,
     * else by the slow poll), then claims again; answers what it got, or nothing when the wait ends empty. Holds
     * no connection while it waits.
     *
     * @throws SchedulerException as {@link #claim(String, int, long)}; {@code invalid_request} for a wait outside
     *                            0..{@value Limits#MAX_CLAIM_WAIT_MILLIS} ms
     */
    public List<ClaimedDelivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        Rules.requireClaim(max, leaseMillis, waitMillis);
        LongPoll.Signal signal = new LongPoll.Signal() {
            @Override
            public long generation() {
                return wakeups.generation(clock);
            }

            @Override
            public void awaitChange(long seen, long nanos) throws InterruptedException {
                wakeups.awaitChange(clock, seen, nanos);
            }
        };
        return LongPoll.claim(waitMillis, signal, () -> waitsEnded, () -> claim(clock, max, leaseMillis));
    }

    /**
     * Ends every waiting long poll of this instance now and answers later ones at once, until {@link #allowWaits}:
     * the service is stopping (a claim still takes what is ready).
     */
    public void endWaits() {
        waitsEnded = true;
        wakeups.wakeEveryClock();
    }

    /** Lets long polls wait again after {@link #endWaits}. */
    public void allowWaits() {
        waitsEnded = false;
    }

    /**
     * Acknowledges the delivery {@code id} held under {@code claim}: done, its budget share given back. Idempotent
     * for the same claim.
     *
     * @return false when the claim is lost (wrong, its lease ended, or the delivery was nacked): nothing changed
     * @throws SchedulerException {@code clock_not_found}
     */
    public boolean ack(String clock, String id, String claim) {
        UUID token = token(claim);
        boolean[] newlyAcked = new boolean[1]; // now, not before: a repeated ack is no new event
        boolean held = jdbc.inTransaction(connection -> {
            newlyAcked[0] = false;
            StoredClock stored = onClock(connection, clock);
            if (token == null) {
                return false;
            }
            try (PreparedStatement ack = connection.prepareStatement(ACK)) {
                bindHeld(ack, 1, stored, id, token);
                try (ResultSet row = ack.executeQuery()) {
                    if (row.next()) {
                        budget.release(connection, 1, row.getLong(1));
                        newlyAcked[0] = true;
                        return true;
                    }
                }
            }
            try (PreparedStatement acked = connection.prepareStatement(ALREADY_ACKED)) {
                acked.setString(1, clock);
                acked.setString(2, id);
                acked.setObject(3, token);
                try (ResultSet row = acked.executeQuery()) {
                    return row.next();
                }
            }
        });
        if (newlyAcked[0]) {
            metrics.deliveries(DeliveryEvent.ACKED, 1);
        }
        return held;
    }

    /**
     * Acknowledges many deliveries in one transaction, each as {@link #ack} decides it on its own: returns, in order,
     * null for each acknowledged (now, or before with the same claim) and {@link ErrorCode#CLAIM_LOST} for each whose
     * claim holds no lease, which changes nothing. A claim named twice counts once. One statement locks the held rows
     * in sequence order (so two overlapping calls wait for each other instead of deadlocking) and marks them acked;
     * one reads which of the rest were acknowledged before; the budget is given back once, last.
     *
     * @throws SchedulerException {@code clock_not_found}
     */
    public List<ErrorCode> ackAll(String clock, List<Ack> acks) {
        String[] ids = new String[acks.size()];
        UUID[] tokens = new UUID[acks.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = acks.get(i).id();
            tokens[i] = token(acks.get(i).claim());
        }
        int[] newlyAcked = new int[1]; // now, not before: repeated acks are no new events
        List<ErrorCode> outcomes = jdbc.inTransaction(connection -> {
            newlyAcked[0] = 0;
            StoredClock stored = onClock(connection, clock);
            Set<List<Object>> done = new HashSet<>(); // (id, token) pairs acknowledged now or before
            long bytes = 0;
            int acked = 0;
            try (PreparedStatement ack = connection.prepareStatement(ACK_ALL)) {
                bindAcks(connection, ack, stored.name(), ids, tokens);
                ack.setLong(4, stored.now());
                try (ResultSet rows = ack.executeQuery()) {
                    while (rows.next()) {
                        done.add(List.of(rows.getString(1), rows.getObject(2, UUID.class)));
                        bytes += rows.getLong(3);
                        acked++;
                    }
                }
            }
            if (acked < acks.size()) {
                try (PreparedStatement before = connection.prepareStatement(ACKED_BEFORE)) {
                    bindAcks(connection, before, stored.name(), ids, tokens);
                    try (ResultSet rows = before.executeQuery()) {
                        while (rows.next()) {
                            done.add(List.of(rows.getString(1), rows.getObject(2, UUID.class)));
                        }
                    }
                }
            }
            budget.release(connection, acked, bytes);
            newlyAcked[0] = acked;
            List<ErrorCode> answers = new ArrayList<>(acks.size());
            for (int i = 0; i < ids.length; i++) {
                boolean acknowledged = tokens[i] != null && ids[i] != null && done.contains(List.of(ids[i], tokens[i]));
                answers.add(acknowledged ? null : ErrorCode.CLAIM_LOST);
            }
            return answers;
        });
        if (newlyAcked[0] > 0) {
            metrics.deliveries(DeliveryEvent.ACKED, newlyAcked[0]);
        }
        return outcomes;
    }

    /** Binds the ids and tokens of {@link #ACK_ALL} or {@link #ACKED_BEFORE} and the clock's name. */
    private static void bindAcks(Connection connection, PreparedStatement statement, String clock, String[] ids,
                                 UUID[] tokens) throws SQLException {
        statement.setArray(1, connection.createArrayOf("text", ids));
        statement.setArray(2, connection.createArrayOf("uuid", tokens));
        statement.setString(3, clock);
    }

    /**
     * Gives the delivery {@code id} held under {@code claim} back, as the memory store does: dead if this was its
     * last attempt under the clock's policy; else attempt + 1, ready again at {@code now + retryAfterMillis} (null:
     * the policy's backoff for that attempt), at once when that is now.
     *
     * @return the delivery as the nack left it; null when the claim is lost (nothing changed)
     * @throws SchedulerException {@code invalid_request} for a retryAfter outside 0..{@value
     *                            RetryPolicy#MAX_BACKOFF_MILLIS} ms, {@code clock_not_found}
     */
    public io.timeservice.model.Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        if (retryAfterMillis != null && (retryAfterMillis < 0 || retryAfterMillis > RetryPolicy.MAX_BACKOFF_MILLIS)) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "retryAfter must be 0 to "
                    + RetryPolicy.MAX_BACKOFF_MILLIS + " ms: " + retryAfterMillis);
        }
        UUID token = token(claim);
        boolean[] onSystemClock = new boolean[1];
        io.timeservice.model.Delivery nacked = jdbc.inTransaction(connection -> {
            StoredClock stored = onClock(connection, clock);
            onSystemClock[0] = stored.mode() == ClockSettings.Mode.SYSTEM;
            if (token == null) {
                return null;
            }
            long sequence;
            int attempt;
            try (PreparedStatement held = connection.prepareStatement(NACKED)) {
                bindHeld(held, 1, stored, id, token);
                try (ResultSet row = held.executeQuery()) {
                    if (!row.next()) {
                        return null;
                    }
                    sequence = row.getLong(1);
                    attempt = row.getInt(2);
                }
            }
            long now = stored.now();
            RetryPolicy policy = stored.retry();
            long retryAt = now + (retryAfterMillis != null ? retryAfterMillis
                    : policy.backoffMillis(sequence, attempt + 1));
            return fail(connection, List.of(Failed.nacked(sequence, attempt, policy, now, retryAt))).get(0);
        });
        if (onSystemClock[0] && nacked != null && nacked.state() == io.timeservice.model.Delivery.State.WAITING) {
            alarm.dueAt(nacked.retryAt()); // the firing loop makes it ready at its retry time
        }
        if (nacked != null) {
            metrics.deliveries(DeliveryEvent.NACKED, 1);
            if (nacked.state() == io.timeservice.model.Delivery.State.DEAD) {
                metrics.deliveries(DeliveryEvent.DEAD, 1);
            }
        }
        return nacked;
    }

    /**
     * Extends the lease of the delivery {@code id} held under {@code claim} to {@code leaseMillis} from the clock's
     * now.
     *
     * @return the delivery with its new lease; null when the claim is lost (nothing changed)
     * @throws SchedulerException {@code invalid_request} for a lease outside the memory store's range,
     *                            {@code clock_not_found}
     */
    public io.timeservice.model.Delivery extend(String clock, String id, String claim, long leaseMillis) {
        Rules.requireLease(leaseMillis);
        UUID token = token(claim);
        boolean[] onSystemClock = new boolean[1];
        io.timeservice.model.Delivery extended = jdbc.inTransaction(connection -> {
            StoredClock stored = onClock(connection, clock);
            onSystemClock[0] = stored.mode() == ClockSettings.Mode.SYSTEM;
            if (token == null) {
                return null;
            }
            try (PreparedStatement extend = connection.prepareStatement(EXTEND)) {
                extend.setLong(1, stored.now() + leaseMillis);
                bindHeld(extend, 2, stored, id, token);
                List<io.timeservice.model.Delivery> views = viewsOf(extend);
                return views.isEmpty() ? null : views.get(0);
            }
        });
        if (onSystemClock[0] && extended != null) {
            alarm.dueAt(extended.leaseUntil()); // a lease shortened to sooner than the firing loop's plan
        }
        return extended;
    }

    /**
     * The retry step of {@code clock} at its now, at most {@code limit} rows of each kind: in-flight deliveries whose
     * lease ended become waiting (attempt + 1, ready at the lease's end plus the clock policy's backoff) or dead,
     * then waiting ones whose retry time has come become ready. Returns what moved, and reports it. Instances may
     * run it at once (SKIP LOCKED). An advance runs it for its virtual clock by itself.
     *
     * @throws SchedulerException {@code clock_not_found}
     */
    public Released releaseDue(String clock, int limit) {
        Released released = jdbc.inTransaction(connection -> releaseDue(connection, onClock(connection, clock), limit,
                true));
        released.reportTo(metrics);
        return released;
    }

    /**
     * What one retry step moved, as the memory store's {@code DeliveryQueue.Settled} counts it: {@code expired}
     * leases that ended (waiting again or dead), {@code died} those of them that were dead after their last attempt,
     * {@code readied} waiting deliveries whose retry time had come.
     */
    public record Released(int expired, int died, int readied) {
        static final Released NOTHING = new Released(0, 0, 0);

        /** Reports the events; call after the transaction that moved them committed. */
        void reportTo(SchedulerMetrics metrics) {
            report(metrics, DeliveryEvent.EXPIRED, expired);
            report(metrics, DeliveryEvent.DEAD, died);
            report(metrics, DeliveryEvent.REDELIVERED, readied);
        }

        private static void report(SchedulerMetrics metrics, DeliveryEvent event, int count) {
            if (count > 0) {
                metrics.deliveries(event, count);
            }
        }
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
        List<Failed> expired = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(EXPIRED.formatted(skip))) {
            select.setString(1, clock.name());
            select.setLong(2, now);
            select.setLong(3, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long sequence = rows.getLong(1);
                    int attempt = rows.getInt(2);
                    long leaseUntil = rows.getLong(3);
                    expired.add(Failed.expired(sequence, attempt, clock.retry(),
                            leaseUntil + clock.retry().backoffMillis(sequence, attempt + 1)));
                }
            }
        }
        int died = 0;
        if (!expired.isEmpty()) {
            for (Failed failed : expired) {
                died += failed.state() == State.DEAD ? 1 : 0;
            }
            fail(connection, expired);
        }
        try (PreparedStatement retry = connection.prepareStatement(RETRY.formatted(skip))) {
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
     * A failed attempt of the delivery {@code sequence}, decided as the memory store's queue decides it.
     *
     * @param readyAt set when it is ready again at once, else null (unchanged)
     */
    private record Failed(long sequence, State state, int attempt, Long retryAt, Long readyAt, String reason) {

        /**
         * Nacked on attempt {@code attempt} at {@code now}: dead after the policy's last attempt, else attempt + 1
         * waiting for {@code retryAt}, or ready at once when that is not after {@code now}.
         */
        static Failed nacked(long sequence, int attempt, RetryPolicy policy, long now, long retryAt) {
            if (attempt >= policy.maxAttempts()) {
                return dead(sequence, attempt, policy, "nacked");
            }
            if (retryAt <= now) {
                return new Failed(sequence, State.READY, attempt + 1, null, now, null);
            }
            return new Failed(sequence, State.WAITING, attempt + 1, retryAt, null, null);
        }

        /**
         * Its lease ended on attempt {@code attempt}: dead after the policy's last attempt, else attempt + 1 waiting
         * for {@code retryAt} (the retry step's second half readies it at that time, even if it has passed).
         */
        static Failed expired(long sequence, int attempt, RetryPolicy policy, long retryAt) {
            if (attempt >= policy.maxAttempts()) {
                return dead(sequence, attempt, policy, "lease expired");
            }
            return new Failed(sequence, State.WAITING, attempt + 1, retryAt, null, null);
        }

        private static Failed dead(long sequence, int attempt, RetryPolicy policy, String how) {
            return new Failed(sequence, State.DEAD, attempt, null, null, how + " on attempt " + attempt + " of "
                    + policy.maxAttempts());
        }
    }

    /** Applies failed attempts in one statement; returns the deliveries as they are now. */
    private static List<io.timeservice.model.Delivery> fail(Connection connection, List<Failed> failed)
            throws SQLException {
        int n = failed.size();
        Long[] sequences = new Long[n];
        String[] states = new String[n];
        Integer[] attempts = new Integer[n];
        Long[] retryAts = new Long[n];
        Long[] readyAts = new Long[n];
        String[] reasons = new String[n];
        for (int i = 0; i < n; i++) {
            Failed f = failed.get(i);
            sequences[i] = f.sequence();
            states[i] = f.state().name().toLowerCase(Locale.ROOT);
            attempts[i] = f.attempt();
            retryAts[i] = f.retryAt();
            readyAts[i] = f.readyAt();
            reasons[i] = f.reason();
        }
        try (PreparedStatement update = connection.prepareStatement(FAILED)) {
            update.setArray(1, connection.createArrayOf("bigint", sequences));
            update.setArray(2, connection.createArrayOf("text", states));
            update.setArray(3, connection.createArrayOf("integer", attempts));
            update.setArray(4, connection.createArrayOf("bigint", retryAts));
            update.setArray(5, connection.createArrayOf("bigint", readyAts));
            update.setArray(6, connection.createArrayOf("text", reasons));
            return viewsOf(update);
        }
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
     * @throws SchedulerException {@code invalid_limit} below 1 (the web layer bounds it, as for the memory store),
     *                            {@code clock_not_found}
     */
    public List<io.timeservice.model.Delivery> dead(String clock, int limit, Long afterSequence) {
        if (limit < 1) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "limit must be >= 1: " + limit);
        }
        return jdbc.autocommit(connection -> {
            try (PreparedStatement list = connection.prepareStatement(LIST_DEAD)) {
                list.setString(1, clock);
                list.setLong(2, afterSequence == null ? Long.MIN_VALUE : afterSequence);
                list.setInt(3, limit);
                List<io.timeservice.model.Delivery> page = viewsOf(list);
                if (page.isEmpty()) {
                    PostgresClocks.require(connection, clock, "");
                }
                return page;
            }
        });
    }

    /**
     * Makes the dead deliveries of {@code id} (only the one with {@code sequence}, if given) ready again at the
     * clock's now, with attempt 1 and a fresh set of retries; they stay counted in the budget. Returns them so.
     *
     * @throws SchedulerException {@code clock_not_found}; {@code delivery_not_found} when none is dead
     */
    public List<io.timeservice.model.Delivery> redrive(String clock, String id, Long sequence) {
        List<io.timeservice.model.Delivery> madeReady = jdbc.inTransaction(connection -> {
            StoredClock stored = onClock(connection, clock);
            try (PreparedStatement redrive = deadOfId(connection, REDRIVE, 2, clock, id, sequence)) {
                redrive.setLong(1, stored.now());
                List<io.timeservice.model.Delivery> redriven = requireSome(id, viewsOf(redrive));
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
     * @throws SchedulerException {@code clock_not_found}; {@code delivery_not_found} when none is dead
     */
    public List<io.timeservice.model.Delivery> deleteDead(String clock, String id, Long sequence) {
        List<io.timeservice.model.Delivery> gone = jdbc.inTransaction(connection -> {
            PostgresClocks.require(connection, clock, "");
            List<io.timeservice.model.Delivery> deleted = new ArrayList<>();
            long bytes = 0;
            try (PreparedStatement delete = deadOfId(connection, DELETE_DEAD, 1, clock, id, sequence);
                 ResultSet rows = delete.executeQuery()) {
                while (rows.next()) {
                    deleted.add(viewOf(rows));
                    bytes += rows.getLong(13);
                }
            }
            deleted.sort(Comparator.comparingLong(io.timeservice.model.Delivery::sequence));
            requireSome(id, deleted);
            budget.release(connection, deleted.size(), bytes);
            return deleted;
        });
        metrics.deliveries(DeliveryEvent.DELETED, gone.size());
        return gone;
    }

    private static PreparedStatement deadOfId(Connection connection, String sql, int first, String clock, String id,
                                              Long sequence) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setString(first, clock);
        statement.setString(first + 1, id);
        statement.setObject(first + 2, sequence, java.sql.Types.BIGINT);
        statement.setObject(first + 3, sequence, java.sql.Types.BIGINT);
        return statement;
    }

    private static List<io.timeservice.model.Delivery> requireSome(String id, List<io.timeservice.model.Delivery> found) {
        if (found.isEmpty()) {
            throw new SchedulerException(ErrorCode.DELIVERY_NOT_FOUND, "no dead delivery has id "
                    + Rules.abbreviate(id));
        }
        return found;
    }

    /** The deliveries a statement selecting {@link #VIEW} answers, by sequence (RETURNING follows no order). */
    private static List<io.timeservice.model.Delivery> viewsOf(PreparedStatement statement) throws SQLException {
        List<io.timeservice.model.Delivery> views = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                views.add(viewOf(rows));
            }
        }
        views.sort(Comparator.comparingLong(io.timeservice.model.Delivery::sequence));
        return views;
    }

    /** The delivery in the row's {@link #VIEW} columns, as the memory store shows it (0 for a time it has not). */
    private static io.timeservice.model.Delivery viewOf(ResultSet row) throws SQLException {
        State state = State.valueOf(row.getString(7).toUpperCase(Locale.ROOT));
        UUID claim = row.getObject(8, UUID.class);
        return new io.timeservice.model.Delivery(row.getString(1), row.getLong(2), row.getInt(3), row.getLong(4),
                row.getString(5), row.getInt(6), state, claim == null ? null : claim.toString(), row.getLong(9),
                row.getLong(10), row.getLong(11), row.getString(12));
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

    /**
     * The clock a delivery call runs on, read in the call's transaction: a virtual clock's row {@code FOR SHARE}
     * (read again under the lock: an advance may have committed meanwhile), so no advance of it runs until the call
     * commits; a system clock's unlocked, its now the database's clock.
     *
     * @throws SchedulerException {@code clock_not_found}
     */
    private static StoredClock onClock(Connection connection, String clock) throws SQLException {
        StoredClock stored = PostgresClocks.require(connection, clock, "");
        return stored.mode() == ClockSettings.Mode.VIRTUAL ? PostgresClocks.require(connection, clock, " FOR SHARE")
                : stored;
    }

    /** Binds {@link #HELD}'s four parameters from {@code first}: the clock, id, token and the clock's now. */
    private static void bindHeld(PreparedStatement statement, int first, StoredClock clock, String id, UUID token)
            throws SQLException {
        statement.setString(first, clock.name());
        statement.setString(first + 1, id);
        statement.setObject(first + 2, token);
        statement.setLong(first + 3, clock.now());
    }

    /** A claim token as the API carries it; null for text that is no token (no delivery holds it). */
    private static UUID token(String claim) {
        try {
            return claim == null ? null : UUID.fromString(claim);
        } catch (IllegalArgumentException notAToken) {
            return null;
        }
    }
}
