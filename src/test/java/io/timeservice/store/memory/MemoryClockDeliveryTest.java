package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.Ack;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/** Deliveries of a queueing virtual clock: claims, leases, acks, nacks, retries and dead letters on the clock's time. */
class MemoryClockDeliveryTest {

    private static final long LEASE = 1_000;

    private final DeliveryTestClocks test = new DeliveryTestClocks();
    private final MemoryClock queue = test.create("q", DeliveryTestClocks.VIRTUAL_QUEUE);

    @Test
    void firedTimers_areClaimedInFiringOrder_fireTimeThenPriorityThenSequence() {
        queue.add("late", 20, 0, null, Trace.NONE);
        queue.add("low", 10, 5, null, Trace.NONE);
        queue.add("high", 10, -5, null, Trace.NONE);
        queue.add("second-high", 10, -5, "{\"n\":2}", Trace.NONE);
        AdvanceResult advanced = queue.advance(20, Trace.NONE);

        assertThat(advanced.fired()).extracting(Timer::id).containsExactly("high", "second-high", "low", "late");
        List<Delivery> claimed = queue.claim(10, LEASE, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("high", "second-high", "low", "late");
        assertThat(claimed).allSatisfy(d -> {
            assertThat(d.attempt()).isEqualTo(1);
            assertThat(d.state()).isEqualTo(State.IN_FLIGHT);
            assertThat(d.leaseUntil()).isEqualTo(20 + LEASE);
        });
        assertThat(claimed.get(1).payload()).isEqualTo("{\"n\":2}");
        assertThat(claimed).extracting(Delivery::claim).doesNotHaveDuplicates().allSatisfy(
                claim -> assertThat(claim).hasSizeGreaterThanOrEqualTo(22));
    }

    @Test
    void aBoundedAdvanceThatStopsShort_endsOnlyTheLeasesOfTheTimeItReached() {
        queue.add("held", 1, 0, null, Trace.NONE);
        queue.advance(1, Trace.NONE);
        Delivery held = queue.claim(1, LEASE, 0).get(0);               // leased until 1 + LEASE
        queue.add("x1", 500, 0, null, Trace.NONE);
        queue.add("x2", 600, 0, null, Trace.NONE);

        AdvanceResult advanced = queue.advance(null, 5_000L, 1, Trace.NONE);   // fires x1 only, stops at 501

        assertThat(advanced.fired()).extracting(Timer::id).containsExactly("x1");
        assertThat(queue.now()).isEqualTo(501);
        assertThat(queue.deliveryCounts().inFlight()).isEqualTo(1);
        queue.ack("held", held.claim());                               // its lease has not ended at 501
        assertThat(queue.deliveryCounts().waiting()).isZero();
    }

    @Test
    void claim_takesAtMostMax_andLeavesTheRestReady() {
        addDue(5);
        assertThat(queue.claim(2, LEASE, 0)).extracting(Delivery::id).containsExactly("t0", "t1");
        assertThat(queue.deliveryCounts().ready()).isEqualTo(3);
        assertThat(queue.deliveryCounts().inFlight()).isEqualTo(2);
    }

    @Test
    void ack_removesTheDelivery_givesItsBudgetBack_andIsIdempotentForTheSameClaim() {
        addDue(1);
        long budgetBefore = test.clocks.budget().timers();
        Delivery d = queue.claim(1, LEASE, 0).get(0);
        queue.ack("t0", d.claim());
        assertThat(queue.deliveryCounts().total()).isZero();
        assertThat(test.clocks.budget().timers()).isEqualTo(budgetBefore - 1);
        assertThat(test.clocks.budget().deliveries()).isZero();

        queue.ack("t0", d.claim()); // again: success, nothing changes
        assertThat(test.clocks.budget().timers()).isEqualTo(budgetBefore - 1);
    }

    @Test
    void ackAll_acknowledgesEachValidClaim_andAnswersClaimLostForTheOthers_inOrder() {
        addDue(3);
        List<Delivery> claimed = queue.claim(3, LEASE, 0);
        queue.ack("t2", claimed.get(2).claim()); // acknowledged before: success again
        List<ErrorCode> outcomes = queue.ackAll(List.of(
                new Ack("t0", claimed.get(0).claim()),
                new Ack("t1", "not-a-claim"),
                new Ack("t0", claimed.get(0).claim()), // the same claim twice counts once
                new Ack("t1", claimed.get(0).claim()), // but not for another id
                new Ack("t2", claimed.get(2).claim())));
        assertThat(outcomes).containsExactly(null, ErrorCode.CLAIM_LOST, null, ErrorCode.CLAIM_LOST, null);
        assertThat(queue.allDeliveries()).extracting(Delivery::id).containsExactly("t1");
        assertThat(test.clocks.budget().deliveries()).isEqualTo(1);
        assertThatThrownBy(() -> queue.ackAll(List.of())).hasFieldOrPropertyWithValue("code",
                ErrorCode.INVALID_REQUEST);
    }

    @Test
    void ackAll_aClaimNamedAgainWithAnotherId_isClaimLost_asASingleAckWouldBe() {
        addDue(2);
        List<Delivery> claimed = queue.claim(2, LEASE, 0);
        List<ErrorCode> outcomes = queue.ackAll(List.of(
                new Ack("t0", claimed.get(0).claim()),
                new Ack("t1", claimed.get(0).claim()))); // t0's claim names no delivery of t1
        assertThat(outcomes).containsExactly(null, ErrorCode.CLAIM_LOST);
        assertThat(queue.allDeliveries()).extracting(Delivery::id).containsExactly("t1");
        assertThatThrownBy(() -> queue.ack("t1", claimed.get(0).claim())).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST);
    }

