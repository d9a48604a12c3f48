package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * Claims, acks, nacks, extends, lease expiry, retries, dead letters and redrives of a queueing virtual clock against
 * a deliberately simple reference: a list scanned in full for every question. Seeded random runs; after every step
 * the two must hold exactly the same deliveries.
 */
class DeliveryModelTest {

    private static final RetryPolicy POLICY = new RetryPolicy(3, 20, 3.0, 100, 0.0);
    private static final ClockSettings SETTINGS = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, POLICY);

    @Test
    void randomRuns_matchTheReference() {
        for (long seed = 1; seed <= 40; seed++) {
            run(new Random(seed), 600);
        }
    }

    /** One delivery as the reference keeps it. */
    private static final class Ref {
        final Timer timer;
        State state = State.READY;
        int attempt = 1;
        String claim;
        long leaseUntil;
        long retryAt;
        long readyAt;

        Ref(Timer timer) {
            this.timer = timer;
            this.readyAt = timer.fireTime();
        }
    }

    private void run(Random random, int steps) {
        MemoryClock clock = new DeliveryTestClocks().create("m", SETTINGS);
        List<Ref> model = new ArrayList<>();
        List<String> staleClaims = new ArrayList<>();
        long now = 0;
        int next = 0;
        for (int step = 0; step < steps; step++) {
            int action = random.nextInt(9);
            if (action <= 1) {
                clock.add("t" + next++, random.nextInt(60), random.nextInt(3), null, Trace.NONE);
            } else if (action == 2 || action == 8) {
                long by = action == 2 ? random.nextInt(80) : 500 + random.nextInt(1_500); // the long one ends leases
                List<Timer> due = clock.dueBy(now + by, 10_000).timers();
                clock.advance(by, Trace.NONE);
                now += by;
                for (Timer timer : due) {
                    model.add(new Ref(timer));
                }
                settle(model, now);
            } else if (action <= 4) {
                int max = 1 + random.nextInt(4);
                long lease = 1_000 + random.nextInt(3) * 500L;
                List<Delivery> claimed = clock.claim(max, lease, 0);
                settle(model, now);
                List<Ref> expected = model.stream().filter(r -> r.state == State.READY)
                        .sorted(READY_ORDER).limit(max).toList();
                assertThat(claimed).extracting(Delivery::sequence)
                        .containsExactlyElementsOf(expected.stream().map(r -> r.timer.sequence()).toList());
                for (int i = 0; i < claimed.size(); i++) {
                    Ref ref = expected.get(i);
                    ref.state = State.IN_FLIGHT;
                    ref.claim = claimed.get(i).claim();
                    ref.leaseUntil = now + lease;
                }
            } else if (action <= 6) {
                List<Ref> inFlight = model.stream().filter(r -> r.state == State.IN_FLIGHT).toList();
                boolean stale = inFlight.isEmpty() || random.nextInt(5) == 0;
                if (stale && !staleClaims.isEmpty()) {
                    String claim = staleClaims.get(random.nextInt(staleClaims.size()));
                    Ref owner = model.stream().filter(r -> claim.equals(r.claim)).findFirst().orElse(null);
                    String id = owner == null ? "t0" : owner.timer.id();
                    try {
                        clock.nack(id, claim, 0L);
                        assertThat(owner).as("a stale claim was accepted").isNotNull();
                    } catch (ProblemException lost) {
                        assertThat(lost.code()).isEqualTo(ErrorCode.CLAIM_LOST);
                    }
                    continue;
                }
                if (inFlight.isEmpty()) {
                    continue;
                }
                Ref ref = inFlight.get(random.nextInt(inFlight.size()));
                if (ref.leaseUntil <= now) {
                    continue; // not settled yet by a call of the clock, but no longer a valid claim either
                }
                switch (random.nextInt(3)) {
                    case 0 -> {
                        clock.ack(ref.timer.id(), ref.claim);
                        staleClaims.add(ref.claim);
                        model.remove(ref);
                    }
                    case 1 -> {
                        Long retryAfter = random.nextBoolean() ? null : (long) random.nextInt(50);
                        clock.nack(ref.timer.id(), ref.claim, retryAfter);
                        staleClaims.add(ref.claim);
                        ref.claim = null;
                        if (ref.attempt >= POLICY.maxAttempts()) {
                            ref.state = State.DEAD;
                            ref.readyAt = now; // a dead one's readyAt is its time of death
                        } else {
                            ref.attempt++;
                            long retryAt = now + (retryAfter != null ? retryAfter : backoff(ref.attempt));
                            if (retryAt <= now) {
                                ref.state = State.READY;
                                ref.readyAt = now;
                            } else {
                                ref.state = State.WAITING;
                                ref.retryAt = retryAt;
                            }
                        }
                    }
                    default -> {
                        long lease = 1_000 + random.nextInt(1_000);
                        clock.extend(ref.timer.id(), ref.claim, lease);
                        ref.leaseUntil = now + lease;
                    }
                }
            } else if (action == 7) {
                List<Ref> dead = model.stream().filter(r -> r.state == State.DEAD).toList();
                if (!dead.isEmpty()) {
                    Ref ref = dead.get(random.nextInt(dead.size()));
                    if (random.nextBoolean()) {
                        clock.redrive(ref.timer.id(), ref.timer.sequence());
                        ref.state = State.READY;
                        ref.attempt = 1;
                        ref.readyAt = now;
                    } else {
                        clock.deleteDead(ref.timer.id(), ref.timer.sequence());
                        model.remove(ref);
                    }
                }
            }
            assertSame(clock, model, step);
        }
    }

    private static final Comparator<Ref> READY_ORDER = Comparator.<Ref>comparingLong(r -> r.readyAt)
            .thenComparingLong(r -> r.timer.fireTime()).thenComparingInt(r -> r.timer.priority())
            .thenComparingLong(r -> r.timer.sequence());

    /** The reference's settle: expired leases to waiting or dead, then due retries to ready. */
    private static void settle(List<Ref> model, long now) {
        for (Ref ref : model) {
            if (ref.state == State.IN_FLIGHT && ref.leaseUntil <= now) {
                ref.claim = null;
                if (ref.attempt >= POLICY.maxAttempts()) {
                    ref.state = State.DEAD;
                    ref.readyAt = ref.leaseUntil; // dead since its lease ended
                } else {
                    ref.attempt++;
                    ref.state = State.WAITING;
                    ref.retryAt = ref.leaseUntil + backoff(ref.attempt);
                }
            }
        }
        for (Ref ref : model) {
            if (ref.state == State.WAITING && ref.retryAt <= now) {
                ref.state = State.READY;
                ref.readyAt = ref.retryAt;
            }
        }
    }

    /** 20 ms, then three times as long each time, at most 100 ms. */
    private static long backoff(int nextAttempt) {
        long wait = 20;
        for (int i = 2; i < nextAttempt; i++) {
            wait *= 3;
        }
        return Math.min(wait, 100);
    }

    private static void assertSame(MemoryClock clock, List<Ref> model, int step) {
        List<Delivery> actual = clock.allDeliveries();
        List<Ref> expected = model.stream().sorted(Comparator.comparingLong(r -> r.timer.sequence())).toList();
        assertThat(actual).as("step %d", step).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            Ref ref = expected.get(i);
            Delivery d = actual.get(i);
            assertThat(d.sequence()).as("step %d", step).isEqualTo(ref.timer.sequence());
            assertThat(d.state()).as("step %d, %s", step, d).isEqualTo(ref.state);
            assertThat(d.attempt()).as("step %d, %s", step, d).isEqualTo(ref.attempt);
            if (ref.state == State.IN_FLIGHT) {
                assertThat(d.claim()).isEqualTo(ref.claim);
                assertThat(d.leaseUntil()).isEqualTo(ref.leaseUntil);
            }
            if (ref.state == State.WAITING) {
                assertThat(d.retryAt()).isEqualTo(ref.retryAt);
            }
            if (ref.state == State.READY || ref.state == State.DEAD) {
                assertThat(d.readyAt()).as("step %d, %s", step, d).isEqualTo(ref.readyAt);
            }
        }
    }
}
