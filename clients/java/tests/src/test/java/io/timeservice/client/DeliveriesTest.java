package io.timeservice.client;

import static io.timeservice.client.ClockClientTest.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The delivery calls one by one (the worker's building blocks) against a real TimeService. */
@ExtendWith(TimeServiceExtension.class)
class DeliveriesTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void claim_leasesFiredTimersInFiringOrder_withTheirPayloads(@TestClock(queued = true) ClockClient clock) {
        clock.add("A", Duration.ofSeconds(5), 0, "{\"order\":42}");
        clock.add("B", Duration.ofSeconds(5));
        assertEquals(List.of("A", "B"), ids(clock.advance(Duration.ofSeconds(5))));

        List<Delivery> claimed = clock.claim(10, LEASE, Duration.ZERO);

        assertEquals(List.of("A", "B"), claimed.stream().map(Delivery::id).toList());
        Delivery a = claimed.get(0);
        assertEquals(1, a.attempt());
        assertEquals(Delivery.State.IN_FLIGHT, a.state());
        assertNotNull(a.claim());
        assertEquals(Instant.ofEpochMilli(5_000), a.fireTime());
        assertEquals(Instant.ofEpochMilli(35_000), a.leaseUntil());
        assertEquals(Map.of("order", 42), a.payload(Map.class));
        assertNull(claimed.get(1).payload(Map.class));
        assertEquals(new DeliveryCounts(0, 2, 0, 0, null, false), clock.deliveries());
        assertEquals(List.of(), clock.claim(10, LEASE, Duration.ZERO));
    }

    @Test
    void ack_isDone_andRepeatingItIsHarmless(@TestClock(queued = true) ClockClient clock) {
        clock.add("A", Duration.ZERO);
        clock.advance(Duration.ZERO);
        Delivery a = clock.claim(1, LEASE, Duration.ZERO).get(0);

        clock.ack(a);
        clock.ack(a);

        assertTrue(clock.deliveries().drained());
    }

    @Test
    void nack_withRetryAfter_waitsThatLong_thenComesWithTheNextAttempt(@TestClock(queued = true) ClockClient clock) {
        clock.add("B", Duration.ZERO);
        clock.advance(Duration.ZERO);
        Delivery first = clock.claim(1, LEASE, Duration.ZERO).get(0);

        Delivery waiting = clock.nack(first, Duration.ofMinutes(1));

        assertEquals(Delivery.State.WAITING, waiting.state());
        assertEquals(Instant.ofEpochMilli(60_000), waiting.retryAt());
        TimeServiceException lost = assertThrows(TimeServiceException.class, () -> clock.ack(first));
        assertEquals(409, lost.status());
        assertEquals("claim_lost", lost.code());
        assertEquals(new AckResult(0, List.of("B")), clock.ackAll(List.of(first)));
        assertEquals(List.of(), clock.claim(1, LEASE, Duration.ZERO));

        clock.advance(Duration.ofMinutes(1));
        Delivery second = clock.claim(1, LEASE, Duration.ZERO).get(0);
        Delivery extended = clock.extend(second, Duration.ofMinutes(2));

        assertEquals(2, second.attempt());
        assertEquals(Instant.ofEpochMilli(180_000), extended.leaseUntil());
        assertEquals(second.claim(), extended.claim());
        assertEquals(new AckResult(1, List.of()), clock.ackAll(List.of(second)));
        assertTrue(clock.deliveries().drained());
    }

    @Test
    void leaseEnds_deliveryComesAgain(@TestClock(queued = true) ClockClient clock) {
        clock.add("C", Duration.ZERO);
        clock.advance(Duration.ZERO);
        Delivery first = clock.claim(1, Duration.ofSeconds(1), Duration.ZERO).get(0);

        clock.advance(Duration.ofMinutes(1));

        Delivery again = clock.claim(1, LEASE, Duration.ZERO).get(0);
        assertEquals(first.sequence(), again.sequence());
        assertEquals(2, again.attempt());
        assertThrows(TimeServiceException.class, () -> clock.extend(first, LEASE));
    }

    @Test
    void lastAttempt_isDead_redriveAndDeleteWork(TimeServiceClient ts) {
        ClockClient clock = ts.createClock("dead-" + UUID.randomUUID(),
                ClockOptions.virtual().queued().retry(RetryPolicy.defaults().withMaxAttempts(1)));
        try {
            clock.add("X", Duration.ZERO);
            clock.advance(Duration.ZERO);
            Delivery dead = clock.nack(clock.claim(1, LEASE, Duration.ZERO).get(0));

            assertEquals(Delivery.State.DEAD, dead.state());
            assertNotNull(dead.deadReason());
            assertEquals(List.of(dead.sequence()), clock.deadDeliveries().stream().map(Delivery::sequence).toList());

            List<Delivery> redriven = clock.redrive("X");
            assertEquals(Delivery.State.READY, redriven.get(0).state());
            assertEquals(1, redriven.get(0).attempt());
            clock.nack(clock.claim(1, LEASE, Duration.ZERO).get(0));
            assertEquals(1, clock.deliveries().dead());

            clock.deleteDead("X");
            assertEquals(List.of(), clock.deadDeliveries());
            TimeServiceException missing = assertThrows(TimeServiceException.class, () -> clock.deleteDead("X"));
            assertEquals("delivery_not_found", missing.code());
            assertEquals("delivery_not_found", assertThrows(TimeServiceException.class,
                    () -> clock.redrive("X")).code());
        } finally {
            clock.delete();
        }
    }

    @Test
    void deadDeliveries_arePagedThrough(TimeServiceClient ts) {
        ClockClient clock = ts.createClock("dead-pages-" + UUID.randomUUID(),
                ClockOptions.virtual().queued().retry(RetryPolicy.defaults().withMaxAttempts(1)));
        try {
            ManyTimers.add(clock, "d", 1_005, i -> Duration.ZERO);
            clock.advance(Duration.ZERO);
            for (List<Delivery> claimed; !(claimed = clock.claim(1000, LEASE, Duration.ZERO)).isEmpty(); ) {
                claimed.forEach(clock::nack);
            }

            List<Delivery> dead = clock.deadDeliveries();

            assertEquals(1_005, dead.size());
            assertEquals(1_005, dead.stream().map(Delivery::sequence).distinct().count());
        } finally {
            clock.delete();
        }
    }

    @Test
    void longPoll_answersOnceSomethingIsReady_orEmptyWhenTheWaitEnds(@TestClock(queued = true) ClockClient clock)
            throws Exception {
        assertEquals(List.of(), clock.claim(1, LEASE, Duration.ofMillis(200)));
        clock.add("late", Duration.ofSeconds(1));

        java.util.concurrent.CompletableFuture<List<Delivery>> poll = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> clock.claim(1, LEASE, Duration.ofSeconds(20)));
        clock.advance(Duration.ofSeconds(1));

        assertEquals(List.of("late"), poll.get().stream().map(Delivery::id).toList());
    }

    @Test
    void deliveryRefusals_eachWithItsCode(ClockClient clock) {
        TimeServiceException notQueued = assertThrows(TimeServiceException.class,
                () -> clock.claim(1, LEASE, Duration.ZERO));
        assertEquals(409, notQueued.status());
        assertEquals("clock_not_queued", notQueued.code());
        assertEquals("clock_not_queued", assertThrows(TimeServiceException.class, clock::deliveries).code());
    }

    @Test
    void claimRefusals_badLimitOrLease(@TestClock(queued = true) ClockClient clock) {
        TimeServiceException badLimit = assertThrows(TimeServiceException.class,
                () -> clock.claim(0, LEASE, Duration.ZERO));
        TimeServiceException badLease = assertThrows(TimeServiceException.class,
                () -> clock.claim(1, Duration.ofMillis(10), Duration.ZERO));

        assertEquals("invalid_limit", badLimit.code());
        assertEquals(400, badLease.status());
    }
}