    @Test
    void wrongOrExpiredClaims_areClaimLost_andChangeNothing() {
        addDue(2);
        List<Delivery> claimed = queue.claim(2, LEASE, 0);
        Delivery first = claimed.get(0);
        assertThatThrownBy(() -> queue.ack("t0", "not-a-claim")).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST);
        assertThatThrownBy(() -> queue.ack("t1", first.claim())).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST); // a claim of another delivery
        queue.advance(LEASE, Trace.NONE); // the lease ends exactly now
        assertThatThrownBy(() -> queue.ack("t0", first.claim())).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST);
        assertThatThrownBy(() -> queue.extend("t0", first.claim(), LEASE)).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST);
        assertThatThrownBy(() -> queue.nack("t0", first.claim(), 0L)).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST);
        assertThat(queue.deliveryCounts().inFlight()).isZero();
        assertThat(queue.deliveryCounts().waiting()).isEqualTo(2);
    }

    @Test
    void expiredLease_comesBackAfterTheBackoff_withTheNextAttempt_andDiesAfterTheLast() {
        addDue(1);
        queue.claim(1, LEASE, 0);
        queue.advance(LEASE, Trace.NONE); // expired at 1000, retry 100 ms later
        assertThat(queue.claim(1, LEASE, 0)).isEmpty();
        queue.advance(99, Trace.NONE);
        assertThat(queue.claim(1, LEASE, 0)).isEmpty();
        queue.advance(1, Trace.NONE);
        Delivery second = queue.claim(1, LEASE, 0).get(0);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.readyAt()).isEqualTo(1_100);

        queue.advance(LEASE + 200, Trace.NONE); // second lease ends, third attempt 200 ms later
        Delivery third = queue.claim(1, LEASE, 0).get(0);
        assertThat(third.attempt()).isEqualTo(3);
        queue.advance(LEASE, Trace.NONE); // the last of 3 attempts expires: dead
        assertThat(queue.deliveryCounts().dead()).isEqualTo(1);
        List<Delivery> dead = queue.deadDeliveries(10, 0);
        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(d.state()).isEqualTo(State.DEAD);
            assertThat(d.attempt()).isEqualTo(3);
            assertThat(d.deadReason()).contains("lease expired on attempt 3 of 3");
        });
    }

    @Test
    void nack_retriesAfterItsRetryAfter_orTheBackoff_andDeadAfterTheLastAttempt() {
        addDue(1);
        Delivery first = queue.claim(1, LEASE, 0).get(0);
        Delivery nacked = queue.nack("t0", first.claim(), 0L);
        assertThat(nacked.state()).isEqualTo(State.READY);
        assertThat(nacked.attempt()).isEqualTo(2);

        Delivery second = queue.claim(1, LEASE, 0).get(0);
        Delivery waiting = queue.nack("t0", second.claim(), null);
        assertThat(waiting.state()).isEqualTo(State.WAITING);
        assertThat(waiting.retryAt()).isEqualTo(200); // third attempt: 100 * 2, no jitter
        queue.advance(200, Trace.NONE);
        Delivery third = queue.claim(1, LEASE, 0).get(0);
        assertThat(third.attempt()).isEqualTo(3);
        assertThat(queue.nack("t0", third.claim(), 5L).state()).isEqualTo(State.DEAD);
    }

    @Test
    void extend_movesTheLeaseEnd() {
        addDue(1);
        Delivery d = queue.claim(1, LEASE, 0).get(0);
        queue.advance(900, Trace.NONE);
        assertThat(queue.extend("t0", d.claim(), 5_000).leaseUntil()).isEqualTo(5_900);
        queue.advance(4_999, Trace.NONE);
        queue.ack("t0", d.claim());
        assertThat(queue.deliveryCounts().total()).isZero();
    }

    @Test
    void deadDeliveries_page_redrive_fromAttemptOne_andDelete() {
        addDue(3);
        for (Delivery d : queue.claim(3, LEASE, 0)) {
            queue.nack(d.id(), d.claim(), 0L);
        }
        for (int round = 0; round < 2; round++) {
            for (Delivery d : queue.claim(3, LEASE, 0)) {
                queue.nack(d.id(), d.claim(), 0L);
            }
        }
        assertThat(queue.deliveryCounts().dead()).isEqualTo(3);
        List<Delivery> page = queue.deadDeliveries(2, 0);
        assertThat(page).extracting(Delivery::id).containsExactly("t0", "t1");
        assertThat(queue.deadDeliveries(2, page.get(1).sequence())).extracting(Delivery::id).containsExactly("t2");

        List<Delivery> redriven = queue.redrive("t1", null);
        assertThat(redriven).singleElement().satisfies(d -> {
            assertThat(d.state()).isEqualTo(State.READY);
            assertThat(d.attempt()).isEqualTo(1);
        });
        assertThat(queue.claim(5, LEASE, 0)).extracting(Delivery::id).containsExactly("t1");
        assertThat(queue.deleteDead("t2", page.get(0).sequence() + 2)).hasSize(1);
        assertThatThrownBy(() -> queue.deleteDead("t2", null)).hasFieldOrPropertyWithValue("code",
                ErrorCode.DELIVERY_NOT_FOUND);
        assertThatThrownBy(() -> queue.redrive("t0", 12345L)).hasFieldOrPropertyWithValue("code",
                ErrorCode.DELIVERY_NOT_FOUND);
        assertThat(queue.deliveryCounts().dead()).isEqualTo(1);
    }

    @Test
    void anIdMayBeScheduledAgain_whileItsEarlierDeliveryIsPending_toldApartBySequence() {
        queue.add("job", 0, 0, null, Trace.NONE);
        queue.advance(0, Trace.NONE);
        queue.add("job", 0, 0, null, Trace.NONE);
        queue.advance(0, Trace.NONE);
        List<Delivery> claimed = queue.claim(10, LEASE, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("job", "job");
        assertThat(claimed.get(0).sequence()).isLessThan(claimed.get(1).sequence());
        queue.ack("job", claimed.get(1).claim());
        assertThat(queue.deliveryCounts().inFlight()).isEqualTo(1);
    }

    @Test
    void deliveriesCountInTheCapacity_andTheDeliveryLimitHoldsAdvancesBack() {
        DeliveryTestClocks small = new DeliveryTestClocks(3, 2);
        MemoryClock scheduler = small.create("q", DeliveryTestClocks.VIRTUAL_QUEUE);
        for (int i = 0; i < 3; i++) {
            scheduler.add("t" + i, 0, 0, null, Trace.NONE);
        }
        AdvanceResult first = scheduler.advance(0L, null, Integer.MAX_VALUE, Trace.NONE);
        assertThat(first.fired()).extracting(Timer::id).containsExactly("t0", "t1");
        assertThat(first.complete()).isFalse();
        assertThatThrownBy(() -> scheduler.add("t3", 0, 0, null, Trace.NONE)).hasFieldOrPropertyWithValue("code",
                ErrorCode.CAPACITY_EXCEEDED); // 1 pending + 2 deliveries fill the capacity of 3
        assertThatThrownBy(() -> scheduler.advance(0, Trace.NONE)).hasFieldOrPropertyWithValue("code",
                ErrorCode.CAPACITY_EXCEEDED);
        Delivery d = scheduler.claim(1, LEASE, 0).get(0);
        scheduler.ack(d.id(), d.claim());
        assertThat(scheduler.advance(0, Trace.NONE).fired()).extracting(Timer::id).containsExactly("t2");
    }

    @Test
    void anAdvanceTheDeliveryLimitHoldsBack_stillMovesTime_soLeasesEndAndTheDeliveryIsClaimedAgain() {
        DeliveryTestClocks small = new DeliveryTestClocks(100, 2);
        MemoryClock scheduler = small.create("q", DeliveryTestClocks.VIRTUAL_QUEUE);
        for (String id : List.of("a", "b", "c")) {
            scheduler.add(id, 1, 0, null, Trace.NONE);
        }
        assertThat(scheduler.advance(1, Trace.NONE).fired()).extracting(Timer::id).containsExactly("a", "b");
        Delivery leased = scheduler.claim(1, LEASE, 0).get(0);                  // a, leased until 1 + LEASE

        AdvanceResult held = scheduler.advance(null, 5_000L, Integer.MAX_VALUE, Trace.NONE);

        assertThat(held.fired()).isEmpty();                                     // c is due, but no room
        assertThat(held.complete()).isFalse();
        assertThat(held.now()).isEqualTo(5_000);
        assertThat(scheduler.now()).isEqualTo(5_000);
        assertThat(scheduler.get("c").fireTime()).isEqualTo(1);
        assertThat(scheduler.checkInvariants().ok()).as("c waits behind what fired: not overdue").isTrue();
        assertThat(scheduler.deliveryCounts().inFlight()).isZero();             // a's lease ended at 1 + LEASE
        assertThatThrownBy(() -> scheduler.ack("a", leased.claim())).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLAIM_LOST);
        assertThatThrownBy(() -> scheduler.advance(null, 5_000L, Integer.MAX_VALUE, Trace.NONE))
                .hasFieldOrPropertyWithValue("code", ErrorCode.CAPACITY_EXCEEDED); // there already: nothing to do

        List<Delivery> again = scheduler.claim(2, LEASE, 0);
        assertThat(again).extracting(Delivery::id).containsExactly("b", "a");
        assertThat(again.get(1).attempt()).isEqualTo(2);
        for (Delivery d : again) {
            scheduler.ack(d.id(), d.claim());
        }
        AdvanceResult rest = scheduler.advance(null, 5_000L, Integer.MAX_VALUE, Trace.NONE);
        assertThat(rest.fired()).extracting(Timer::id).containsExactly("c");
        assertThat(rest.complete()).isTrue();
        assertThat(rest.now()).isEqualTo(5_000);
        assertThat(scheduler.checkInvariants().ok()).isTrue();
    }

    @Test
    void aBoundedAdvanceAfterTimePassed_firesTheOverdueInOrder_andLeavesTheClockWhereItIs() {
        DeliveryTestClocks small = new DeliveryTestClocks(100, 1);
        MemoryClock scheduler = small.create("q", DeliveryTestClocks.VIRTUAL_QUEUE);
        scheduler.add("a", 1, 0, null, Trace.NONE);
        scheduler.add("b", 2, 0, null, Trace.NONE);
        scheduler.add("c", 3, 0, null, Trace.NONE);
        scheduler.advance(1, Trace.NONE);                                       // a fills the limit of 1
        assertThat(scheduler.advance(null, 100L, Integer.MAX_VALUE, Trace.NONE).fired()).isEmpty();
        Delivery a = scheduler.claim(1, LEASE, 0).get(0);
        scheduler.ack(a.id(), a.claim());

        AdvanceResult one = scheduler.advance(null, 100L, Integer.MAX_VALUE, Trace.NONE); // room for one of two

        assertThat(one.fired()).extracting(Timer::id).containsExactly("b");
        assertThat(one.complete()).isFalse();
        assertThat(one.now()).isEqualTo(100);
        assertThat(scheduler.checkInvariants().ok()).isTrue();
    }

    @Test
    void aResponseClock_refusesDeliveryCalls_andASystemClock_refusesAdvance() {
        MemoryClock plain = test.clocks.defaultScheduler();
        assertThatThrownBy(() -> plain.claim(1, LEASE, 0)).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLOCK_NOT_QUEUED);
        MemoryClock system = test.create("sys", DeliveryTestClocks.SYSTEM_QUEUE);
        assertThatThrownBy(() -> system.advance(1, Trace.NONE)).hasFieldOrPropertyWithValue("code",
                ErrorCode.CLOCK_NOT_VIRTUAL);
    }

    @Test
    void claimArguments_areChecked() {
        assertThatThrownBy(() -> queue.claim(0, LEASE, 0)).hasFieldOrPropertyWithValue("code", ErrorCode.INVALID_LIMIT);
        assertThatThrownBy(() -> queue.claim(1_001, LEASE, 0)).hasFieldOrPropertyWithValue("code",
                ErrorCode.INVALID_LIMIT);
        assertThatThrownBy(() -> queue.claim(1, 999, 0)).hasFieldOrPropertyWithValue("code",
                ErrorCode.INVALID_REQUEST);
        assertThatThrownBy(() -> queue.claim(1, LEASE, 30_001)).hasFieldOrPropertyWithValue("code",
                ErrorCode.INVALID_REQUEST);
    }

    @Test
    void aLongPoll_answersAsSoonAsADeliveryIsReady() throws Exception {
        queue.add("soon", 5, 0, null, Trace.NONE);
        CompletableFuture<List<Delivery>> poll = CompletableFuture.supplyAsync(() -> queue.claim(1, LEASE, 30_000));
        queue.advance(5, Trace.NONE);
        assertThat(poll.get(20, TimeUnit.SECONDS)).extracting(Delivery::id).containsExactly("soon");
    }

    @Test
    void aLongPoll_answersEmpty_whenItsWaitEnds() {
        long start = System.nanoTime();
        assertThat(queue.claim(1, LEASE, 50)).isEmpty();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    }

    private void addDue(int count) {
        for (int i = 0; i < count; i++) {
            queue.add("t" + i, 0, 0, null, Trace.NONE);
        }
        queue.advance(0, Trace.NONE);
    }
}
