package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.timeservice.model.Ack;
import io.timeservice.model.BatchOp;
import io.timeservice.model.BulkOutcome;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.MemoryContractStores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract of {@link DeliveryStore}, run against every store on a virtual queueing clock {@value #Q} (time moved
 * by advances only): claims and their order, acks, nacks, extends, lease expiry, retries by the clock's policy, dead
 * letters with their paging, redrive and deletion, the delivery limit, and the order and text of every refusal. The
 * last case runs seeded random operations against a memory store as the reference.
 */
public abstract class DeliveryStoreContract extends StoreContract {

    static final String Q = "q";
    /** Three attempts, backoffs of 400 ms doubling to 3 s, no jitter: retry times the cases can name. */
    private static final RetryPolicy THREE = new RetryPolicy(3, 400, 2.0, 3_000, 0.0);
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, THREE);
    private static final String LOST = "the claim does not hold a lease on a delivery of %s (wrong or expired;"
            + " the delivery may have gone to another worker)";

    @BeforeEach
    void queueClock() {
        clocks().create(Q, 1_000, QUEUE);
    }

    /** Adds the timers, each due after {@code delay}, and fires them. */
    private void fired(long delay, String... ids) {
        for (String id : ids) {
            timers().add(Q, id, delay, 0, "{\"id\":\"" + id + "\"}", Trace.NONE);
        }
        timers().advance(Q, delay, null, Integer.MAX_VALUE, Trace.NONE);
    }

    private void advance(long by) {
        timers().advance(Q, by, null, Integer.MAX_VALUE, Trace.NONE);
    }

    @Test
    void claim_leasesTheReadyDeliveries_inFiringOrder_eachWithItsOwnClaim() {
        timers().add(Q, "b", 10, 0, null, Trace.NONE);
        timers().add(Q, "a", 10, -1, null, Trace.NONE);
        timers().add(Q, "c", 20, 0, "[1]", Trace.NONE);
        advance(20);
        assertThat(deliveries().counts(Q)).isEqualTo(new DeliveryCounts(3, 0, 0, 0, 1_010L, false));

        List<Delivery> claimed = deliveries().claim(Q, 2, 5_000, 0);

        assertThat(claimed).extracting(Delivery::id, Delivery::attempt, Delivery::state, Delivery::leaseUntil,
                Delivery::readyAt).containsExactly(tuple("a", 1, Delivery.State.IN_FLIGHT, 6_020L, 1_010L),
                tuple("b", 1, Delivery.State.IN_FLIGHT, 6_020L, 1_010L));
        assertThat(claimed.get(0).claim()).isNotEqualTo(claimed.get(1).claim());
        assertThat(deliveries().counts(Q)).isEqualTo(new DeliveryCounts(1, 2, 0, 0, 1_020L, false));
        Delivery c = deliveries().claim(Q, 10, 5_000, 0).get(0);
        assertThat(c.id()).isEqualTo("c");
        assertThat(c.payload()).isEqualTo("[1]");
        assertThat(c.fireTime()).isEqualTo(1_020);
        assertThat(deliveries().claim(Q, 10, 5_000, 0)).isEmpty();
    }

    @Test
    void theAddingRequestsTraceContext_staysWithItsTimer_itsDelivery_aCopyAndASnapshot() {
        String traced = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01;congo=t61rcWkgMzE";
        String batched = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
        timers().add(Q, "t", Due.after(5), 0, null, traced, null, Trace.NONE);
        timers().add(Q, "plain", 5, 0, null, Trace.NONE);
        assertThat(timers().batch(Q, List.of(new BatchOp.Add("b", Due.after(50), 0, "[1]", batched))))
                .extracting(Timer::traceContext).containsExactly(batched);
        assertThat(timers().get(Q, "b").traceContext()).isEqualTo(batched);
        assertThat(timers().get(Q, "plain").traceContext()).isNull();
        advance(5);

        clocks().copy("copy", Q);
        ClockSnapshot saved = clocks().snapshot(Q);
        clocks().load("loaded", saved);

        assertThat(saved.timers()).extracting(Timer::id, Timer::traceContext).containsExactly(tuple("b", batched));
        assertThat(saved.deliveries()).extracting(Delivery::id, Delivery::traceContext)
                .containsExactlyInAnyOrder(tuple("t", traced), tuple("plain", null));
        for (String clock : List.of(Q, "copy", "loaded")) {
            assertThat(timers().get(clock, "b").traceContext()).as(clock).isEqualTo(batched);
            assertThat(deliveries().claim(clock, 10, 1_000, 0)).as(clock)
                    .extracting(Delivery::id, Delivery::traceContext)
                    .containsExactlyInAnyOrder(tuple("t", traced), tuple("plain", null));
        }
    }

    @Test
    void ack_removesTheDeliveryForGood_andAgainWithTheSameClaimChangesNothing() {
        fired(5, "a", "b");
        List<Delivery> claimed = deliveries().claim(Q, 2, 1_000, 0);
        Delivery a = claimed.get(0);

        deliveries().ack(Q, "a", a.claim());
        deliveries().ack(Q, "a", a.claim());

        assertThat(deliveries().counts(Q).inFlight()).isEqualTo(1);
        assertThat(deliveries().counts(Q).total()).isEqualTo(1);
        assertRefused(() -> deliveries().ack(Q, "b", a.claim()), ErrorCode.CLAIM_LOST, LOST.formatted("b"));
        assertRefused(() -> deliveries().ack(Q, "b", "not-a-claim"), ErrorCode.CLAIM_LOST, LOST.formatted("b"));
        assertRefused(() -> deliveries().ack(Q, "b", UUID.randomUUID().toString()), ErrorCode.CLAIM_LOST,
                LOST.formatted("b"));
        assertThat(deliveries().ackAll(Q, List.of(new Ack("b", claimed.get(1).claim()), new Ack("a", a.claim()),
                new Ack("b", "nothing"), new Ack("a", claimed.get(1).claim()))))
                .containsExactly(null, null, ErrorCode.CLAIM_LOST, ErrorCode.CLAIM_LOST);
        assertThat(deliveries().counts(Q).total()).isZero();
        assertRefused(() -> deliveries().ackAll(Q, List.of()), ErrorCode.INVALID_REQUEST,
                "one call acknowledges 1 to " + Limits.MAX_CLAIM + " deliveries, got 0");
    }

    @Test
    void anExpiredLease_makesTheDeliveryReadyAgain_andItsClaimLost() {
        fired(5, "a");
        Delivery first = deliveries().claim(Q, 1, 1_000, 0).get(0);

        advance(999);
        assertThat(deliveries().counts(Q).inFlight()).isEqualTo(1);
        advance(1);

        assertThat(deliveries().counts(Q).inFlight()).isZero();
        assertRefused(() -> deliveries().ack(Q, "a", first.claim()), ErrorCode.CLAIM_LOST, LOST.formatted("a"));
        assertRefused(() -> deliveries().extend(Q, "a", first.claim(), 1_000), ErrorCode.CLAIM_LOST,
                LOST.formatted("a"));
        assertRefused(() -> deliveries().nack(Q, "a", first.claim(), null), ErrorCode.CLAIM_LOST,
                LOST.formatted("a"));
        advance(400);   // the first retry's backoff
        Delivery again = deliveries().claim(Q, 1, 1_000, 0).get(0);
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.claim()).isNotEqualTo(first.claim());
    }

    @Test
    void extend_movesTheLeaseEnd_fromNow() {
        fired(5, "a");
        Delivery claimed = deliveries().claim(Q, 1, 1_000, 0).get(0);
        advance(500);

        Delivery extended = deliveries().extend(Q, "a", claimed.claim(), 2_000);

        assertThat(extended.leaseUntil()).isEqualTo(1_005 + 500 + 2_000);
        assertThat(extended.claim()).isEqualTo(claimed.claim());
        advance(1_999);
        deliveries().ack(Q, "a", claimed.claim());
        assertRefused(() -> deliveries().extend(Q, "a", claimed.claim(), Limits.MIN_LEASE_MILLIS - 1),
                ErrorCode.INVALID_REQUEST, "lease must be " + Limits.MIN_LEASE_MILLIS + " to "
                        + Limits.MAX_LEASE_MILLIS + " ms: " + (Limits.MIN_LEASE_MILLIS - 1));
    }

    @Test
    void nack_retriesAfterTheBackoff_orTheGivenDelay_untilTheLastAttemptGoesDead() {
        fired(5, "a");
        Delivery first = deliveries().claim(Q, 1, 1_000, 0).get(0);

        Delivery waiting = deliveries().nack(Q, "a", first.claim(), null);
        assertThat(waiting.state()).isEqualTo(Delivery.State.WAITING);
        assertThat(waiting.attempt()).isEqualTo(2);
        assertThat(waiting.retryAt()).isEqualTo(1_005 + 400);
        assertThat(deliveries().claim(Q, 1, 1_000, 0)).isEmpty();
        advance(400);

        Delivery second = deliveries().claim(Q, 1, 1_000, 0).get(0);
        assertThat(second.attempt()).isEqualTo(2);
        Delivery now = deliveries().nack(Q, "a", second.claim(), 0L);
        assertThat(now.state()).isEqualTo(Delivery.State.READY);
        assertThat(now.attempt()).isEqualTo(3);

        Delivery third = deliveries().claim(Q, 1, 1_000, 0).get(0);
        Delivery dead = deliveries().nack(Q, "a", third.claim(), null);
        assertThat(dead.state()).isEqualTo(Delivery.State.DEAD);
        assertThat(dead.deadReason()).isEqualTo("nacked on attempt 3 of 3");
        assertThat(deliveries().counts(Q)).isEqualTo(new DeliveryCounts(0, 0, 0, 1, null, false));
        assertRefused(() -> deliveries().nack(Q, "a", third.claim(), null), ErrorCode.CLAIM_LOST,
                LOST.formatted("a"));
    }

    @Test
    void nack_isRefused_forARetryAfterOutOfRange() {
        fired(5, "a");
        Delivery claimed = deliveries().claim(Q, 1, 1_000, 0).get(0);

        assertRefused(() -> deliveries().nack(Q, "a", claimed.claim(), -1L), ErrorCode.INVALID_REQUEST,
                "retryAfter must be 0 to " + RetryPolicy.MAX_BACKOFF_MILLIS + " ms: -1");
        assertThat(deliveries().counts(Q).inFlight()).isEqualTo(1);
    }

    @Test
    void reject_sendsTheDeliveryToTheDeadLettersAtOnce_withItsReason() {
        fired(5, "a");
        Delivery claimed = deliveries().claim(Q, 1, 1_000, 0).get(0);

        assertRefused(() -> deliveries().reject(Q, "a", claimed.claim(), ""), ErrorCode.INVALID_REQUEST,
                "a dead delivery's reason must be 1 to 256 characters");
        Delivery dead = deliveries().reject(Q, "a", claimed.claim(), "gone");

        assertThat(dead.state()).isEqualTo(Delivery.State.DEAD);
        assertThat(dead.deadReason()).isEqualTo("gone");
        assertThat(dead.attempt()).isEqualTo(1);
        assertThat(deliveries().dead(Q, 10, 0)).containsExactly(dead);
        assertRefused(() -> deliveries().dead(Q, 0, 0), ErrorCode.INVALID_LIMIT, "limit must be >= 1: 0");
        assertRefused(() -> deliveries().reject(Q, "a", claimed.claim(), "gone"), ErrorCode.CLAIM_LOST,
                LOST.formatted("a"));
    }

    @Test
    void deadLetters_pageBySequence_andRedriveOrDeleteByIdOrSequence() {
        fired(5, "a", "b", "c");
        timers().add(Q, "a", 1, 0, null, Trace.NONE);
        advance(1);
        List<Delivery> claimed = deliveries().claim(Q, 4, 1_000, 0);
        for (Delivery d : claimed) {
            deliveries().reject(Q, d.id(), d.claim(), "no");
        }
        List<Delivery> all = deliveries().dead(Q, 10, 0);
        assertThat(all).extracting(Delivery::id).containsExactly("a", "b", "c", "a");
        assertThat(deliveries().dead(Q, 2, 0)).isEqualTo(all.subList(0, 2));
        assertThat(deliveries().dead(Q, 2, all.get(1).sequence())).isEqualTo(all.subList(2, 4));
        assertThat(deliveries().dead(Q, 2, all.get(3).sequence())).isEmpty();

        assertRefused(() -> deliveries().redrive(Q, "a", all.get(3).sequence() + 1_000), ErrorCode.DELIVERY_NOT_FOUND,
                "no dead delivery has id a and sequence " + (all.get(3).sequence() + 1_000));
        List<Delivery> redriven = deliveries().redrive(Q, "a", all.get(3).sequence());
        assertThat(redriven).extracting(Delivery::id, Delivery::sequence, Delivery::attempt, Delivery::state,
                Delivery::readyAt).containsExactly(tuple("a", all.get(3).sequence(), 1, Delivery.State.READY, 1_006L));
        assertThat(redriven.get(0).deadReason()).as("ready again: no reason to be dead").isNull();
        assertThat(deliveries().redrive(Q, "a", null)).extracting(Delivery::sequence)
                .containsExactly(all.get(0).sequence());
        assertRefused(() -> deliveries().redrive(Q, "a", null), ErrorCode.DELIVERY_NOT_FOUND,
                "no dead delivery has id a");
        assertRefused(() -> deliveries().deleteDead(Q, "b", 999L), ErrorCode.DELIVERY_NOT_FOUND,
                "no dead delivery has id b and sequence 999");
        deliveries().deleteDead(Q, "b", null);
        assertRefused(() -> deliveries().deleteDead(Q, "b", null), ErrorCode.DELIVERY_NOT_FOUND,
                "no dead delivery has id b");
        assertThat(deliveries().dead(Q, 10, 0)).extracting(Delivery::id).containsExactly("c");
        assertThat(deliveries().counts(Q)).isEqualTo(new DeliveryCounts(2, 0, 0, 1, 1_006L, false));
    }

    @Test
    void refusals_comeInOrder_anUnknownClock_thenTheInput_thenAClockThatDoesNotQueue() {
        clocks().create("answers", 0, ClockSettings.VIRTUAL);
        for (String clock : new String[] {"nowhere", "answers"}) {
            boolean missing = clock.equals("nowhere");
            refusal(() -> deliveries().claim(clock, 0, 1_000, 0), missing, ErrorCode.INVALID_LIMIT,
                    "max must be 1 to " + Limits.MAX_CLAIM + ": 0");
            refusal(() -> deliveries().claim(clock, 1, 1_000, -1), missing, ErrorCode.INVALID_REQUEST,
                    "wait must be 0 to " + Limits.MAX_CLAIM_WAIT_MILLIS + " ms: -1");
            refusal(() -> deliveries().ackAll(clock, List.of()), missing, ErrorCode.INVALID_REQUEST,
                    "one call acknowledges 1 to " + Limits.MAX_CLAIM + " deliveries, got 0");
            refusal(() -> deliveries().extend(clock, "a", "c", -5), missing, ErrorCode.INVALID_REQUEST,
                    "lease must be " + Limits.MIN_LEASE_MILLIS + " to " + Limits.MAX_LEASE_MILLIS + " ms: -5");
            refusal(() -> deliveries().nack(clock, "a", "c", -5L), missing, ErrorCode.INVALID_REQUEST,
                    "retryAfter must be 0 to " + RetryPolicy.MAX_BACKOFF_MILLIS + " ms: -5");
            String notQueued = "this clock returns fired timers from advance (delivery \"response\"); create a"
                    + " clock with delivery \"queue\" to claim deliveries";
            refusal(() -> deliveries().claim(clock, 1, 1_000, 0), missing, ErrorCode.CLOCK_NOT_QUEUED, notQueued);
            refusal(() -> deliveries().ack(clock, "a", "not a token"), missing, ErrorCode.CLOCK_NOT_QUEUED,
                    notQueued);
            refusal(() -> deliveries().dead(clock, 10, 0), missing, ErrorCode.CLOCK_NOT_QUEUED, notQueued);
            refusal(() -> deliveries().redrive(clock, "a", null), missing, ErrorCode.CLOCK_NOT_QUEUED, notQueued);
            refusal(() -> deliveries().counts(clock), missing, ErrorCode.CLOCK_NOT_QUEUED, notQueued);
            refusal(() -> deliveries().ackAll(clock, List.of(new Ack("a", "c"))), missing,
                    ErrorCode.CLOCK_NOT_QUEUED, notQueued);
            refusal(() -> deliveries().nack(clock, "a", "c", null), missing, ErrorCode.CLOCK_NOT_QUEUED, notQueued);
            refusal(() -> deliveries().extend(clock, "a", "c", 1_000), missing, ErrorCode.CLOCK_NOT_QUEUED,
                    notQueued);
            refusal(() -> deliveries().deleteDead(clock, "a", null), missing, ErrorCode.CLOCK_NOT_QUEUED,
                    notQueued);
        }
    }

    @Test
    void aClaimsInput_isCheckedMaxFirst_thenTheLease_thenTheWait_andARefusalChangesNothing() {
        fired(5, "a");
        Delivery claimed = deliveries().claim(Q, 1, 1_000, 0).get(0);
        timers().add(Q, "b", 0, 0, null, Trace.NONE);
        advance(0);
        DeliveryCounts before = deliveries().counts(Q);
        String max = "max must be 1 to " + Limits.MAX_CLAIM + ": ";
        String lease = "lease must be " + Limits.MIN_LEASE_MILLIS + " to " + Limits.MAX_LEASE_MILLIS + " ms: ";
        String wait = "wait must be 0 to " + Limits.MAX_CLAIM_WAIT_MILLIS + " ms: ";

        assertRefused(() -> deliveries().claim(Q, 0, 1_000, -1), ErrorCode.INVALID_LIMIT, max + 0);
        assertRefused(() -> deliveries().claim(Q, Limits.MAX_CLAIM + 1, Limits.MIN_LEASE_MILLIS - 1,
                Limits.MAX_CLAIM_WAIT_MILLIS + 1), ErrorCode.INVALID_LIMIT, max + (Limits.MAX_CLAIM + 1));
        assertRefused(() -> deliveries().claim(Q, 1, Limits.MIN_LEASE_MILLIS - 1, -1), ErrorCode.INVALID_REQUEST,
                lease + (Limits.MIN_LEASE_MILLIS - 1));
        assertRefused(() -> deliveries().claim(Q, 1, Limits.MAX_LEASE_MILLIS + 1, 0), ErrorCode.INVALID_REQUEST,
                lease + (Limits.MAX_LEASE_MILLIS + 1));
        assertRefused(() -> deliveries().claim(Q, 1, 1_000, Limits.MAX_CLAIM_WAIT_MILLIS + 1),
                ErrorCode.INVALID_REQUEST, wait + (Limits.MAX_CLAIM_WAIT_MILLIS + 1));
        assertRefused(() -> deliveries().extend(Q, "a", claimed.claim(), Limits.MAX_LEASE_MILLIS + 1),
                ErrorCode.INVALID_REQUEST, lease + (Limits.MAX_LEASE_MILLIS + 1));
        assertRefused(() -> deliveries().nack(Q, "a", claimed.claim(), RetryPolicy.MAX_BACKOFF_MILLIS + 1),
                ErrorCode.INVALID_REQUEST, "retryAfter must be 0 to " + RetryPolicy.MAX_BACKOFF_MILLIS + " ms: "
                        + (RetryPolicy.MAX_BACKOFF_MILLIS + 1));

        assertThat(deliveries().counts(Q)).isEqualTo(before);
        assertThat(deliveries().claim(Q, 1, Limits.MAX_LEASE_MILLIS, Limits.MAX_CLAIM_WAIT_MILLIS))
                .extracting(Delivery::id).containsExactly("b");
        deliveries().ack(Q, "a", claimed.claim());
    }

    @Test
    void aLeaseThatEndsOnTheLastAttempt_sendsTheDeliveryToTheDeadLetters_withItsReason() {
        fired(5, "a");

        for (int attempt = 1; attempt <= 3; attempt++) {
            List<Delivery> claimed = deliveries().claim(Q, 10, 1_000, 0);
            assertThat(claimed).extracting(Delivery::id, Delivery::attempt).as("attempt %d", attempt)
                    .containsExactly(tuple("a", attempt));
            advance(1_000);   // the lease ends
            assertRefused(() -> deliveries().ack(Q, "a", claimed.get(0).claim()), ErrorCode.CLAIM_LOST,
                    LOST.formatted("a"));
            advance(800);     // the backoff: 400 ms, then 800 ms
        }

        assertThat(deliveries().claim(Q, 10, 1_000, 0)).isEmpty();
        assertThat(deliveries().counts(Q)).isEqualTo(new DeliveryCounts(0, 0, 0, 1, null, false));
        assertThat(deliveries().dead(Q, 10, 0)).extracting(Delivery::id, Delivery::attempt, Delivery::state,
                        Delivery::payload, Delivery::deadReason)
                .containsExactly(tuple("a", 3, Delivery.State.DEAD, "{\"id\":\"a\"}",
                        "lease expired on attempt 3 of 3"));
    }

    @Test
    void theDeliveriesOfTwoClocks_stayApart_eachRetriedByItsOwnPolicy() {
        clocks().create("once", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                new RetryPolicy(1, 400, 2.0, 3_000, 0.0)));
        fired(0, "same");
        timers().add("once", "same", 0, 0, null, Trace.NONE);
        timers().advance("once", 0L, null, 10, Trace.NONE);

        Delivery onQ = deliveries().claim(Q, 10, 1_000, 0).get(0);
        Delivery onOnce = deliveries().claim("once", 10, 1_000, 0).get(0);
        assertThat(deliveries().claim(Q, 10, 1_000, 0)).isEmpty();
        assertRefused(() -> deliveries().ack("once", "same", onQ.claim()), ErrorCode.CLAIM_LOST,
                LOST.formatted("same"));

        assertThat(deliveries().extend(Q, "same", onQ.claim(), 5_000).leaseUntil()).isEqualTo(6_000);
        Delivery waiting = deliveries().nack(Q, "same", onQ.claim(), 2_000L);
        assertThat(waiting).extracting(Delivery::state, Delivery::attempt, Delivery::retryAt)
                .containsExactly(Delivery.State.WAITING, 2, 3_000L);
        Delivery dead = deliveries().nack("once", "same", onOnce.claim(), null);
        assertThat(dead).extracting(Delivery::state, Delivery::deadReason)
                .containsExactly(Delivery.State.DEAD, "nacked on attempt 1 of 1");
        assertThat(deliveries().dead(Q, 10, 0)).isEmpty();
        assertThat(deliveries().dead("once", 10, 0)).extracting(Delivery::id).containsExactly("same");
        assertRefused(() -> deliveries().redrive(Q, "same", null), ErrorCode.DELIVERY_NOT_FOUND,
                "no dead delivery has id same");
        assertThat(deliveries().redrive("once", "same", null)).extracting(Delivery::state, Delivery::attempt)
                .containsExactly(tuple(Delivery.State.READY, 1));
        assertThat(deliveries().claim(Q, 10, 1_000, 0)).as("not before its retry time").isEmpty();
        advance(2_000);
        Delivery again = deliveries().claim(Q, 10, 1_000, 0).get(0);
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.claim()).isNotEqualTo(onQ.claim());
    }

    // ---- listings by state and bulk actions over dead letters (the operator console) ----

    @Test
    void list_showsEachStateWithItsTimes_filteredAndPaged_inSequenceOrder() {
        fired(5, "a1", "a2", "b1", "b2", "c1");
        List<Delivery> claimed = deliveries().claim(Q, 5, 1_000, 0);
        deliveries().reject(Q, "a1", claimed.get(0).claim(), "push target answered 410");
        deliveries().reject(Q, "b1", claimed.get(2).claim(), "bad payload");
        deliveries().nack(Q, "a2", claimed.get(1).claim(), 700L);
        deliveries().nack(Q, "c1", claimed.get(4).claim(), 0L);

        assertThat(deliveries().list(Q, DeliveryFilter.all(Delivery.State.READY), 10, 0))
                .extracting(Delivery::id, Delivery::attempt, Delivery::readyAt).containsExactly(tuple("c1", 2, 1_005L));
        assertThat(deliveries().list(Q, DeliveryFilter.all(Delivery.State.IN_FLIGHT), 10, 0))
                .extracting(Delivery::id, Delivery::attempt, Delivery::leaseUntil)
                .containsExactly(tuple("b2", 1, 2_005L));
        assertThat(deliveries().list(Q, DeliveryFilter.all(Delivery.State.WAITING), 10, 0))
                .extracting(Delivery::id, Delivery::attempt, Delivery::retryAt).containsExactly(tuple("a2", 2, 1_705L));
        List<Delivery> dead = deliveries().list(Q, DeliveryFilter.all(Delivery.State.DEAD), 10, 0);
        assertThat(dead).extracting(Delivery::id, Delivery::deadReason)
                .containsExactly(tuple("a1", "push target answered 410"), tuple("b1", "bad payload"));
        assertThat(dead).isEqualTo(deliveries().dead(Q, 10, 0));
        assertThat(deliveries().list(Q, DeliveryFilter.dead("a", null, null), 10, 0)).containsExactly(dead.get(0));
        assertThat(deliveries().list(Q, DeliveryFilter.dead(null, null, "410"), 10, 0)).containsExactly(dead.get(0));
        assertThat(deliveries().list(Q, DeliveryFilter.dead("b", null, "410"), 10, 0)).isEmpty();
        assertThat(deliveries().list(Q, DeliveryFilter.dead(null, 2, null), 10, 0)).isEmpty();
        assertThat(deliveries().count(Q, DeliveryFilter.all(Delivery.State.DEAD))).isEqualTo(2);
        assertThat(deliveries().count(Q, DeliveryFilter.dead(null, null, "410"))).isEqualTo(1);
        assertThat(deliveries().count(Q, new DeliveryFilter(Delivery.State.WAITING, "a", 2, null))).isEqualTo(1);
        assertThat(deliveries().count(Q, DeliveryFilter.all(Delivery.State.IN_FLIGHT))).isEqualTo(1);
        assertThat(deliveries().list(Q, new DeliveryFilter(Delivery.State.READY, "c", 2, null), 10, 0))
                .extracting(Delivery::id).containsExactly("c1");
        assertThat(deliveries().list(Q, DeliveryFilter.all(Delivery.State.DEAD), 1, 0)).containsExactly(dead.get(0));
        assertThat(deliveries().list(Q, DeliveryFilter.all(Delivery.State.DEAD), 1, dead.get(0).sequence()))
                .containsExactly(dead.get(1));

        assertRefused(() -> deliveries().list(Q, new DeliveryFilter(Delivery.State.READY, null, null, "x"), 10, 0),
                ErrorCode.INVALID_REQUEST, "reason filters dead deliveries only");
        assertRefused(() -> deliveries().list(Q, DeliveryFilter.dead(null, 0, null), 10, 0),
                ErrorCode.INVALID_REQUEST, "minAttempt must be at least 1, got 0");
        assertRefused(() -> deliveries().list(Q, DeliveryFilter.dead("x".repeat(129), null, null), 10, 0),
                ErrorCode.INVALID_REQUEST, "idPrefix must be at most 128 characters, got 129");
        assertRefused(() -> deliveries().list(Q, DeliveryFilter.all(Delivery.State.DEAD), 0, 0),
                ErrorCode.INVALID_LIMIT, "limit must be >= 1: 0");
        assertRefused(() -> deliveries().redriveAllDead(Q, DeliveryFilter.all(Delivery.State.READY)),
                ErrorCode.INVALID_REQUEST, "a bulk redrive or delete takes dead deliveries only");
    }

    @Test
    void deadSince_takesDeadLettersByTimeOfDeath_aNackAtItsTime_anEndedOrRejectedLeaseAtItsEnd() {
        clocks().create("deaths", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                new RetryPolicy(1, 400, 2.0, 3_000, 0.0)));
        timers().batch("deaths", List.of(new BatchOp.Add("n1", Due.after(0), 0, null),
                new BatchOp.Add("e1", Due.after(0), 0, null), new BatchOp.Add("r1", Due.after(0), 0, null)));
        timers().advance("deaths", 0L, null, Integer.MAX_VALUE, Trace.NONE);
        Delivery nacked = deliveries().claim("deaths", 1, 1_000, 0).get(0);
        deliveries().claim("deaths", 1, 1_000, 0);
        Delivery rejected = deliveries().claim("deaths", 1, 5_000, 0).get(0);
        timers().advance("deaths", 100L, null, Integer.MAX_VALUE, Trace.NONE);
        deliveries().nack("deaths", "n1", nacked.claim(), null);
        deliveries().reject("deaths", "r1", rejected.claim(), "push target answered 410");
        timers().advance("deaths", 1_900L, null, Integer.MAX_VALUE, Trace.NONE); // e1's lease ended at 1,000

        assertThat(deliveries().list("deaths", DeliveryFilter.all(Delivery.State.DEAD), 10, 0))
                .extracting(Delivery::id, Delivery::readyAt)
                .containsExactly(tuple("n1", 100L), tuple("e1", 1_000L), tuple("r1", 5_000L));
        assertThat(deliveries().list("deaths", DeliveryFilter.dead(null, null, null, 1_000L), 10, 0))
                .extracting(Delivery::id).containsExactly("e1", "r1");
        assertThat(deliveries().list("deaths", DeliveryFilter.dead(null, null, null, 1_001L), 10, 0))
                .extracting(Delivery::id).containsExactly("r1");
        assertThat(deliveries().count("deaths", DeliveryFilter.dead(null, null, null, 101L))).isEqualTo(2);
        assertThat(deliveries().count("deaths", DeliveryFilter.dead(null, null, null, 5_001L))).isZero();
        assertThat(deliveries().redriveAllDead("deaths", DeliveryFilter.dead(null, null, null, 1_000L)))
                .isEqualTo(new BulkOutcome(2, 2));
        assertThat(deliveries().list("deaths", DeliveryFilter.all(Delivery.State.DEAD), 10, 0))
                .extracting(Delivery::id).containsExactly("n1");
        assertThat(deliveries().list("deaths", DeliveryFilter.all(Delivery.State.READY), 10, 0))
                .extracting(Delivery::id, Delivery::readyAt).containsExactly(tuple("e1", 2_000L), tuple("r1", 2_000L));

        assertRefused(() -> deliveries().list("deaths", new DeliveryFilter(Delivery.State.READY, null, null, null, 5L),
                10, 0), ErrorCode.INVALID_REQUEST, "deadSince filters dead deliveries only");
        assertRefused(() -> deliveries().count("deaths", DeliveryFilter.dead(null, null, null, -1L)),
                ErrorCode.INVALID_REQUEST, "deadSince must be a clock time of at least 0, got -1");
    }

    /** {@code count} dead letters on the clock {@code clock} (one attempt each), ids {@code prefix0...}. */
    private void deadLetters(String clock, String prefix, int count) {
        for (int first = 0; first < count; first += Limits.MAX_BATCH_OPS) {
            List<BatchOp> adds = new ArrayList<>();
            for (int i = first; i < Math.min(count, first + Limits.MAX_BATCH_OPS); i++) {
                adds.add(new BatchOp.Add(prefix + i, Due.after(0), 0, "{\"n\":" + i + "}"));
            }
            timers().batch(clock, adds);
            timers().advance(clock, 0L, null, Integer.MAX_VALUE, Trace.NONE);
            while (!deliveries().claim(clock, Limits.MAX_CLAIM, 1_000, 0).isEmpty()) {
                // every ready one leased once
            }
            timers().advance(clock, 1_000L, null, Integer.MAX_VALUE, Trace.NONE); // the leases end: dead
        }
    }

    @Test
    void redriveAndDeleteAllDead_takeEveryMatchingDeadLetter_chunkByChunk_andAgainChangeNothing() {
        clocks().create("once", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                new RetryPolicy(1, 400, 2.0, 3_000, 0.0)));
        int matching = 2 * DeliveryRules.BULK_CHUNK + 300;   // three chunks
        deadLetters("once", "x", matching);
        deadLetters("once", "y", 40);
        assertThat(deliveries().counts("once").dead()).isEqualTo(matching + 40);
        assertThat(deliveries().count("once", DeliveryFilter.dead("x", null, null))).isEqualTo(matching);

        DeliveryStore.Chunk first = deliveries().redriveChunk("once", DeliveryFilter.dead("x", null, null), 0, 7);
        assertThat(first).extracting(DeliveryStore.Chunk::matched, DeliveryStore.Chunk::changed,
                DeliveryStore.Chunk::more).containsExactly(7, 7, true);
        assertThat(deliveries().redriveAllDead("once", DeliveryFilter.dead("x", 1, "lease expired")))
                .isEqualTo(new BulkOutcome(matching - 7, matching - 7));
        assertThat(deliveries().redriveAllDead("once", DeliveryFilter.dead("x", null, null)))
                .as("repeated: nothing left to redrive").isEqualTo(BulkOutcome.NONE);
        assertThat(deliveries().counts("once")).extracting(DeliveryCounts::ready, DeliveryCounts::dead)
                .containsExactly(matching, 40);
        assertThat(deliveries().list("once", DeliveryFilter.all(Delivery.State.READY), 2, 0))
                .extracting(Delivery::id, Delivery::attempt, Delivery::deadReason)
                .containsExactly(tuple("x0", 1, null), tuple("x1", 1, null));

        assertThat(deliveries().deleteAllDead("once", DeliveryFilter.dead(null, null, "nothing like it")))
                .isEqualTo(BulkOutcome.NONE);
        assertThat(deliveries().deleteAllDead("once", DeliveryFilter.dead(null, null, null)))
                .isEqualTo(new BulkOutcome(40, 40));
        assertThat(deliveries().deleteAllDead("once", DeliveryFilter.dead(null, null, null)))
                .isEqualTo(BulkOutcome.NONE);
        assertThat(deliveries().counts("once").total()).isEqualTo(matching);
    }

    // ---- long polls: a claim that waits ----

    @Test
    void aLongPoll_isAnsweredWhenADeliveryBecomesReady_beforeItsWaitEnds() throws Exception {
        timers().add(Q, "soon", 10, 0, null, Trace.NONE);
        long start = System.nanoTime();
        CompletableFuture<List<Delivery>> poll = CompletableFuture.supplyAsync(
                () -> deliveries().claim(Q, 1, 1_000, Limits.MAX_CLAIM_WAIT_MILLIS));

        advance(10);

        assertThat(poll.get(Limits.MAX_CLAIM_WAIT_MILLIS - 5_000, TimeUnit.MILLISECONDS)).extracting(Delivery::id)
                .containsExactly("soon");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered before its wait ended")
                .isLessThan(Duration.ofMillis(Limits.MAX_CLAIM_WAIT_MILLIS));
    }

    @Test
    void aLongPoll_answersEmpty_whenItsWaitEnds() {
        timers().add(Q, "later", 10, 0, null, Trace.NONE);
        long start = System.nanoTime();

        assertThat(deliveries().claim(Q, 1, 1_000, 300)).isEmpty();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited its 300 ms")
                .isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(deliveries().counts(Q).ready()).isZero();
    }

    private static void refusal(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, boolean missingClock,
                                ErrorCode code, String message) {
        if (missingClock) {
            assertRefused(call, ErrorCode.CLOCK_NOT_FOUND, "no clock is named nowhere");
        } else {
            assertRefused(call, code, message);
        }
    }

    @Test
    void theDeliveryLimit_holdsDueTimersPending_untilThereIsRoom() {
        reopen(Stores.Limits.ROOMY.withMaxDeliveries(2));
        clocks().create(Q, 1_000, QUEUE);
        for (String id : List.of("a", "b", "c")) {
            timers().add(Q, id, 5, 0, null, Trace.NONE);
        }

        var result = timers().advance(Q, 10L, null, Integer.MAX_VALUE, Trace.NONE);

        assertThat(result.now()).isEqualTo(1_005);
        assertThat(result.complete()).isFalse();
        assertThat(deliveries().counts(Q).ready()).isEqualTo(2);
        assertThat(timers().firstN(Q, 10).timers()).extracting(io.timeservice.model.Timer::id).containsExactly("c");
        Delivery a = deliveries().claim(Q, 1, 1_000, 0).get(0);
        deliveries().ack(Q, a.id(), a.claim());
        timers().advance(Q, 5L, null, Integer.MAX_VALUE, Trace.NONE);
        assertThat(deliveries().counts(Q).ready()).isEqualTo(2);
        assertThat(timers().status(Q).size()).isZero();
    }

    // ---- the random walk against the memory store as reference ----

    private static final int IDS = 8;
    /** Three attempts, backoffs of 400 ms doubling to 3 s, spread by ±50%. */
    private static final ClockSettings JITTERED = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.5));

    /**
     * Seeded random operations on a virtual queue clock with a jittered retry policy of three attempts, step by step
     * against a memory store: adds (ids from a small set, so an id is scheduled again after it fired and a pending
     * one is refused), advances by small steps and now and then long ones that end leases (some to a time, some
     * bounded), claims (random max and lease, sometimes out of range), acks with the right claim, a stale one, a
     * made-up one, text that is no token, or the right claim with another id, batch acks mixing these (a claim
     * named twice too), nacks with and without retryAfter, extends, dead-letter pages, redrives and deletions of
     * dead deliveries (by id, by sequence, of nothing dead). After every step: the outcome (answer, or refusal code
     * and text), the clock's status, the pending timers, the counts, the dead letters and every unacknowledged
     * delivery as the store holds it.
     *
     * <p>Deliveries are compared as the API shows them ({@code web.DeliveryJson}): the lease end only in flight,
     * the retry time only while waiting, the reason only when dead. Claim tokens differ by design (each store's are
     * numbered in the order handed out, and each store is sent its own token of a number). Sequences are compared
     * as they are: a retry's jitter is a hash of the sequence, and both stores start at 1 with one writer and a
     * capacity the run never reaches. Replay a failure with the seed in its name; the message names the step.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void randomDeliveryOperations_answerAsTheMemoryStoreDoes(long seed) {
        reopen(Stores.Limits.ROOMY.withCapacity(100_000, 10_000_000));
        try (Stores reference = MemoryContractStores.open(Stores.Limits.ROOMY.withCapacity(100_000, 10_000_000))) {
            reference.clocks().create(Q, 1_000, JITTERED);
            clocks().create(Q, 1_000, JITTERED);
            new Walk(new Random(seed), new Side(reference), new Side(stores())).steps("seed " + seed);
        }
    }

    /** One store as the walk drives it, with the claim tokens it handed out, numbered in order. */
    private static final ClockSettings PUSH = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.PUSH, RetryPolicy.DEFAULT, null,
            new PushTarget("http://127.0.0.1:9/old", 1_000, 4, Map.of(), List.of("old-secret")));

    /**
     * Issue 41 item 10 at the port: a clock deleted and created again under its name is another incarnation; a claim
     * naming the one before is refused and claims nothing, so the new clock's deliveries are never sent with the
     * settings read of the old one.
     */
    @Test
    void aClaimNamingTheIncarnationBefore_isRefused_andTheNewClocksDeliveriesStay() {
        clocks().create("recycled", 0, PUSH);
        long before = clocks().get("recycled").incarnation();
        assertThat(clocks().get("recycled").incarnation()).as("the same clock, read again").isEqualTo(before);
        clocks().delete("recycled");
        clocks().create("recycled", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT, null, null));
        long after = clocks().get("recycled").incarnation();
        assertThat(after).isNotEqualTo(before);
        timers().add("recycled", "b", 0, 0, null, Trace.NONE);
        timers().advance("recycled", 0L, null, 100, Trace.NONE);

        assertRefused(() -> deliveries().claimOf("recycled", before, 10, 30_000), ErrorCode.CLOCK_NOT_FOUND,
                "the clock recycled was deleted and created again");
        assertThat(deliveries().counts("recycled").ready()).as("nothing was claimed").isEqualTo(1);
        assertThat(deliveries().claimOf("recycled", after, 10, 30_000)).extracting(Delivery::id).containsExactly("b");
    }

    @Test
    void aClockMadeAgainAsPush_withTheSameSettings_isStillAnotherIncarnation() {
        clocks().create("recycled", 0, PUSH);
        long first = clocks().get("recycled").incarnation();
        clocks().delete("recycled");
        clocks().create("recycled", 0, PUSH);
        clocks().create("other", 0, PUSH);

        assertThat(List.of(first, clocks().get("recycled").incarnation(), clocks().get("other").incarnation()))
                .doesNotHaveDuplicates();
        assertRefused(() -> deliveries().claimOf("recycled", first, 10, 30_000), ErrorCode.CLOCK_NOT_FOUND,
                "the clock recycled was deleted and created again");
    }

    private static final class Side {
        final Stores stores;
        final List<String> claims = new ArrayList<>();
        final Map<String, Integer> numbers = new HashMap<>();

        Side(Stores stores) {
            this.stores = stores;
        }

        String numbered(String claim) {
            if (claim == null) {
                return "-";
            }
            return "#" + numbers.computeIfAbsent(claim, token -> {
                claims.add(token);
                return claims.size() - 1;
            });
        }

        /** The delivery as the API shows it, its claim by number. */
        String shown(Delivery d) {
            String shown = d.id() + " fire=" + d.fireTime() + " prio=" + d.priority() + " seq=" + d.sequence()
                    + " payload=" + d.payload() + " attempt=" + d.attempt() + " ready=" + d.readyAt() + " " + d.state();
            return shown + switch (d.state()) {
                case IN_FLIGHT -> " claim=" + numbered(d.claim()) + " lease=" + d.leaseUntil();
                case WAITING -> " retry=" + d.retryAt();
                case DEAD -> " reason=" + d.deadReason();
                case READY -> "";
            };
        }

        List<String> shown(List<Delivery> deliveries) {
            return deliveries.stream().map(this::shown).toList();
        }
    }

    /** What a claim-bearing call names: a claim both stores handed out under one number, or text of the walk's. */
    private record ClaimChoice(int number, String text) {
        String on(Side side) {
            return number >= 0 ? side.claims.get(number) : text;
        }

        @Override
        public String toString() {
            return number >= 0 ? "claim #" + number : "claim " + text;
        }
    }

    private record Refused(String code, String message) {
    }

    private static final class Walk {
        private final Random random;
        private final Side memory;
        private final Side store;
        /** The id each claim number was handed out for (the same on both stores, or a step failed). */
        private final List<String> claimedIds = new ArrayList<>();
        private String what;

        Walk(Random random, Side memory, Side store) {
            this.random = random;
            this.memory = memory;
            this.store = store;
        }

        void steps(String seed) {
            for (int step = 0; step < 400; step++) {
                what = seed + " step " + step;
                switch (random.nextInt(20)) {
                    case 0, 1, 2, 3 -> add();
                    case 4, 5, 6 -> advance();
                    case 7, 8, 9 -> claim();
                    case 10, 11 -> ack();
                    case 12 -> ackAll();
                    case 13, 14 -> nack();
                    case 15 -> extend();
                    case 16 -> deadPage();
                    case 17, 18 -> redrive();
                    default -> deleteDead();
                }
                sameState();
            }
        }

        private void add() {
            String id = "t" + random.nextInt(IDS);
            long delay = random.nextInt(2_000);
            int priority = random.nextInt(3) - 1;
            String payload = random.nextBoolean() ? null : "{\"n\":" + random.nextInt(100) + "}";
            same("add " + id + " in " + delay, side -> side.stores.timers().add(Q, id, delay, priority, payload,
                    Trace.NONE));
        }

        private void advance() {
            long amount = random.nextInt(5) == 0 ? 1_000 + random.nextInt(3_000) : random.nextInt(800);
            boolean byGiven = random.nextBoolean();
            long now = memory.stores.timers().status(Q).now();
            Long by = byGiven ? amount : null;
            Long to = byGiven ? null : now + amount;
            int limit = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : Integer.MAX_VALUE;
            same("advance by " + by + " to " + to + " limit " + limit,
                    side -> side.stores.timers().advance(Q, by, to, limit, Trace.NONE));
        }

        private void claim() {
            int max = random.nextInt(12) == 0 ? 0 : 1 + random.nextInt(4);
            long lease = random.nextInt(12) == 0 ? Limits.MIN_LEASE_MILLIS - 1
                    : Limits.MIN_LEASE_MILLIS + random.nextInt(3_000);
            List<String> claimed = same("claim " + max + " for " + lease, side -> side.shown(
                    side.stores.deliveries().claim(Q, max, lease, 0)));
            if (claimed != null) {
                for (String shown : claimed) {
                    claimedIds.add(shown.substring(0, shown.indexOf(' ')));
                }
            }
        }

        private void ack() {
            ClaimChoice claim = claimChoice();
            String id = idFor(claim);
            same("ack " + id + " " + claim, side -> {
                side.stores.deliveries().ack(Q, id, claim.on(side));
                return "acked";
            });
        }

        private void ackAll() {
            int size = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(4);
            List<ClaimChoice> claims = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                boolean repeat = i > 0 && random.nextInt(4) == 0; // a claim named twice, with its id or another
                ClaimChoice claim = repeat ? claims.get(random.nextInt(i)) : claimChoice();
                claims.add(claim);
                ids.add(idFor(claim));
            }
            same("ackAll " + ids + " " + claims, side -> {
                List<Ack> acks = new ArrayList<>();
                for (int i = 0; i < claims.size(); i++) {
                    acks.add(new Ack(ids.get(i), claims.get(i).on(side)));
                }
                return side.stores.deliveries().ackAll(Q, acks);
            });
        }

        private void nack() {
            ClaimChoice claim = claimChoice();
            String id = idFor(claim);
            Long retryAfter = switch (random.nextInt(8)) {
                case 0, 1, 2, 3 -> null;
                case 4 -> 0L;
                case 5 -> random.nextInt(10) == 0 ? -1L : (long) random.nextInt(1_500);
                default -> (long) random.nextInt(1_500);
            };
            same("nack " + id + " " + claim + " retryAfter " + retryAfter,
                    side -> side.shown(side.stores.deliveries().nack(Q, id, claim.on(side), retryAfter)));
        }

        private void extend() {
            ClaimChoice claim = claimChoice();
            String id = idFor(claim);
            long lease = random.nextInt(12) == 0 ? Limits.MIN_LEASE_MILLIS - 1
                    : Limits.MIN_LEASE_MILLIS + random.nextInt(3_000);
            same("extend " + id + " " + claim + " for " + lease,
                    side -> side.shown(side.stores.deliveries().extend(Q, id, claim.on(side), lease)));
        }

        private void deadPage() {
            int limit = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(3);
            long after = random.nextBoolean() ? 0 : random.nextInt(40);
            same("dead " + limit + " after " + after,
                    side -> side.shown(side.stores.deliveries().dead(Q, limit, after)));
        }

        private void redrive() {
            String id = deadId();
            Long sequence = deadSequence(id);
            same("redrive " + id + " seq " + sequence,
                    side -> side.shown(side.stores.deliveries().redrive(Q, id, sequence)));
        }

        private void deleteDead() {
            String id = deadId();
            Long sequence = deadSequence(id);
            same("deleteDead " + id + " seq " + sequence, side -> {
                side.stores.deliveries().deleteDead(Q, id, sequence);
                return "deleted";
            });
        }

        /** Mostly a claim that holds a lease now, else any handed out (mostly stale), a made-up token or no token. */
        private ClaimChoice claimChoice() {
            int handedOut = memory.claims.size();
            int kind = random.nextInt(10);
            if (handedOut == 0 || kind == 0) {
                return new ClaimChoice(-1, UUID.nameUUIDFromBytes(Long.toString(random.nextLong()).getBytes())
                        .toString());
            }
            if (kind == 1) {
                return new ClaimChoice(-1, "not-a-claim");
            }
            if (kind <= 3) {
                return new ClaimChoice(random.nextInt(handedOut), null);
            }
            List<Integer> held = memory.stores.unacknowledged(Q).stream()
                    .filter(d -> d.state() == Delivery.State.IN_FLIGHT).map(d -> memory.numbers.get(d.claim()))
                    .toList();
            return new ClaimChoice(held.isEmpty() ? handedOut - 1 : held.get(random.nextInt(held.size())), null);
        }

        /** The id the claim was handed out for, now and then another one. */
        private String idFor(ClaimChoice claim) {
            if (claim.number() < 0 || random.nextInt(8) == 0) {
                return "t" + random.nextInt(IDS);
            }
            return claimedIds.get(claim.number());
        }

        /** The id of a dead delivery (read from the memory store), now and then any id. */
        private String deadId() {
            List<Delivery> dead = memory.stores.deliveries().dead(Q, 100, 0);
            if (dead.isEmpty() || random.nextInt(6) == 0) {
                return "t" + random.nextInt(IDS);
            }
            return dead.get(random.nextInt(dead.size())).id();
        }

        /** None (every dead delivery of the id), one of its dead sequences, or one no dead delivery has. */
        private Long deadSequence(String id) {
            int kind = random.nextInt(4);
            if (kind <= 1) {
                return null;
            }
            List<Long> sequences = memory.stores.deliveries().dead(Q, 100, 0).stream()
                    .filter(d -> d.id().equals(id)).map(Delivery::sequence).toList();
            if (kind == 3 || sequences.isEmpty()) {
                return 1_000L + random.nextInt(10);
            }
            return sequences.get(random.nextInt(sequences.size()));
        }

        /** Both stores answer alike, or refuse alike; returns the answer (null when refused). */
        @SuppressWarnings("unchecked")
        private <T> T same(String call, Function<Side, T> operation) {
            Object expected = outcome(memory, operation);
            Object actual = outcome(store, operation);
            assertThat(actual).as(what + " " + call).isEqualTo(expected);
            return expected instanceof Refused ? null : (T) expected;
        }

        /** The clock, the pending timers and every unacknowledged delivery are alike on both stores. */
        private void sameState() {
            same("status", side -> {
                QueueStatus status = side.stores.timers().status(Q);
                return "now=" + status.now() + " size=" + status.size() + " next=" + status.nextFireTime()
                        + " oldest=" + status.oldestCreatedAt();
            });
            same("pending timers", side -> side.stores.timers().firstN(Q, 100).timers());
            same("counts", side -> side.stores.deliveries().counts(Q));
            same("dead letters", side -> side.shown(side.stores.deliveries().dead(Q, 100, 0)));
            same("deliveries", side -> side.shown(side.stores.unacknowledged(Q)));
        }
    }

    private static Object outcome(Side side, Function<Side, ?> operation) {
        try {
            return operation.apply(side);
        } catch (ProblemException refused) {
            return new Refused(refused.code().name(), refused.getMessage());
        }
    }
}
