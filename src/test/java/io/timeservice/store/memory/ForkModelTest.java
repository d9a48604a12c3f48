package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fork ({@link Clocks#fork}) is the source as it stood: seeded random operations run on a clock, then it is
 * forked, then the same random operations run on the source and on the copy, and every answer (fired timers with
 * their sequences, claims, nacks, dead letters, refusals) and the state after each step must be the same in both.
 * Claim tokens differ by design: each side acks, nacks and extends with its own token of the same claim. To
 * replay a failure, run the case with the seed in its name; the message names the step.
 */
class ForkModelTest {

    /** Three attempts, jittered: retry times agree only when sequences do. */
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.5));

    private final Clocks clocks = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, () -> 0L,
            io.timeservice.store.SchedulerMetrics.NONE), new PendingBudget(100_000, 100_000_000), 10, () -> 0L);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void afterAFork_theSameOperations_fireAndDeliverAlikeOnSourceAndCopy(long seed) {
        TimerScheduler source = clocks.create("source", 100, QUEUE).clock().scheduler();
        Side before = new Side(source);
        Random warmUp = new Random(seed);
        for (int step = 0; step < 300; step++) {
            before.step(warmUp, step);
        }
        before.settleInFlight(); // an in-flight delivery is ready in the copy but leased in the source

        TimerScheduler copy = clocks.fork("copy", "source").clock().scheduler();

        Side original = new Side(source);
        Side forked = new Side(copy);
        assertSameState(original, forked, "seed " + seed + " right after the fork");
        long opsSeed = new Random(seed).nextLong();
        Random a = new Random(opsSeed);
        Random b = new Random(opsSeed);
        for (int step = 0; step < 600; step++) {
            String left = original.step(a, step);
            String right = forked.step(b, step);
            String where = "seed " + seed + " step " + step;
            assertThat(right).as(where).isEqualTo(left);
            assertSameState(original, forked, where);
        }
    }

    private static void assertSameState(Side original, Side forked, String where) {
        assertThat(forked.scheduler.firstN(10_000)).as(where + " timers").isEqualTo(original.scheduler.firstN(10_000));
        assertThat(forked.scheduler.status()).as(where + " status").isEqualTo(original.scheduler.status());
        assertThat(forked.scheduler.deliveryCounts()).as(where + " counts")
                .isEqualTo(original.scheduler.deliveryCounts());
        assertThat(withoutClaims(forked.scheduler.allDeliveries())).as(where + " deliveries")
                .isEqualTo(withoutClaims(original.scheduler.allDeliveries()));
    }

    /** Deliveries as the API shows them (a lease end only in flight, a retry time only waiting), tokens hidden. */
    private static List<Delivery> withoutClaims(List<Delivery> deliveries) {
        return deliveries.stream().map(d -> new Delivery(d.id(), d.fireTime(), d.priority(), d.sequence(),
                d.payload(), d.attempt(), d.state(), d.claim() == null ? null : "held",
                d.state() == Delivery.State.IN_FLIGHT ? d.leaseUntil() : 0,
                d.state() == Delivery.State.WAITING ? d.retryAt() : 0, d.readyAt(), d.deadReason())).toList();
    }

    /** One clock driven by random operations; answers are written without claim tokens, so both sides compare. */
    private static final class Side {
        final TimerScheduler scheduler;
        final List<Delivery> held = new ArrayList<>();

        Side(TimerScheduler scheduler) {
            this.scheduler = scheduler;
        }

        String step(Random random, int step) {
            int op = random.nextInt(100);
            String id = "t" + random.nextInt(12);
            try {
                if (op < 35) {
                    return "add " + scheduler.add(id, random.nextInt(3_000), random.nextInt(3) - 1,
                            "{\"s\":" + step + "}", Trace.NONE);
                } else if (op < 42) {
                    return "cancel " + scheduler.cancel(id, Precondition.NONE, Trace.NONE);
                } else if (op < 50) {
                    return "edit " + scheduler.edit(id, (long) random.nextInt(2_000), null, Precondition.NONE,
                            Trace.NONE);
                } else if (op < 65) {
                    return "advance " + scheduler.advance(null, scheduler.now() + random.nextInt(1_500),
                            1 + random.nextInt(4), Trace.NONE);
                } else if (op < 72) {
                    return "next " + scheduler.advanceToNext(1 + random.nextInt(4), Trace.NONE);
                } else if (op < 82) {
                    List<Delivery> claimed = scheduler.claim(1 + random.nextInt(3), 1_000 + random.nextInt(2_000), 0);
                    held.addAll(claimed);
                    return "claim " + withoutClaims(claimed);
                } else if (held.isEmpty()) {
                    return "nothing held";
                } else {
                    Delivery delivery = held.remove(random.nextInt(held.size()));
                    if (op < 92) {
                        scheduler.ack(delivery.id(), delivery.claim());
                        return "ack " + delivery.id();
                    }
                    Long retryAfter = random.nextBoolean() ? null : (long) random.nextInt(500);
                    return "nack " + withoutClaims(List.of(scheduler.nack(delivery.id(), delivery.claim(),
                            retryAfter)));
                }
            } catch (ProblemException refused) {
                return "refused " + refused.code();
            }
        }

        /** Acks every delivery this side holds, so none is in flight. */
        void settleInFlight() {
            for (Delivery delivery : held) {
                try {
                    scheduler.ack(delivery.id(), delivery.claim());
                } catch (ProblemException lost) {
                    assertThat(lost.code()).isEqualTo(ErrorCode.CLAIM_LOST); // its lease ended meanwhile
                }
            }
            held.clear();
            for (Delivery delivery : scheduler.allDeliveries()) {
                assertThat(delivery.state()).isNotEqualTo(Delivery.State.IN_FLIGHT);
            }
        }
    }

    @Test
    void aFork_makesInFlightDeliveriesReady_withTheirAttempt_andNoClaim_andLeavesTheSourceAlone() {
        TimerScheduler source = clocks.create("source", 0, QUEUE).clock().scheduler();
        source.add("a", 10, 0, "{\"p\":1}", Trace.NONE);
        source.add("b", 10, 1, null, Trace.NONE);
        source.add("later", 500, 0, null, Trace.NONE);
        source.advance(10, Trace.NONE);
        Delivery a = source.claim(1, 1_000, 0).get(0);
        source.advance(1_100, Trace.NONE);                       // a's lease ends: it waits, b is ready
        source.claim(1, 1_000, 0);                              // b in flight (a waits for its retry)

        Clocks.Created created = clocks.fork("copy", "source");
        TimerScheduler copy = created.clock().scheduler();

        assertThat(created.created()).isTrue();
        assertThat(copy.now()).isEqualTo(1_110);
        assertThat(copy.settings()).isEqualTo(QUEUE);
        assertThat(copy.firstN(10)).isEqualTo(source.firstN(10));
        assertThat(source.deliveryCounts().inFlight()).isEqualTo(1);
        assertThat(copy.deliveryCounts().inFlight()).isZero();
        List<Delivery> claimed = copy.claim(10, 1_000, 0);
        // b is ready from the fork's time on, so after "later", ready since its fireTime
        assertThat(claimed).extracting(Delivery::id, Delivery::attempt).containsExactly(
                org.assertj.core.groups.Tuple.tuple("later", 1), org.assertj.core.groups.Tuple.tuple("b", 1));
        assertThat(claimed.get(1).readyAt()).isEqualTo(1_110);
        assertThat(claimed.get(0).claim()).isNotEqualTo(a.claim());
        assertThat(clocks.budget().timers()).isEqualTo(6);      // 3 timers or deliveries in each clock
    }

    @Test
    void aFork_isRefused_forAMissingSource_anExistingName_andAtTheClockAndCapacityLimits() {
        Clocks small = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, () -> 0L,
                io.timeservice.store.SchedulerMetrics.NONE), new PendingBudget(5, 100_000), 3, () -> 0L);
        TimerScheduler source = small.create("s", 0, ClockSettings.VIRTUAL).clock().scheduler();
        source.add("x", 1, 0, null, Trace.NONE);
        source.add("y", 1, 0, null, Trace.NONE);
        source.add("z", 1, 0, null, Trace.NONE);

        assertRefused(() -> small.fork("c", "missing"), ErrorCode.CLOCK_NOT_FOUND);
        assertRefused(() -> small.fork("s", "default"), ErrorCode.CLOCK_CONFLICT);
        assertRefused(() -> small.fork("c", "s"), ErrorCode.CAPACITY_EXCEEDED); // 3 + 3 > 5: counts in full
        assertThat(small.budget().timers()).isEqualTo(3);
        assertThat(small.count()).isEqualTo(2);
        source.cancel("z", Precondition.NONE, Trace.NONE);
        small.fork("c", "s");
        assertThat(small.budget().timers()).isEqualTo(4);
        assertRefused(() -> small.fork("d", "default"), ErrorCode.CLOCK_LIMIT);
    }

    private static void assertRefused(Runnable call, ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }
}
