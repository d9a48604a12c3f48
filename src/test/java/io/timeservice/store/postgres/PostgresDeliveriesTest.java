package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

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
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.Test;

/**
 * Deliveries on a real PostgreSQL: firing into the ready queue (by advance on a queue clock, by the database's clock
 * on a system clock), claims longest-ready first with leases, ack, nack and extend checked against the claim's token,
 * retries by the clock's policy. Lease expiry's own step is {@link LeaseReleaserTest}'s, dead letters
 * {@link PostgresDeadLettersTest}'s.
 */
class PostgresDeliveriesTest extends QueueClockTest {

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

    /**
     * A claim leases at most {@code max} deliveries whichever plan PostgreSQL picks for it. With the table's
     * statistics taken while it held no live row (an {@code ANALYZE}, autovacuum's or a database-wide one of another
     * session, after a clock's deliveries were deleted), PostgreSQL ran the claim's subquery again for every row of a
     * sequential scan, each run taking the next ready rows: a claim of 1 leased all four, and in a fresh-clone run
     * under load a claim of 3 leased t3 too, so that {@link
     * #ackAll_acknowledgesEachHeldClaim_inOneTransaction_andAnswersClaimLostForTheOthers_inOrder}'s t3 still held a
     * 60 s lease when its 1 s one had ended. On a schema of its own, so that the statistics are exactly those.
     */
    @Test
    void claim_leasesAtMostMax_whicheverPlanTheStatisticsGive() {
        try (TestDatabase own = TestDatabase.create(getClass(), 2);
             PostgresStore fresh = PostgresStore.open(own.dataSource(), 1_000, 1_000_000, 100,
                     ClockSettings.Mode.VIRTUAL)) {
            fresh.clocks().create("gone", ClockSettings.Mode.VIRTUAL, 0, ClockSettings.DeliveryMode.QUEUE,
                    THREE_ATTEMPTS);
            fresh.timerChanges().add("gone", "a", 0, 0, null);
            fresh.clockFiring().advance("gone", 1L, null, Integer.MAX_VALUE);
            fresh.clocks().delete("gone");                      // a page of dead rows, none live
            own.execute("ANALYZE deliveries");
            fresh.clocks().create("q", ClockSettings.Mode.VIRTUAL, 0, ClockSettings.DeliveryMode.QUEUE,
                    THREE_ATTEMPTS);
            for (String id : List.of("t0", "t1", "t2", "t3", "t4", "t5")) {
                fresh.timerChanges().add("q", id, 1, 0, null);
            }
            fresh.clockFiring().advance("q", 1L, null, Integer.MAX_VALUE);

            assertThat(fresh.deliveries().claim("q", 1, 30_000)).extracting(ClaimedDelivery::id).containsExactly("t0");
            assertThat(fresh.deliveries().claim("q", 2, 30_000)).extracting(ClaimedDelivery::id)
                    .containsExactly("t1", "t2");
            long incarnation = fresh.clocks().get("q").incarnation();
            assertThat(fresh.deliveries().claimOf("q", incarnation, 2, 30_000)).extracting(ClaimedDelivery::id)
                    .containsExactly("t3", "t4");
            assertThat(fresh.deliveries().count("q", "ready")).isEqualTo(1);
        }
    }

