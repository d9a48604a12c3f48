package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SchedulerException;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deliveries on a real PostgreSQL: firing into the ready queue (by advance on a queue clock, by the database's clock
 * on a system clock), claims longest-ready first with leases, ack, nack and extend checked against the claim's token,
 * lease expiry, retries by the clock's policy and dead letters. On the virtual clocks, as in memory, leases and
 * retries follow the clock's own time, so the tests end them by advancing; on a system clock a test moves a row's
 * time into the past with SQL instead of sleeping.
 */
class PostgresDeliveriesTest {

    /** Three attempts, 60 s then 120 s of backoff, no jitter. */
    private static final RetryPolicy THREE_ATTEMPTS = new RetryPolicy(3, 60_000, 2.0, 600_000, 0);

    private static TestDatabase database;
    private static PostgresStore store;
    private static FreshClocks clocks;
    private static String clock;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(PostgresDeliveriesTest.class, 4);
        store = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 100, ClockSettings.Mode.VIRTUAL);
        clocks = new FreshClocks(store, "q");
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    /** A fresh virtual clock at 0 whose fired timers become deliveries, retried by {@link #THREE_ATTEMPTS}. */
    @BeforeEach
    void freshQueueClock() {
        clock = clocks.next(0, ClockSettings.DeliveryMode.QUEUE, THREE_ATTEMPTS);
    }

    private static PostgresDeliveries deliveries() {
        return store.deliveries();
    }

    /** Adds timers due 1 ms from now with the given priorities, then advances the clock by 1 ms. */
    private static void fired(String... idsAndPriorities) {
        for (int i = 0; i < idsAndPriorities.length; i += 2) {
            store.timers().add(clock, idsAndPriorities[i], 1, Integer.parseInt(idsAndPriorities[i + 1]),
                    "{\"i\":" + i + "}");
        }
        advance(1);
    }

    private static void advance(long by) {
        store.timers().advance(clock, by, null, Integer.MAX_VALUE);
    }

    private static long now() {
        return store.clocks().get(clock).now();
    }

    private static String token(ClaimedDelivery delivery) {
        return delivery.claim().toString();
    }

    private static long pendingInBudget() {
        return database.queryLong("SELECT sum(timers) FROM pending_budget");
    }

    @Test
    void claim_takesReadyDeliveriesInFiringOrder_upToMax() {
        fired("c", "1", "a", "0", "b", "0", "d", "-1");

        List<ClaimedDelivery> first = deliveries().claim(clock, 3, 30_000);
        List<ClaimedDelivery> second = deliveries().claim(clock, 3, 30_000);

        assertThat(first).extracting(ClaimedDelivery::id).containsExactly("d", "a", "b");
        assertThat(second).extracting(ClaimedDelivery::id).containsExactly("c");
        assertThat(deliveries().claim(clock, 3, 30_000)).isEmpty();
        assertThat(first.get(1).sequence()).isLessThan(first.get(2).sequence());
        assertThat(first).allSatisfy(d -> assertThat(d.attempt()).isEqualTo(1));
        assertThat(first.get(0).payload()).isEqualTo("{\"i\":6}");
        assertThat(first).extracting(ClaimedDelivery::claim).doesNotHaveDuplicates();
    }

    @Test
    void claim_takesTheLongestReadyFirst_soARetryQueuesBehindWhatFiredBeforeItsRetryTime() {
        fired("a", "0");                                         // ready at 1
        deliveries().nack(clock, "a", token(deliveries().claim(clock, 1, 30_000).get(0)), 5L); // ready again at 6
        store.timers().add(clock, "b", 2, 0, null);              // fires at 3
        store.timers().add(clock, "c", 9, 0, null);              // fires at 10
        advance(9);

        List<ClaimedDelivery> claimed = deliveries().claim(clock, 10, 30_000);

        assertThat(claimed).extracting(ClaimedDelivery::id).containsExactly("b", "a", "c"); // by fire time: a, b, c
        assertThat(claimed).extracting(ClaimedDelivery::readyAt).containsExactly(3L, 6L, 10L);
        assertThat(claimed.get(1).attempt()).isEqualTo(2);
    }

    @Test
    void claim_onAVirtualClock_leasesFromItsNow() {
        fired("a", "0");

        ClaimedDelivery claimed = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(claimed.leaseUntil()).isEqualTo(1 + 30_000);
        assertThat(claimed.readyAt()).isEqualTo(1);
    }

    @Test
    void claim_refusesMaxAndLeaseOutOfRange_asTheMemoryStoreDoes() {
        for (int max : new int[] {0, Limits.MAX_CLAIM + 1}) {
            assertThatThrownBy(() -> deliveries().claim(clock, max, 30_000))
                    .satisfies(e -> assertThat(((SchedulerException) e).code()).isEqualTo(ErrorCode.INVALID_LIMIT));
        }
        for (long lease : new long[] {Limits.MIN_LEASE_MILLIS - 1, Limits.MAX_LEASE_MILLIS + 1}) {
            assertThatThrownBy(() -> deliveries().claim(clock, 1, lease))
                    .satisfies(e -> assertThat(((SchedulerException) e).code()).isEqualTo(ErrorCode.INVALID_REQUEST));
        }
    }

    @Test
    void ack_withItsClaim_isDoneOnce_idempotently_andGivesTheBudgetBack() {
        fired("a", "0");
        long pending = pendingInBudget();
        ClaimedDelivery claimed = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(deliveries().ack(clock, "a", token(claimed))).isTrue();
        assertThat(deliveries().ack(clock, "a", token(claimed))).isTrue();

        assertThat(pendingInBudget()).isEqualTo(pending - 1);
        assertThat(deliveries().count(clock, "acked")).isEqualTo(1);
        assertThat(deliveries().claim(clock, 1, 30_000)).isEmpty();
    }

    @Test
    void ackAll_acknowledgesEachHeldClaim_inOneTransaction_andAnswersClaimLostForTheOthers_inOrder() {
        fired("t0", "0", "t1", "0", "t2", "0", "t3", "0");
        long pending = pendingInBudget();
        List<ClaimedDelivery> claimed = new ArrayList<>(deliveries().claim(clock, 3, 60_000));
        claimed.addAll(deliveries().claim(clock, 1, 1_000));
        assertThat(deliveries().ack(clock, "t2", token(claimed.get(2)))).isTrue(); // acknowledged before
        advance(1_000);                                                             // t3's lease ends

        List<ErrorCode> outcomes = deliveries().ackAll(clock, List.of(
                new Ack("t0", token(claimed.get(0))),
                new Ack("t1", "not-a-token"),
                new Ack("t0", token(claimed.get(0))),   // the same claim twice counts once
                new Ack("t1", token(claimed.get(0))),   // but not for another id
                new Ack("t2", token(claimed.get(2))),   // success again
                new Ack("t3", token(claimed.get(3))))); // its lease ended: lost

        assertThat(outcomes).containsExactly(null, ErrorCode.CLAIM_LOST, null, ErrorCode.CLAIM_LOST, null,
                ErrorCode.CLAIM_LOST);
        assertThat(deliveries().count(clock, "acked")).isEqualTo(2);
        assertThat(deliveries().count(clock, "in_flight")).isEqualTo(1);             // t1
        assertThat(pendingInBudget()).isEqualTo(pending - 2);
    }

    @Test
    void ack_nack_extend_withAWrongClaim_changeNothing() {
        fired("a", "0");
        ClaimedDelivery claimed = deliveries().claim(clock, 1, 30_000).get(0);
        String wrong = UUID.randomUUID().toString();

        assertThat(deliveries().ack(clock, "a", wrong)).isFalse();
        assertThat(deliveries().ack(clock, "a", "not-a-token")).isFalse();
        assertThat(deliveries().ack(clock, "b", token(claimed))).isFalse();
        assertThat(deliveries().nack(clock, "a", wrong, 0L)).isNull();
        assertThat(deliveries().extend(clock, "a", wrong, 60_000)).isNull();

        assertThat(deliveries().count(clock, "in_flight")).isEqualTo(1);
        assertThat(database.queryLong("SELECT lease_until FROM deliveries WHERE seq = " + claimed.sequence()))
                .isEqualTo(claimed.leaseUntil());
    }

    @Test
    void anUnknownClock_isClockNotFound_notAnEmptyClaimOrALostOne() {
        String token = UUID.randomUUID().toString();
        List<Runnable> calls = List.of(() -> deliveries().claim("nope", 1, 30_000),
                () -> deliveries().fireDue("nope", 10), () -> deliveries().releaseDue("nope", 10),
                () -> deliveries().ack("nope", "a", token), () -> deliveries().ack("nope", "a", "not-a-token"),
                () -> deliveries().nack("nope", "a", token, null),
                () -> deliveries().extend("nope", "a", token, 1_000));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run)
                    .satisfies(e -> assertThat(((SchedulerException) e).code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        }
    }

    @Test
    void extend_movesTheLeaseFromTheClocksNow_andKeepsTheClaim() {
        fired("a", "0");
        ClaimedDelivery claimed = deliveries().claim(clock, 1, 1_000).get(0);
        advance(500);

        io.timeservice.model.Delivery extended = deliveries().extend(clock, "a", token(claimed), 5_000);

        assertThat(extended.leaseUntil()).isEqualTo(501 + 5_000);
        assertThat(extended.claim()).isEqualTo(token(claimed));
        assertThat(extended.state()).isEqualTo(State.IN_FLIGHT);
        advance(4_000); // past the first lease's end, not the extended one's
        assertThat(deliveries().ack(clock, "a", token(claimed))).isTrue();
    }

    @Test
    void anAdvancePastALease_losesTheClaim_andTheDeliveryComesBackAfterTheBackoff_untilItDies() {
        fired("a", "0");
        long leaseUntil = 0;
        for (int attempt = 1; attempt <= THREE_ATTEMPTS.maxAttempts(); attempt++) {
            ClaimedDelivery claimed = deliveries().claim(clock, 1, 1_000).get(0);
            assertThat(claimed.attempt()).isEqualTo(attempt);
            leaseUntil = claimed.leaseUntil();
            advance(999);
            assertThat(deliveries().count(clock, "in_flight")).as("the lease has 1 ms left").isEqualTo(1);

            advance(1); // the lease ends: waiting, or dead after the last attempt, in the advance's transaction
            assertThat(deliveries().ack(clock, "a", token(claimed))).isFalse();
            if (attempt == THREE_ATTEMPTS.maxAttempts()) {
                break;
            }
            long backoff = THREE_ATTEMPTS.backoffMillis(claimed.sequence(), attempt + 1); // 60 s, then 120 s
            assertThat(database.queryLong("SELECT retry_at FROM deliveries WHERE seq = " + claimed.sequence()))
                    .isEqualTo(leaseUntil + backoff);
            advance(backoff - 1);
            assertThat(deliveries().claim(clock, 1, 1_000)).as("not before its retry time").isEmpty();
            advance(1);
        }

        assertThat(deliveries().count(clock, "dead")).isEqualTo(1);
        io.timeservice.model.Delivery dead = deliveries().dead(clock, 10, null).get(0);
        assertThat(dead.attempt()).isEqualTo(3);
        assertThat(dead.deadReason()).isEqualTo("lease expired on attempt 3 of 3");
        assertThat(now()).isEqualTo(leaseUntil);
    }

    @Test
    void theRetryStep_movesALongExpiredLeaseThroughWaitingToReady_atTheRetryTime() {
        fired("a", "0");
        ClaimedDelivery claimed = deliveries().claim(clock, 1, 1_000).get(0);

        advance(1_000 + 60_000 + 5); // the lease ended at 1001, its retry came due at 61001

        ClaimedDelivery again = deliveries().claim(clock, 1, 1_000).get(0);
        assertThat(again.sequence()).isEqualTo(claimed.sequence());
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.readyAt()).isEqualTo(claimed.leaseUntil() + 60_000); // ready since its retry time
        assertThat(again.claim()).isNotEqualTo(claimed.claim());
    }

    @Test
    void nack_withAZeroDelay_isReadyAtOnce_thenTheLastAttemptIsDead() {
        fired("a", "0");
        for (int attempt = 1; attempt <= THREE_ATTEMPTS.maxAttempts(); attempt++) {
            ClaimedDelivery claimed = deliveries().claim(clock, 1, 30_000).get(0);
            assertThat(claimed.attempt()).isEqualTo(attempt);

            io.timeservice.model.Delivery nacked = deliveries().nack(clock, "a", token(claimed), 0L);
            assertThat(deliveries().nack(clock, "a", token(claimed), 0L)).isNull();

            if (attempt < THREE_ATTEMPTS.maxAttempts()) {
                assertThat(nacked.state()).isEqualTo(State.READY);
                assertThat(nacked.attempt()).isEqualTo(attempt + 1);
                assertThat(nacked.readyAt()).isEqualTo(now());
            } else {
                assertThat(nacked.state()).isEqualTo(State.DEAD);
                assertThat(nacked.deadReason()).isEqualTo("nacked on attempt 3 of 3");
            }
        }

        assertThat(deliveries().count(clock, "dead")).isEqualTo(1);
        assertThat(deliveries().claim(clock, 1, 30_000)).isEmpty();
    }

    @Test
    void nack_withoutADelay_backsOffByTheClocksPolicy_exactlyAsTheMemoryStore() {
        RetryPolicy jittered = new RetryPolicy(5, 1_000, 3.0, 600_000, 0.5);
        clock = clocks.next(0, ClockSettings.DeliveryMode.QUEUE, jittered);
        fired("a", "0");
        for (int attempt = 1; attempt < jittered.maxAttempts(); attempt++) {
            ClaimedDelivery claimed = deliveries().claim(clock, 1, 30_000).get(0);
            long now = now();

            io.timeservice.model.Delivery nacked = deliveries().nack(clock, "a", token(claimed), null);

            // the memory store's wait for this sequence and attempt: the same formula and deterministic jitter
            assertThat(nacked.retryAt()).isEqualTo(now + jittered.backoffMillis(claimed.sequence(), attempt + 1));
            assertThat(nacked.state()).isEqualTo(State.WAITING);
            advance(nacked.retryAt() - now);
        }
    }

    @Test
    void aClaimOnAVirtualClock_waitsForTheAdvanceHoldingIt_andLeasesFromTheNowItLeaves() throws Exception {
        fired("a", "0");
        try (java.sql.Connection advancing = database.dataSource().getConnection()) {
            advancing.setAutoCommit(false);
            try (var lock = advancing.prepareStatement("UPDATE clocks SET now_ms = 5001 WHERE name = ?")) {
                lock.setString(1, clock); // what an advance to 5001 does last, holding the row until it commits
                lock.executeUpdate();
            }
            long advancer;
            try (var pid = advancing.prepareStatement("SELECT pg_backend_pid()"); var row = pid.executeQuery()) {
                row.next();
                advancer = row.getLong(1);
            }
            var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                var claim = pool.submit(() -> deliveries().claim(clock, 1, 1_000));
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
                while (database.queryLong("SELECT count(*) FROM pg_stat_activity WHERE " + advancer
                        + " = ANY(pg_blocking_pids(pid))") == 0) {
                    assertThat(System.nanoTime()).as("the claim waits for the clock's row").isLessThan(deadline);
                    assertThat(claim.isDone()).as("the claim did not run past the advance").isFalse();
                    Thread.onSpinWait();
                }
                advancing.commit();
                assertThat(claim.get(20, java.util.concurrent.TimeUnit.SECONDS).get(0).leaseUntil())
                        .isEqualTo(5001 + 1_000);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void anIdMayBePendingAgain_whileItsEarlierDeliveryIsStillOut() {
        fired("a", "0");
        store.timers().add(clock, "a", 1, 0, null);
        advance(1);

        List<ClaimedDelivery> both = deliveries().claim(clock, 10, 30_000);

        assertThat(both).extracting(ClaimedDelivery::id).containsExactly("a", "a");
        assertThat(both.get(0).sequence()).isLessThan(both.get(1).sequence());
    }

    @Test
    void onASystemClock_fireDueMovesWhatTheDatabasesClockMakesDue_andLeasesFollowThatClock() {
        String system = "sys-" + clock;
        store.clocks().create(system, ClockSettings.Mode.SYSTEM, 0, null, THREE_ATTEMPTS);
        store.timers().add(system, "now", 0, 0, null);
        store.timers().add(system, "later", 3_600_000, 0, null);

        assertThat(deliveries().fireDue(system, 100)).isEqualTo(1);
        long before = database.queryLong("SELECT db_now_ms()");
        List<ClaimedDelivery> claimed = deliveries().claim(system, 10, 30_000);
        long after = database.queryLong("SELECT db_now_ms()");

        assertThat(claimed).extracting(ClaimedDelivery::id).containsExactly("now");
        assertThat(claimed.get(0).leaseUntil()).isBetween(before + 30_000, after + 30_000);
        assertThat(claimed.get(0).readyAt()).isEqualTo(claimed.get(0).fireTime());
        assertThat(store.timers().firstN(system, 10).timers()).extracting(t -> t.id()).containsExactly("later");

        // a lease that ended: the next claim runs the retry step first, as the memory store's claim does
        long sequence = claimed.get(0).sequence();
        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1000 WHERE seq = " + sequence);
        long leaseEnd = database.queryLong("SELECT lease_until FROM deliveries WHERE seq = " + sequence);
        assertThat(deliveries().ack(system, "now", token(claimed.get(0)))).isFalse();
        assertThat(deliveries().claim(system, 10, 30_000)).isEmpty();
        assertThat(deliveries().count(system, "waiting")).isEqualTo(1);
        assertThat(database.queryLong("SELECT retry_at FROM deliveries WHERE seq = " + sequence))
                .isEqualTo(leaseEnd + THREE_ATTEMPTS.backoffMillis(sequence, 2));

        database.execute("UPDATE deliveries SET retry_at = db_now_ms() WHERE seq = " + sequence);
        assertThat(deliveries().releaseDue(system, 100)).isEqualTo(new PostgresDeliveries.Released(0, 0, 1));
        assertThat(deliveries().claim(system, 10, 30_000)).extracting(ClaimedDelivery::attempt).containsExactly(2);
        store.clocks().delete(system);
    }

    @Test
    void purgeAcked_deletesOnlyAcknowledgedOnes() {
        fired("a", "0", "b", "0");
        ClaimedDelivery a = deliveries().claim(clock, 1, 30_000).get(0);
        deliveries().ack(clock, a.id(), token(a));

        assertThat(deliveries().purgeAcked(0, 100)).isEqualTo(1);
        assertThat(deliveries().count(clock, "ready")).isEqualTo(1);
    }

    @Test
    void deletingAClock_givesItsDeliveriesBudgetBack() {
        long before = pendingInBudget();
        fired("a", "0", "b", "0");
        deliveries().claim(clock, 1, 30_000);
        assertThat(pendingInBudget()).isEqualTo(before + 2);

        store.clocks().delete(clock);
        clocks.deleted();

        assertThat(pendingInBudget()).isEqualTo(before);
    }

    @Test
    void releaseDue_saysHowManyLeasesExpired_howManyOfThemDied_andHowManyRetriesBecameReady() {
        String system = "sys-release-" + clock;
        store.clocks().create(system, ClockSettings.Mode.SYSTEM, 0, null, new RetryPolicy(2, 60_000, 2.0, 600_000, 0));
        for (String id : new String[] {"x", "y", "z"}) {
            store.timers().add(system, id, 0, 0, null);
        }
        assertThat(deliveries().fireDue(system, 100)).isEqualTo(3);
        List<ClaimedDelivery> claimed = deliveries().claim(system, 3, 30_000);
        assertThat(claimed).extracting(ClaimedDelivery::id).containsExactly("x", "y", "z");
        deliveries().nack(system, "y", token(claimed.get(1)), null);              // waiting a minute
        database.execute("UPDATE deliveries SET retry_at = db_now_ms() WHERE clock = '" + system + "' AND id = 'y'");
        database.execute("UPDATE deliveries SET attempt = 2 WHERE clock = '" + system + "' AND id = 'z'");
        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1000 WHERE clock = '" + system
                + "' AND id IN ('x', 'z')");

        // x waits for its second attempt (a minute after its lease's end), z died after its last, y is ready
        assertThat(deliveries().releaseDue(system, 100)).isEqualTo(new PostgresDeliveries.Released(2, 1, 1));
        assertThat(deliveries().count(system, "waiting")).isEqualTo(1);
        assertThat(deliveries().count(system, "dead")).isEqualTo(1);
        assertThat(deliveries().releaseDue(system, 100)).isEqualTo(new PostgresDeliveries.Released(0, 0, 0));
        store.clocks().delete(system);
    }

    @Test
    void onASystemClock_fireLagAndLatenessAreTheDatabasesClockMinusTheDueTime_andAClaimsRetryStepIsReported() {
        RecordingMetrics recorded = new RecordingMetrics();
        PostgresStore reporting = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 100,
                ClockSettings.Mode.VIRTUAL, recorded);
        String system = "sys-metrics-" + clock;
        store.clocks().create(system, ClockSettings.Mode.SYSTEM, 0, null, THREE_ATTEMPTS);
        store.timers().add(system, "late", 0, 0, null);
        database.execute("UPDATE timers SET fire_time = db_now_ms() - 5000 WHERE clock = '" + system + "'");

        assertThat(reporting.deliveries().fireDue(system, 100)).isEqualTo(1);
        List<ClaimedDelivery> claimed = reporting.deliveries().claim(system, 10, 30_000);
        long claimedAt = claimed.get(0).leaseUntil() - 30_000;

        assertThat(recorded.fireLags).singleElement().satisfies(lag -> assertThat(lag).isBetween(5_000L, 65_000L));
        assertThat(recorded.latenesses).containsExactly(claimedAt - claimed.get(0).readyAt());
        assertThat(recorded.latenesses.get(0)).isBetween(recorded.fireLags.get(0), 65_000L);
        assertThat(recorded.events).containsExactly(entry(SchedulerMetrics.DeliveryEvent.CLAIMED, 1));

        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1000 WHERE clock = '" + system + "'");
        assertThat(reporting.deliveries().claim(system, 10, 30_000)).isEmpty();   // waits a minute after its lease
        assertThat(recorded.events).containsOnly(entry(SchedulerMetrics.DeliveryEvent.CLAIMED, 1),
                entry(SchedulerMetrics.DeliveryEvent.EXPIRED, 1));
        assertThat(recorded.latenesses).hasSize(1);
        store.clocks().delete(system);
    }

    /** What a store reported: delivery events summed, and each fire lag and lateness. */
    private static final class RecordingMetrics implements SchedulerMetrics {
        final Map<DeliveryEvent, Integer> events = new EnumMap<>(DeliveryEvent.class);
        final List<Long> fireLags = new ArrayList<>();
        final List<Long> latenesses = new ArrayList<>();

        @Override
        public void deliveries(DeliveryEvent event, int count) {
            events.merge(event, count, Integer::sum);
        }

        @Override
        public void deliveryLateness(long millis) {
            latenesses.add(millis);
        }

        @Override
        public void fireLag(long millis) {
            fireLags.add(millis);
        }
    }

    /** Claims and nacks every ready delivery until the retry policy gives up on each: all of them end dead. */
    private static void killAllReady() {
        for (int attempt = 1; attempt <= THREE_ATTEMPTS.maxAttempts(); attempt++) {
            for (ClaimedDelivery claimed : deliveries().claim(clock, 100, 30_000)) {
                deliveries().nack(clock, claimed.id(), token(claimed), 0L);
            }
        }
    }

    @Test
    void deadDeliveries_arePagedInSequenceOrder() {
        fired("c", "1", "a", "0", "b", "0");
        killAllReady();

        List<io.timeservice.model.Delivery> first = deliveries().dead(clock, 2, null);
        List<io.timeservice.model.Delivery> second = deliveries().dead(clock, 2, first.get(1).sequence());

        assertThat(first).extracting(io.timeservice.model.Delivery::id).containsExactly("c", "a"); // added so
        assertThat(second).extracting(io.timeservice.model.Delivery::id).containsExactly("b");
        assertThat(deliveries().dead(clock, 2, second.get(0).sequence())).isEmpty();
        assertThat(first.get(0).attempt()).isEqualTo(3);
        assertThat(first.get(0).state()).isEqualTo(State.DEAD);
        assertThat(first.get(0).payload()).isEqualTo("{\"i\":0}");
        assertThat(first.get(0).deadReason()).isEqualTo("nacked on attempt 3 of 3");
        assertThatThrownBy(() -> deliveries().dead(clock, 0, null)).isInstanceOf(SchedulerException.class)
                .extracting("code").isEqualTo(ErrorCode.INVALID_LIMIT);
        assertThatThrownBy(() -> deliveries().dead("no-such-clock", 10, null)).isInstanceOf(SchedulerException.class)
                .extracting("code").isEqualTo(ErrorCode.CLOCK_NOT_FOUND);
    }

    @Test
    void redrive_makesADeadDeliveryReadyAtTheClocksNowWithAFreshSetOfAttempts_keepingItsBudget() {
        fired("a", "0");
        killAllReady();
        advance(7);
        long budgetBefore = pendingInBudget();

        List<io.timeservice.model.Delivery> redriven = deliveries().redrive(clock, "a", null);
        ClaimedDelivery again = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(redriven).extracting(io.timeservice.model.Delivery::state).containsExactly(State.READY);
        assertThat(redriven.get(0).attempt()).isEqualTo(1);
        assertThat(redriven.get(0).deadReason()).isNull();
        assertThat(redriven.get(0).readyAt()).isEqualTo(8);
        assertThat(again.sequence()).isEqualTo(redriven.get(0).sequence());
        assertThat(again.attempt()).isEqualTo(1);
        assertThat(pendingInBudget()).isEqualTo(budgetBefore);
        assertThat(deliveries().dead(clock, 10, null)).isEmpty();
        assertThatThrownBy(() -> deliveries().redrive(clock, "a", null)).isInstanceOf(SchedulerException.class)
                .extracting("code").isEqualTo(ErrorCode.DELIVERY_NOT_FOUND);
    }

    @Test
    void deleteDead_removesOnlyTheNamedSequence_andGivesItsBudgetBack() {
        fired("a", "0");
        fired("a", "0"); // the id again, while its first delivery is still out
        killAllReady();
        List<io.timeservice.model.Delivery> dead = deliveries().dead(clock, 10, null);
        assertThat(dead).extracting(io.timeservice.model.Delivery::id).containsExactly("a", "a");
        long budgetBefore = pendingInBudget();

        List<io.timeservice.model.Delivery> deleted = deliveries().deleteDead(clock, "a", dead.get(0).sequence());

        assertThat(deleted).containsExactly(dead.get(0));
        assertThat(deliveries().dead(clock, 10, null)).containsExactly(dead.get(1));
        assertThat(pendingInBudget()).isEqualTo(budgetBefore - 1);
        assertThatThrownBy(() -> deliveries().deleteDead(clock, "a", dead.get(0).sequence()))
                .isInstanceOf(SchedulerException.class).extracting("code")
                .isEqualTo(ErrorCode.DELIVERY_NOT_FOUND);
        assertThat(deliveries().deleteDead(clock, "a", null)).containsExactly(dead.get(1));
        assertThat(pendingInBudget()).isEqualTo(budgetBefore - 2);
    }
}
