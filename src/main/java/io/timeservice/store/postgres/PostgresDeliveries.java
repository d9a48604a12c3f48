package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Reservation;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimeRules;
import io.timeservice.store.LongPoll;
import io.timeservice.store.MeasuredCall;
import io.timeservice.store.StoreMetrics.DeliveryEvent;
import io.timeservice.store.StoreMetrics;

/**
 * Deliveries on the PostgreSQL store (table {@code deliveries}), with the memory store's semantics: claiming
 * longest-ready first (first attempts in firing order) with leases, ack, nack and extend checked against the claim's
 * token, retries by the clock's retry policy ({@link RetryPolicy}, kept in {@code clocks.settings}), counts. Firing
 * due timers into the ready queue is {@link PostgresClockFiring}'s, lease expiry, due retries and the purge are
 * {@link LeaseReleaser}'s, dead letters {@link PostgresDeadLetters}'; the statements are in {@link DeliverySql}.
 *
 * <p>Time is the clock's own, as in memory: a virtual clock's {@code now_ms} (leases and retries of a virtual clock end
 * only by advancing it, which runs the retry step in its transaction), the database's clock ({@code db_now_ms()}) for
 * a system clock, so instances with skewed clocks agree. A lease end or retry time past {@link Long#MAX_VALUE}
 * saturates there ({@link TimeRules#saturatedAdd}), as in memory. Every call reads its clock first, in its transaction; a
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

    static final Comparator<ClaimedDelivery> READY_ORDER = Comparator.comparingLong(ClaimedDelivery::readyAt)
            .thenComparingLong(ClaimedDelivery::fireTime).thenComparingInt(ClaimedDelivery::priority)
            .thenComparingLong(ClaimedDelivery::sequence);

    /** Most expired leases and most due retries one claim on a system clock moves before it claims. */
    static final int RELEASE_ON_CLAIM = 1_000;

    /**
     * How often a long poll on a clock with flow control looks again while it waits (as the memory store's): an ack,
     * a lease end or a token's refill frees held-back deliveries without a notification.
     */
    static final long FLOW_LOOK_AGAIN_NANOS = 20_000_000L;

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final ReadyWakeups wakeups;
    /** Set while the service stops: long polls answer at once ({@link #endWaits}). */
    private volatile boolean waitsEnded;
    private final FiringAlarm alarm;
    /** Told of every delivery event after its transaction committed, as the memory store tells of them. */
    private final StoreMetrics metrics;

    PostgresDeliveries(Jdbc jdbc, PendingBudgetStripes budget, ReadyWakeups wakeups, FiringAlarm alarm,
                       StoreMetrics metrics) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.wakeups = wakeups;
        this.alarm = alarm;
        this.metrics = metrics;
    }

    /**
     * Claims up to {@code max} ready deliveries of {@code clock}, longest-ready first (first attempts in firing
     * order), each leased for {@code leaseMillis} from the clock's now under a token of its own. On a system clock it
     * first runs the retry step, as the memory store's claim does; a virtual clock's retry step ran with the advance
     * that brought its now.
     *
     * @throws ProblemException {@code invalid_limit} for max outside 1..{@value Limits#MAX_CLAIM},
     *                            {@code invalid_request} for a lease outside the memory store's range,
     *                            {@code clock_not_found}
     */
    public List<ClaimedDelivery> claim(String clock, int max, long leaseMillis) {
        return claimOnce(clock, null, max, leaseMillis, 0, new StoredClock[1]);
    }

    /**
     * Claims as {@link #claim(String, int, long)} does, only while the clock named {@code clock} is the row of
     * {@code incarnation} (read in the claim's transaction, so its deliveries are that clock's): the pusher's claim.
     *
     * @throws ProblemException {@code clock_not_found} also for another incarnation
     */
    public List<ClaimedDelivery> claimOf(String clock, long incarnation, int max, long leaseMillis) {
        return claimOnce(clock, incarnation, max, leaseMillis, 0, new StoredClock[1]);
    }

    /**
     * One look of a claim, from {@code incarnation} only when it is not null; {@code waitMillis} only to be checked in
     * the memory store's order of refusals; {@code onClock} gets the clock as the look read it.
     */
    private List<ClaimedDelivery> claimOnce(String clock, Long incarnation, int max, long leaseMillis,
                                            long waitMillis, StoredClock[] onClock) {
        LeaseReleaser.Released[] released = {LeaseReleaser.Released.NOTHING};
        int[] tokensDenied = {0};
        Supplier<List<ClaimedDelivery>> look = () -> jdbc.inTransaction(connection -> {
            StoredClock stored = DeliveryRows.onQueueClock(connection, clock,
                    () -> DeliveryRules.requireClaim(max, leaseMillis, waitMillis));
            if (incarnation != null && stored.incarnation() != incarnation) {
                throw ClockRules.clockRecreated(clock);
            }
            onClock[0] = stored;
            if (stored.firesByItself()) {
                released[0] = LeaseReleaser.releaseDue(connection, stored, RELEASE_ON_CLAIM, true);
            }
            if (stored.paused()) {
                return List.<ClaimedDelivery>of(); // held back, never lost: the resume notifies the waiters
            }
            if (stored.flow() != null) {
                return FlowClaim.claim(connection, stored, incarnation, max,
                        TimeRules.saturatedAdd(stored.now(), leaseMillis), tokensDenied);
            }
            try (PreparedStatement claim = connection.prepareStatement(incarnation == null ? DeliverySql.CLAIM
                    : DeliverySql.CLAIM_OF)) {
                int at = 1;
                claim.setLong(at++, TimeRules.saturatedAdd(stored.now(), leaseMillis));
                claim.setString(at++, clock);
                if (incarnation != null) {
                    claim.setLong(at++, incarnation);
                }
                claim.setInt(at, max);
                List<ClaimedDelivery> claimed = new ArrayList<>(max);
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        claimed.add(new ClaimedDelivery(rows.getString(1), rows.getLong(2), rows.getInt(3), rows.getLong(4),
                                rows.getString(5), rows.getInt(6), rows.getObject(7, UUID.class), rows.getLong(8),
                                rows.getLong(9), rows.getString(10), rows.getString(11), rows.getString(12)));
                    }
                }
                claimed.sort(READY_ORDER); // RETURNING follows no order
                return claimed;
            }
        });
        // timed per look, as the memory store times a claim: a long poll's wait is no latency
        List<ClaimedDelivery> leased = MeasuredCall.measure(metrics, StoreMetrics.Operation.CLAIM, look);
        if (onClock[0].firesByItself() && !leased.isEmpty()) {
            // the firing loop releases the leases when they expire
            alarm.dueAt(onClock[0].dbTimeOf(leased.get(0).leaseUntil()));
        }
        released[0].reportTo(metrics);
        if (tokensDenied[0] > 0) {
            metrics.flowTokensDenied(tokensDenied[0]);
        }
        // lateness is wall-clock time, which only a system clock keeps
        reportClaimed(leased, onClock[0].mode() == ClockSettings.Mode.SYSTEM, onClock[0].now());
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
     * @throws ProblemException as {@link #claim(String, int, long)}; {@code invalid_request} for a wait outside
     *                            0..{@value Limits#MAX_CLAIM_WAIT_MILLIS} ms
     */
    public List<ClaimedDelivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        StoredClock[] looked = new StoredClock[1];
        LongPoll.Signal signal = new LongPoll.Signal() {
            @Override
            public long generation() {
                return wakeups.generation(clock);
            }

            @Override
            public void awaitChange(long seen, long nanos) throws InterruptedException {
                // a flow clock's held-back deliveries come free by an ack or a token's refill, which notify nothing
                boolean flow = looked[0] != null && looked[0].flow() != null;
                wakeups.awaitChange(clock, seen, flow ? Math.min(nanos, FLOW_LOOK_AGAIN_NANOS) : nanos);
            }
        };
        return LongPoll.claim(waitMillis, signal, () -> waitsEnded, () -> claimOnce(clock, null, max, leaseMillis,
                waitMillis, looked));
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
     * @throws ProblemException {@code clock_not_found}
     */
    public boolean ack(String clock, String id, String claim) {
        UUID token = DeliveryRows.token(claim);
        boolean[] newlyAcked = new boolean[1]; // now, not before: a repeated ack is no new event
        boolean held = jdbc.inTransaction(connection -> {
            newlyAcked[0] = false;
            StoredClock stored = DeliveryRows.onQueueClock(connection, clock, () -> { });
            if (token == null) {
                return false;
            }
            long[] bytesAndSequence = Jdbc.queryFirst(connection, DeliverySql.ACK,
                    ack -> bindHeld(ack, 1, stored, id, token), row -> new long[] {row.getLong(1), row.getLong(2)});
            if (bytesAndSequence != null) {
                budget.release(connection, 1, bytesAndSequence[0], 1);
                PostgresReservations.left(connection, stored, Reservation.State.ACKNOWLEDGED, List.of(id),
                        List.of(bytesAndSequence[1]));
                newlyAcked[0] = true;
                return true;
            }
            return Jdbc.queryFirst(connection, DeliverySql.ALREADY_ACKED, acked -> {
                acked.setString(1, clock);
                acked.setString(2, id);
                acked.setObject(3, token);
            }, row -> true) != null;
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
     * @throws ProblemException {@code clock_not_found}
     */
    public List<ErrorCode> ackAll(String clock, List<Ack> acks) {
        int[] newlyAcked = new int[1]; // now, not before: repeated acks are no new events
        List<ErrorCode> outcomes = jdbc.inTransaction(connection -> {
            newlyAcked[0] = 0;
            StoredClock stored = DeliveryRows.onQueueClock(connection, clock, () -> DeliveryRules.requireAckCount(acks));
            String[] ids = new String[acks.size()];
            UUID[] tokens = new UUID[acks.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = acks.get(i).id();
                tokens[i] = DeliveryRows.token(acks.get(i).claim());
            }
            Set<List<Object>> done = new HashSet<>(); // (id, token) pairs acknowledged now or before
            long bytes = 0;
            int acked = 0;
            List<String> ackedIds = new ArrayList<>();
            List<Long> ackedSequences = new ArrayList<>();
            try (PreparedStatement ack = connection.prepareStatement(DeliverySql.ACK_ALL)) {
                bindAcks(connection, ack, stored.name(), ids, tokens);
                ack.setLong(5, stored.now());
                try (ResultSet rows = ack.executeQuery()) {
                    while (rows.next()) {
                        done.add(List.of(rows.getString(1), rows.getObject(2, UUID.class)));
                        bytes += rows.getLong(3);
                        ackedIds.add(rows.getString(1));
                        ackedSequences.add(rows.getLong(4));
                        acked++;
                    }
                }
            }
            if (acked < acks.size()) {
                try (PreparedStatement before = connection.prepareStatement(DeliverySql.ACKED_BEFORE)) {
                    bindAcks(connection, before, stored.name(), ids, tokens);
                    try (ResultSet rows = before.executeQuery()) {
                        while (rows.next()) {
                            done.add(List.of(rows.getString(1), rows.getObject(2, UUID.class)));
                        }
                    }
                }
            }
            budget.release(connection, acked, bytes, acked);
            PostgresReservations.left(connection, stored, Reservation.State.ACKNOWLEDGED, ackedIds, ackedSequences);
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

    /**
     * Binds the tokens, ids, tokens again and the clock's name of {@link DeliverySql#ACK_ALL} or
     * {@link DeliverySql#ACKED_BEFORE}.
     */
    private static void bindAcks(Connection connection, PreparedStatement statement, String clock, String[] ids,
                                 UUID[] tokens) throws SQLException {
        java.sql.Array claims = connection.createArrayOf("uuid", tokens);
        statement.setArray(1, claims);
        statement.setArray(2, connection.createArrayOf("text", ids));
        statement.setArray(3, claims);
        statement.setString(4, clock);
    }

    /**
     * Gives the delivery {@code id} held under {@code claim} back, as the memory store does: dead if this was its
     * last attempt under the clock's policy; else attempt + 1, ready again at {@code now + retryAfterMillis} (null:
     * the policy's backoff for that attempt), at once when that is now.
     *
     * @return the delivery as the nack left it; null when the claim is lost (nothing changed)
     * @throws ProblemException {@code invalid_request} for a retryAfter outside 0..{@value
     *                            RetryPolicy#MAX_BACKOFF_MILLIS} ms, {@code clock_not_found}
     */
    public io.timeservice.model.Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        Runnable validate = () -> { // after the clock is found, before it is asked to queue: the memory store's order
            DeliveryRules.requireRetryAfter(retryAfterMillis);
        };
        return fail(clock, id, claim, validate, (stored, sequence, attempt, leaseUntil, fireTime) -> {
            long now = stored.now();
            RetryPolicy policy = stored.retry();
            long retryAt = TimeRules.saturatedAdd(now, retryAfterMillis != null ? retryAfterMillis
                    : policy.backoffMillis(sequence, attempt + 1));
            return FailedAttempt.nacked(sequence, attempt, fireTime, policy, now, retryAt);
        });
    }

    /**
     * Sends the delivery {@code id} held under {@code claim} to the dead letters at once with {@code reason}, as the
     * memory store does.
     *
     * @return the delivery, dead; null when the claim is lost (nothing changed)
     * @throws ProblemException {@code invalid_request} for a bad reason, {@code clock_not_found}
     */
    public io.timeservice.model.Delivery reject(String clock, String id, String claim, String reason) {
        return fail(clock, id, claim, () -> DeliveryRules.requireDeadReason(reason),
                (stored, sequence, attempt, leaseUntil, fireTime) -> FailedAttempt.rejected(sequence, attempt, leaseUntil, reason));
    }

    /** How a failed attempt of one held delivery ends, decided in its transaction. */
    @FunctionalInterface
    private interface Failure {
        FailedAttempt of(StoredClock stored, long sequence, int attempt, long leaseUntil, long fireTime);
    }

    /** A nack or reject of the delivery {@code id} held under {@code claim}: null when the claim is lost. */
    private io.timeservice.model.Delivery fail(String clock, String id, String claim, Runnable validate,
                                               Failure failure) {
        UUID token = DeliveryRows.token(claim);
        StoredClock[] onClock = new StoredClock[1];
        io.timeservice.model.Delivery failed = jdbc.inTransaction(connection -> {
            StoredClock stored = DeliveryRows.onQueueClock(connection, clock, validate);
            onClock[0] = stored;
            if (token == null) {
                return null;
            }
            FailedAttempt attempt = Jdbc.queryFirst(connection, DeliverySql.NACKED,
                    held -> bindHeld(held, 1, stored, id, token),
                    row -> failure.of(stored, row.getLong(1), row.getInt(2), row.getLong(3), row.getLong(4)));
            if (attempt == null) {
                return null;
            }
            io.timeservice.model.Delivery after = FailedAttempt.apply(connection, List.of(attempt)).get(0);
            if (after.state() == io.timeservice.model.Delivery.State.READY) {
                ReadyWakeups.notify(connection, clock); // claims waiting on any instance take it now, as in memory
            }
            return after;
        });
        if (onClock[0] != null && onClock[0].firesByItself() && failed != null
                && failed.state() == io.timeservice.model.Delivery.State.WAITING) {
            alarm.dueAt(onClock[0].dbTimeOf(failed.retryAt())); // the firing loop makes it ready at its retry time
        }
        if (failed != null) {
            metrics.deliveries(DeliveryEvent.NACKED, 1);
            if (failed.state() == io.timeservice.model.Delivery.State.DEAD) {
                metrics.deliveries(DeliveryEvent.DEAD, 1);
            }
        }
        return failed;
    }

    /**
     * Extends the lease of the delivery {@code id} held under {@code claim} to {@code leaseMillis} from the clock's
     * now.
     *
     * @return the delivery with its new lease; null when the claim is lost (nothing changed)
     * @throws ProblemException {@code invalid_request} for a lease outside the memory store's range,
     *                            {@code clock_not_found}
     */
    public io.timeservice.model.Delivery extend(String clock, String id, String claim, long leaseMillis) {
        UUID token = DeliveryRows.token(claim);
        StoredClock[] onClock = new StoredClock[1];
        io.timeservice.model.Delivery extended = jdbc.inTransaction(connection -> {
            StoredClock stored = DeliveryRows.onQueueClock(connection, clock, () -> DeliveryRules.requireLease(leaseMillis));
            onClock[0] = stored;
            if (token == null) {
                return null;
            }
            try (PreparedStatement extend = connection.prepareStatement(DeliverySql.EXTEND)) {
                extend.setLong(1, TimeRules.saturatedAdd(stored.now(), leaseMillis));
                bindHeld(extend, 2, stored, id, token);
                List<io.timeservice.model.Delivery> views = DeliveryRows.viewsOf(extend);
                return views.isEmpty() ? null : views.get(0);
            }
        });
        if (onClock[0].firesByItself() && extended != null) {
            alarm.dueAt(onClock[0].dbTimeOf(extended.leaseUntil())); // sooner than the firing loop's plan
        }
        return extended;
    }

    /**
     * The deliveries of {@code clock} by state, read in one statement. {@code firingHeldBack}, as in memory only on a
     * clock that fires by itself (a virtual clock's advance is bounded or refused instead): the deliveries of all
     * clocks hold {@code timeservice.deliveries.max} and a timer of this clock is due by its now (its firing waits
     * for room), read then in a second statement.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public DeliveryCounts counts(String clock) {
        return jdbc.autocommit(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, "");
            CountsRow read = Jdbc.queryOne(connection, DeliverySql.COUNTS, count -> count.setString(1, clock),
                    row -> new CountsRow(new DeliveryCounts(row.getInt(1), row.getInt(2), row.getInt(3),
                            row.getInt(4), row.getObject(5, Long.class), false), row.getLong(6)));
            DeliveryCounts counts = read.counts();
            if (!stored.firesByItself() || read.allDeliveries() < budget.maxDeliveries()) {
                return counts;
            }
            boolean heldBack = Jdbc.queryOne(connection, DeliverySql.ANY_DUE, due -> {
                due.setString(1, clock);
                due.setLong(2, stored.now());
            }, row -> row.getBoolean(1));
            return new DeliveryCounts(counts.ready(), counts.inFlight(), counts.waiting(), counts.dead(),
                    counts.oldestReadyAt(), heldBack);
        });
    }

    /** A row of {@link DeliverySql#COUNTS}: the clock's counts, and the unacknowledged deliveries of every clock. */
    private record CountsRow(DeliveryCounts counts, long allDeliveries) {
    }

    /** How many deliveries of {@code clock} are in {@code state} (ready, in_flight, waiting, dead, acked). */
    public int count(String clock, String state) {
        return jdbc.autocommit(connection -> Jdbc.queryOne(connection, DeliverySql.COUNT_IN_STATE, count -> {
            count.setString(1, clock);
            count.setString(2, state);
        }, row -> row.getInt(1)));
    }

    /** Binds {@link DeliverySql#HELD}'s four parameters from {@code first}: the clock, id, token and the clock's now. */
    private static void bindHeld(PreparedStatement statement, int first, StoredClock clock, String id, UUID token)
            throws SQLException {
        statement.setString(first, clock.name());
        statement.setString(first + 1, id);
        statement.setObject(first + 2, token);
        statement.setLong(first + 3, clock.now());
    }
}
