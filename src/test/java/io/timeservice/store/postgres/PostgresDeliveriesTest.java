package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deliveries on a real PostgreSQL: firing into the ready queue (by advance on a queue clock, by the database's clock
 * on a system clock), claims in firing order with leases, ack, nack and extend checked against the claim's token,
 * lease expiry, retries and dead letters. Where only time would expire a lease or bring a retry due, the test moves
 * that row's time into the past with SQL instead of sleeping.
 */
class PostgresDeliveriesTest {

    private static final RetryPolicy THREE_ATTEMPTS = new RetryPolicy(3, 60_000, 2.0, 600_000, 0);

    private static TestDatabase database;
    private static PostgresStore store;
    private static FreshClocks clocks;
    private static String clock;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(PostgresDeliveriesTest.class, 4);
        store = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 100, StoredClock.Mode.VIRTUAL);
        clocks = new FreshClocks(store, "q");
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    /** A fresh virtual clock at 0 whose fired timers become deliveries, on an empty budget. */
    @BeforeEach
    void freshQueueClock() {
        clock = clocks.next(0, StoredClock.Delivery.QUEUE);
    }

    private static PostgresDeliveries deliveries() {
        return store.deliveries();
    }

    /** Adds timers due at 1, 2, ... with the given priorities, then advances past them all. */
    private static void fired(String... idsAndPriorities) {
        for (int i = 0; i < idsAndPriorities.length; i += 2) {
            store.timers().add(clock, idsAndPriorities[i], 1, Integer.parseInt(idsAndPriorities[i + 1]),
                    "{\"i\":" + i + "}");
        }
        store.timers().advance(clock, 1L, null, Integer.MAX_VALUE);
    }

    private static long pendingInBudget() {
        return database.queryLong("SELECT sum(timers) FROM pending_budget");
    }

    @Test
    void claim_takesReadyDeliveriesInFiringOrder_upToMax() {
        fired("c", "1", "a", "0", "b", "0", "d", "-1");

        List<Delivery> first = deliveries().claim(clock, 3, 30_000);
        List<Delivery> second = deliveries().claim(clock, 3, 30_000);

        assertThat(first).extracting(Delivery::id).containsExactly("d", "a", "b");
        assertThat(second).extracting(Delivery::id).containsExactly("c");
        assertThat(deliveries().claim(clock, 3, 30_000)).isEmpty();
        assertThat(first.get(1).sequence()).isLessThan(first.get(2).sequence());
        assertThat(first).allSatisfy(d -> assertThat(d.attempt()).isEqualTo(1));
        assertThat(first.get(0).payload()).isEqualTo("{\"i\":6}");
        assertThat(first).extracting(Delivery::claim).doesNotHaveDuplicates();
    }

    @Test
    void claim_leasesFromTheDatabasesClock() {
        fired("a", "0");
        long before = database.queryLong("SELECT db_now_ms()");

        Delivery claimed = deliveries().claim(clock, 1, 30_000).get(0);

        long after = database.queryLong("SELECT db_now_ms()");
        assertThat(claimed.leaseUntil()).isBetween(before + 30_000, after + 30_000);
    }

    @Test
    void claim_refusesMaxAndLeaseOutOfRange() {
        for (int max : new int[] {0, 1_001}) {
            assertThatThrownBy(() -> deliveries().claim(clock, max, 30_000))
                    .satisfies(e -> assertThat(((SchedulerException) e).code()).isEqualTo(ErrorCode.INVALID_REQUEST));
        }
        for (long lease : new long[] {0, PostgresDeliveries.MAX_LEASE_MILLIS + 1}) {
            assertThatThrownBy(() -> deliveries().claim(clock, 1, lease))
                    .satisfies(e -> assertThat(((SchedulerException) e).code()).isEqualTo(ErrorCode.INVALID_REQUEST));
        }
    }

    @Test
    void ack_withItsClaim_isDoneOnce_idempotently_andGivesTheBudgetBack() {
        fired("a", "0");
        long pending = pendingInBudget();
        Delivery claimed = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(deliveries().ack(clock, "a", claimed.claim().toString())).isTrue();
        assertThat(deliveries().ack(clock, "a", claimed.claim().toString())).isTrue();

        assertThat(pendingInBudget()).isEqualTo(pending - 1);
        assertThat(deliveries().count(clock, "acked")).isEqualTo(1);
        assertThat(deliveries().claim(clock, 1, 30_000)).isEmpty();
    }

    @Test
    void ack_nack_extend_withAWrongClaim_changeNothing() {
        fired("a", "0");
        Delivery claimed = deliveries().claim(clock, 1, 30_000).get(0);
        String wrong = UUID.randomUUID().toString();

        assertThat(deliveries().ack(clock, "a", wrong)).isFalse();
        assertThat(deliveries().ack(clock, "a", "not-a-token")).isFalse();
        assertThat(deliveries().ack(clock, "b", claimed.claim().toString())).isFalse();
        assertThat(deliveries().nack(clock, "a", wrong, 0L, THREE_ATTEMPTS)).isFalse();
        assertThat(deliveries().extend(clock, "a", wrong, 60_000)).isFalse();

        assertThat(deliveries().count(clock, "in_flight")).isEqualTo(1);
        assertThat(database.queryLong("SELECT lease_until FROM deliveries WHERE seq = " + claimed.sequence()))
                .isEqualTo(claimed.leaseUntil());
    }

    @Test
    void anUnknownClock_isClockNotFound_notAnEmptyClaimOrALostOne() {
        String token = UUID.randomUUID().toString();
        List<Runnable> calls = List.of(() -> deliveries().claim("nope", 1, 30_000),
                () -> deliveries().fireDue("nope", 10),
                () -> deliveries().ack("nope", "a", token), () -> deliveries().ack("nope", "a", "not-a-token"),
                () -> deliveries().nack("nope", "a", token, null, THREE_ATTEMPTS),
                () -> deliveries().extend("nope", "a", token, 1_000));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run)
                    .satisfies(e -> assertThat(((SchedulerException) e).code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        }
    }

    @Test
    void extend_movesTheLeaseFromNow() {
        fired("a", "0");
        Delivery claimed = deliveries().claim(clock, 1, 1_000).get(0);

        assertThat(deliveries().extend(clock, "a", claimed.claim().toString(), 600_000)).isTrue();

        assertThat(database.queryLong("SELECT lease_until FROM deliveries WHERE seq = " + claimed.sequence()))
                .isGreaterThan(claimed.leaseUntil() + 500_000);
    }

    @Test
    void anExpiredLease_losesTheClaim_andTheDeliveryComesBackWithTheNextAttempt() {
        fired("a", "0");
        Delivery claimed = deliveries().claim(clock, 1, 30_000).get(0);
        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1 WHERE seq = " + claimed.sequence());

        assertThat(deliveries().ack(clock, "a", claimed.claim().toString())).isFalse();
        assertThat(deliveries().releaseDue(clock, THREE_ATTEMPTS, 100)).isEqualTo(1);
        assertThat(deliveries().count(clock, "waiting")).isEqualTo(1);
        long retryIn = database.queryLong("SELECT retry_at - db_now_ms() FROM deliveries WHERE seq = "
                + claimed.sequence());
        assertThat(retryIn).isBetween(59_000L, 60_000L); // the first backoff, no jitter
        assertThat(deliveries().claim(clock, 1, 30_000)).isEmpty();

        database.execute("UPDATE deliveries SET retry_at = db_now_ms() WHERE seq = " + claimed.sequence());
        assertThat(deliveries().releaseDue(clock, THREE_ATTEMPTS, 100)).isEqualTo(1);
        Delivery again = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(again.sequence()).isEqualTo(claimed.sequence());
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.claim()).isNotEqualTo(claimed.claim());
        assertThat(deliveries().ack(clock, "a", claimed.claim().toString())).isFalse();
        assertThat(deliveries().ack(clock, "a", again.claim().toString())).isTrue();
    }

    @Test
    void nack_retriesAfterTheGivenDelay_thenTheLastAttemptIsDead() {
        fired("a", "0");
        for (int attempt = 1; attempt <= THREE_ATTEMPTS.maxAttempts(); attempt++) {
            Delivery claimed = deliveries().claim(clock, 1, 30_000).get(0);
            assertThat(claimed.attempt()).isEqualTo(attempt);

            assertThat(deliveries().nack(clock, "a", claimed.claim().toString(), 0L, THREE_ATTEMPTS)).isTrue();
            assertThat(deliveries().nack(clock, "a", claimed.claim().toString(), 0L, THREE_ATTEMPTS)).isFalse();
            deliveries().releaseDue(clock, THREE_ATTEMPTS, 100);
        }

        assertThat(deliveries().count(clock, "dead")).isEqualTo(1);
        assertThat(deliveries().claim(clock, 1, 30_000)).isEmpty();
        assertThat(database.queryLong("SELECT attempt FROM deliveries WHERE state = 'dead' AND clock = '" + clock
                + "'")).isEqualTo(3);
    }

    @Test
    void nack_withoutADelay_backsOffByThePolicy() {
        fired("a", "0");
        Delivery claimed = deliveries().claim(clock, 1, 30_000).get(0);

        deliveries().nack(clock, "a", claimed.claim().toString(), null, THREE_ATTEMPTS);

        assertThat(database.queryLong("SELECT retry_at - db_now_ms() FROM deliveries WHERE seq = "
                + claimed.sequence())).isBetween(59_000L, 60_000L);
    }

    @Test
    void anIdMayBePendingAgain_whileItsEarlierDeliveryIsStillOut() {
        fired("a", "0");
        store.timers().add(clock, "a", 1, 0, null);
        store.timers().advance(clock, 1L, null, Integer.MAX_VALUE);

        List<Delivery> both = deliveries().claim(clock, 10, 30_000);

        assertThat(both).extracting(Delivery::id).containsExactly("a", "a");
        assertThat(both.get(0).sequence()).isLessThan(both.get(1).sequence());
    }

    @Test
    void fireDue_onASystemClock_movesWhatTheDatabasesClockMakesDue() {
        String system = "sys-" + clock;
        store.clocks().create(system, StoredClock.Mode.SYSTEM, 0, null);
        store.timers().add(system, "now", 0, 0, null);
        store.timers().add(system, "later", 3_600_000, 0, null);

        assertThat(deliveries().fireDue(system, 100)).isEqualTo(1);
        assertThat(deliveries().claim(system, 10, 30_000)).extracting(Delivery::id).containsExactly("now");
        assertThat(store.timers().firstN(system, 10).timers()).extracting(t -> t.id()).containsExactly("later");
        store.clocks().delete(system);
    }

    @Test
    void purgeAcked_deletesOnlyAcknowledgedOnes() {
        fired("a", "0", "b", "0");
        Delivery a = deliveries().claim(clock, 1, 30_000).get(0);
        deliveries().ack(clock, a.id(), a.claim().toString());

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

    /** Claims and nacks every ready delivery until the retry policy gives up on each: all of them end dead. */
    private static void killAllReady() {
        for (int attempt = 1; attempt <= THREE_ATTEMPTS.maxAttempts(); attempt++) {
            for (Delivery claimed : deliveries().claim(clock, 100, 30_000)) {
                deliveries().nack(clock, claimed.id(), claimed.claim().toString(), 0L, THREE_ATTEMPTS);
            }
            deliveries().releaseDue(clock, THREE_ATTEMPTS, 100);
        }
    }

    @Test
    void deadDeliveries_arePagedInSequenceOrder() {
        fired("c", "1", "a", "0", "b", "0");
        killAllReady();

        List<DeadDelivery> first = deliveries().dead(clock, 2, null);
        List<DeadDelivery> second = deliveries().dead(clock, 2, first.get(1).sequence());

        assertThat(first).extracting(DeadDelivery::id).containsExactly("c", "a"); // added in that order
        assertThat(second).extracting(DeadDelivery::id).containsExactly("b");
        assertThat(deliveries().dead(clock, 2, second.get(0).sequence())).isEmpty();
        assertThat(first.get(0).attempts()).isEqualTo(3);
        assertThat(first.get(0).payload()).isEqualTo("{\"i\":0}");
        assertThat(first.get(0).diedAt()).isCloseTo(database.queryLong("SELECT db_now_ms()"),
                org.assertj.core.data.Offset.offset(60_000L));
        assertThatThrownBy(() -> deliveries().dead(clock, 0, null)).isInstanceOf(SchedulerException.class)
                .extracting("code").isEqualTo(ErrorCode.INVALID_LIMIT);
        assertThatThrownBy(() -> deliveries().dead("no-such-clock", 10, null)).isInstanceOf(SchedulerException.class)
                .extracting("code").isEqualTo(ErrorCode.CLOCK_NOT_FOUND);
    }

    @Test
    void redrive_makesADeadDeliveryReadyWithAFreshSetOfAttempts_keepingItsBudget() {
        fired("a", "0");
        killAllReady();
        long budgetBefore = pendingInBudget();

        List<DeadDelivery> redriven = deliveries().redrive(clock, "a", null);
        Delivery again = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(redriven).extracting(DeadDelivery::attempts).containsExactly(3);
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
        List<DeadDelivery> dead = deliveries().dead(clock, 10, null);
        assertThat(dead).extracting(DeadDelivery::id).containsExactly("a", "a");
        long budgetBefore = pendingInBudget();

        List<DeadDelivery> deleted = deliveries().deleteDead(clock, "a", dead.get(0).sequence());

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