    @Test
    void claim_takesTheLongestReadyFirst_soARetryQueuesBehindWhatFiredBeforeItsRetryTime() {
        fired("a", "0");                                         // ready at 1
        deliveries().nack(clock, "a", token(deliveries().claim(clock, 1, 30_000).get(0)), 5L); // ready again at 6
        store.timerChanges().add(clock, "b", 2, 0, null);              // fires at 3
        store.timerChanges().add(clock, "c", 9, 0, null);              // fires at 10
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
                    .satisfies(e -> assertThat(((ProblemException) e).code()).isEqualTo(ErrorCode.INVALID_LIMIT));
        }
        for (long lease : new long[] {Limits.MIN_LEASE_MILLIS - 1, Limits.MAX_LEASE_MILLIS + 1}) {
            assertThatThrownBy(() -> deliveries().claim(clock, 1, lease))
                    .satisfies(e -> assertThat(((ProblemException) e).code()).isEqualTo(ErrorCode.INVALID_REQUEST));
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
        assertThat(claimed).extracting(ClaimedDelivery::id, ClaimedDelivery::leaseUntil).containsExactly(
                tuple("t0", 60_001L), tuple("t1", 60_001L), tuple("t2", 60_001L), tuple("t3", 1_001L));
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
                () -> store.clockFiring().fireDue("nope", 10), () -> store.leases().releaseDue("nope", 10),
                () -> deliveries().ack("nope", "a", token), () -> deliveries().ack("nope", "a", "not-a-token"),
                () -> deliveries().nack("nope", "a", token, null),
                () -> deliveries().extend("nope", "a", token, 1_000));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run)
                    .satisfies(e -> assertThat(((ProblemException) e).code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
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
        io.timeservice.model.Delivery dead = store.deadLetters().dead(clock, 10, null).get(0);
        assertThat(dead.attempt()).isEqualTo(3);
        assertThat(dead.deadReason()).isEqualTo("lease expired on attempt 3 of 3");
        assertThat(now()).isEqualTo(leaseUntil);
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
            var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                String onClock = clock;
                var claim = pool.submit(() -> deliveries().claim(onClock, 1, 1_000));
                // the claim waits for the clock's row; failing at once if it ran past the advance
                LockWaits.awaitBlockedBy(database, LockWaits.backendPid(advancing), claim);
                advancing.commit();
                assertThat(claim.get(1, java.util.concurrent.TimeUnit.MINUTES).get(0).leaseUntil())
                        .isEqualTo(5001 + 1_000);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * A virtual clock 10^7 ms before the end of time: every lease end and retry time lies past {@link Long#MAX_VALUE}
     * and saturates there, instead of wrapping negative (every ack {@code claim_lost}, as on the memory store before).
     */
    @Test
    void nearTheEndOfTime_leaseEndsAndRetryTimesSaturate_insteadOfWrappingIntoThePast() {
        database.execute("UPDATE clocks SET now_ms = " + (Limits.MAX_TIME - 10_000_000) + " WHERE name = '" + clock
                + "'");
        fired("a", "0", "b", "0");

        ClaimedDelivery a = deliveries().claim(clock, 1, Limits.MAX_LEASE_MILLIS).get(0);
        assertThat(a.leaseUntil()).isEqualTo(Limits.MAX_TIME);
        assertThat(deliveries().ack(clock, "a", token(a))).isTrue();
        ClaimedDelivery b = deliveries().claim(clock, 1, 1_000).get(0);
        assertThat(deliveries().extend(clock, "b", token(b), Limits.MAX_LEASE_MILLIS).leaseUntil())
                .isEqualTo(Limits.MAX_TIME);
        io.timeservice.model.Delivery nacked = deliveries().nack(clock, "b", token(b), RetryPolicy.MAX_BACKOFF_MILLIS);
        assertThat(nacked.state()).isEqualTo(State.WAITING);
        assertThat(nacked.retryAt()).isEqualTo(Limits.MAX_TIME);

        store.clockFiring().advance(clock, null, Limits.MAX_TIME, Integer.MAX_VALUE); // its retry time comes at the end
        ClaimedDelivery again = deliveries().claim(clock, 1, 1_000).get(0);
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.readyAt()).isEqualTo(Limits.MAX_TIME);
        assertThat(again.leaseUntil()).isEqualTo(Limits.MAX_TIME);
    }

    @Test
    void anIdMayBePendingAgain_whileItsEarlierDeliveryIsStillOut() {
        fired("a", "0");
        store.timerChanges().add(clock, "a", 1, 0, null);
        advance(1);

        List<ClaimedDelivery> both = deliveries().claim(clock, 10, 30_000);

        assertThat(both).extracting(ClaimedDelivery::id).containsExactly("a", "a");
        assertThat(both.get(0).sequence()).isLessThan(both.get(1).sequence());
    }

    @Test
    void onASystemClock_fireDueMovesWhatTheDatabasesClockMakesDue_andLeasesFollowThatClock() {
        String system = "sys-" + clock;
        store.clocks().create(system, ClockSettings.Mode.SYSTEM, 0, null, THREE_ATTEMPTS);
        store.timerChanges().add(system, "now", 0, 0, null);
        store.timerChanges().add(system, "later", 3_600_000, 0, null);

        assertThat(store.clockFiring().fireDue(system, 100)).isEqualTo(1);
        long before = database.queryLong("SELECT db_now_ms()");
        List<ClaimedDelivery> claimed = deliveries().claim(system, 10, 30_000);
        long after = database.queryLong("SELECT db_now_ms()");

        assertThat(claimed).extracting(ClaimedDelivery::id).containsExactly("now");
        assertThat(claimed.get(0).leaseUntil()).isBetween(before + 30_000, after + 30_000);
        assertThat(claimed.get(0).readyAt()).isEqualTo(claimed.get(0).fireTime());
        assertThat(store.timerReads().firstN(system, 10).timers()).extracting(t -> t.id()).containsExactly("later");

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
        assertThat(store.leases().releaseDue(system, 100)).isEqualTo(new LeaseReleaser.Released(0, 0, 1));
        assertThat(deliveries().claim(system, 10, 30_000)).extracting(ClaimedDelivery::attempt).containsExactly(2);
        store.clocks().delete(system);
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
    void onASystemClock_fireLagAndLatenessAreTheDatabasesClockMinusTheDueTime_andAClaimsRetryStepIsReported() {
        RecordingMetrics recorded = new RecordingMetrics();
        PostgresStore reporting = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 100,
                ClockSettings.Mode.VIRTUAL, recorded);
        String system = "sys-metrics-" + clock;
        store.clocks().create(system, ClockSettings.Mode.SYSTEM, 0, null, THREE_ATTEMPTS);
        store.timerChanges().add(system, "late", 0, 0, null);
        database.execute("UPDATE timers SET fire_time = db_now_ms() - 5000 WHERE clock = '" + system + "'");

        assertThat(reporting.clockFiring().fireDue(system, 100)).isEqualTo(1);
        List<ClaimedDelivery> claimed = reporting.deliveries().claim(system, 10, 30_000);
        long claimedAt = claimed.get(0).leaseUntil() - 30_000;

        assertThat(recorded.fireLags).singleElement().satisfies(lag -> assertThat(lag).isBetween(5_000L, 65_000L));
        assertThat(recorded.latenesses).containsExactly(claimedAt - claimed.get(0).readyAt());
        assertThat(recorded.latenesses.get(0)).isBetween(recorded.fireLags.get(0), 65_000L);
        assertThat(recorded.events).containsExactly(entry(StoreMetrics.DeliveryEvent.CLAIMED, 1));

        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1000 WHERE clock = '" + system + "'");
        assertThat(reporting.deliveries().claim(system, 10, 30_000)).isEmpty();   // waits a minute after its lease
        assertThat(recorded.events).containsOnly(entry(StoreMetrics.DeliveryEvent.CLAIMED, 1),
                entry(StoreMetrics.DeliveryEvent.EXPIRED, 1));
        assertThat(recorded.latenesses).hasSize(1);
        store.clocks().delete(system);
    }

    /** What a store reported: delivery events summed, and each fire lag and lateness. */
    private static final class RecordingMetrics implements StoreMetrics {
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
}
