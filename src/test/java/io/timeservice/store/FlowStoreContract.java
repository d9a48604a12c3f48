package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.Precondition;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * The contract of flow control (issue 44) on every store that keeps keys, on a virtual queueing clock {@value #Q}:
 * a timer's {@code key} through add, batch, delivery, fork and snapshot, and its refusals.
 */
public abstract class FlowStoreContract extends FlowContractSupport {

    @Test
    void aKeyAtItsConcurrency_isHeldBack_andGetsItsSlotBack_byAckNackAndLeaseEnd() {
        flowClock("f", perKey(2, null, null));
        ready("f", "a", "a", 5);
        ready("f", "b", "b", 1);
        advance("f", 10);

        List<Delivery> first = deliveries().claim("f", 10, 1_000, 0);

        assertThat(first).extracting(Delivery::id).containsExactly("a0", "b0", "a1");
        assertThat(deliveries().counts("f").ready()).isEqualTo(3);
        assertThat(claimIds("f", 10)).isEmpty();
        deliveries().ack("f", "a0", first.get(0).claim());
        assertThat(claimIds("f", 10)).containsExactly("a2");
        deliveries().nack("f", "a1", first.get(2).claim(), 0L);
        assertThat(claimIds("f", 10)).containsExactly("a1"); // nacked, ready again first of its key
        advance("f", 1_000); // every lease ends: a1, a2 wait for their retry
        assertThat(claimIds("f", 10)).containsExactly("a3", "a4");
    }

    @Test
    void readyDeliveries_areListedAndCounted_heldBackOnesToo() {
        flowClock("f", perKey(1, null, null));
        ready("f", "a", "a", 3);
        ready("f", "b", "b", 1);
        advance("f", 10);
        assertThat(claimIds("f", 1)).containsExactly("a0"); // a1 and a2 are held back now

        assertThat(deliveries().list("f", DeliveryFilter.all(Delivery.State.READY), 10, Long.MIN_VALUE))
                .extracting(Delivery::id, Delivery::key)
                .containsExactly(tuple("a1", "a"), tuple("a2", "a"), tuple("b0", "b"));
        assertThat(deliveries().count("f", DeliveryFilter.all(Delivery.State.READY))).isEqualTo(3);
        assertThat(deliveries().list("f", DeliveryFilter.all(Delivery.State.IN_FLIGHT), 10, Long.MIN_VALUE))
                .extracting(Delivery::id).containsExactly("a0");
    }

    @Test
    void aRate_isSteppedExactly_onAVirtualClock() {
        flowClock("f", perKey(null, new FlowRate(2, 1_000), null)); // a token every 500 ms, a bucket of 2
        ready("f", "a", "a", 10);
        advance("f", 10);

        assertThat(claimIds("f", 10)).containsExactly("a0", "a1");
        advance("f", 499);
        assertThat(claimIds("f", 10)).isEmpty();
        advance("f", 1);
        assertThat(claimIds("f", 10)).containsExactly("a2");
        advance("f", 250);
        assertThat(claimIds("f", 10)).isEmpty();
        advance("f", 250);
        assertThat(claimIds("f", 10)).containsExactly("a3");
        advance("f", 10_000); // the bucket holds 2 at most
        assertThat(claimIds("f", 10)).containsExactly("a4", "a5");
    }

    @Test
    void aBurst_sizesTheBucket() {
        flowClock("f", perKey(null, new FlowRate(1, 100), 3));
        ready("f", "a", "a", 10);
        advance("f", 10);

        assertThat(claimIds("f", 10)).hasSize(3);
        advance("f", 150);
        assertThat(claimIds("f", 10)).hasSize(1);
        advance("f", 50);
        assertThat(claimIds("f", 10)).hasSize(1);
    }

    @Test
    void aKeyWithMuchReady_doesNotDelayAKeyWithOne() {
        flowClock("f", perKey(1_000, null, null));
        ready("f", "hot", "h", 500);
        timers().add("f", "cold", Due.at(20), 0, null, null, "cold", Trace.NONE);
        advance("f", 20);

        assertThat(claimIds("f", 2)).containsExactly("h0", "cold");
        assertThat(claimIds("f", 3)).containsExactly("h1", "h2", "h3");
    }

    @Test
    void theClocksConcurrencyAndRate_boundEveryKeyTogether() {
        flowClock("c", new FlowLimits(null, null, null, 3, null));
        ready("c", "a", "a", 3);
        ready("c", "b", "b", 3);
        advance("c", 10);
        List<Delivery> claimed = deliveries().claim("c", 10, 1_000, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("a0", "b0", "a1");
        deliveries().ack("c", "b0", claimed.get(1).claim());
        assertThat(claimIds("c", 10)).containsExactly("b1");

        flowClock("r", new FlowLimits(null, null, null, null, new FlowRate(1, 100)));
        ready("r", "a", "a", 3);
        ready("r", "b", "b", 3);
        advance("r", 10);
        assertThat(claimIds("r", 10)).containsExactly("a0");
        advance("r", 100);
        assertThat(claimIds("r", 10)).containsExactly("b0");
    }

    @Test
    void timersWithoutAKey_shareTheEmptyKey() {
        flowClock("f", perKey(1, null, null));
        ready("f", null, "n", 2);
        ready("f", "a", "a", 1);
        advance("f", 10);

        assertThat(claimIds("f", 10)).containsExactly("n0", "a0");
    }

    @Test
    void flowLimitsOutOfRange_areRefused_andNoClockIsMade() {
        ClockSettings queue = QUEUE;
        assertRefused(() -> clocks().create("x", 0, queue.withFlow(perKey(0, null, null))), ErrorCode.INVALID_REQUEST,
                "flow.concurrency must be between 1 and 1000000, got 0");
        assertRefused(() -> clocks().create("x", 0, queue.withFlow(perKey(null, new FlowRate(1, 0), null))),
                ErrorCode.INVALID_REQUEST, "flow.rate.period must be between 1 and 86400000, got 0");
        assertRefused(() -> clocks().create("x", 0, queue.withFlow(perKey(null, null, 5))), ErrorCode.INVALID_REQUEST,
                "flow.burst is the size of each key's rate bucket: it needs flow.rate");
        assertRefused(() -> clocks().create("x", 0, queue.withFlow(new FlowLimits(null, null, null, null,
                new FlowRate(2_000_000, 1)))), ErrorCode.INVALID_REQUEST,
                "clockRate.limit must be between 1 and 1000000, got 2000000");
        assertRefused(() -> clocks().create("x", 0, ClockSettings.VIRTUAL.withFlow(perKey(1, null, null))),
                ErrorCode.INVALID_REQUEST, "flow, clockConcurrency and clockRate are for a clock whose fired timers"
                        + " are deliveries: delivery \"queue\" or \"push\"");
        assertThat(clocks().list(100, null)).extracting(c -> c.name()).doesNotContain("x");
    }

    @Test
    void aTimersKey_isKept_andShownByItsDelivery() {
        assertThat(add(Q, "a", 10, "tenant-1").key()).isEqualTo("tenant-1");
        assertThat(add(Q, "b", 10, null).key()).isNull();
        assertThat(timers().get(Q, "a").key()).isEqualTo("tenant-1");
        List<Timer> batch = timers().batch(Q, List.of(BatchOp.Add.keyed("c", Due.after(10), 0, "[1]", "partner:acme"),
                new BatchOp.Add("d", Due.after(10), 0, null)));
        assertThat(batch).extracting(Timer::key).containsExactly("partner:acme", null);
        assertThat(timers().edit(Q, "a", Due.after(5), null, Precondition.NONE, Trace.NONE).key())
                .isEqualTo("tenant-1");
        assertThat(timers().get(Q, "a").key()).isEqualTo("tenant-1");

        advance(Q, 10);

        assertThat(deliveries().claim(Q, 10, 1_000, 0)).extracting(Delivery::id, Delivery::key)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "tenant-1"),
                        org.assertj.core.groups.Tuple.tuple("b", null),
                        org.assertj.core.groups.Tuple.tuple("c", "partner:acme"),
                        org.assertj.core.groups.Tuple.tuple("d", null));
    }

    @Test
    void aKeyBreakingTheIdRules_isRefused_andNothingChanges() {
        assertRefused(() -> add(Q, "a", 10, ""), ErrorCode.INVALID_REQUEST, "key must be 1 to 128 characters long,"
                + " got 0");
        assertRefused(() -> add(Q, "a", 10, "x".repeat(129)), ErrorCode.INVALID_REQUEST,
                "key must be 1 to 128 characters long, got 129");
        assertRefused(() -> add(Q, "a", 10, "a b"), ErrorCode.INVALID_REQUEST,
                "key may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertRefused(() -> timers().batch(Q, List.of(BatchOp.Add.keyed("b", Due.after(1), 0, null, "ok"),
                        BatchOp.Add.keyed("c", Due.after(1), 0, null, ".."))), ErrorCode.INVALID_REQUEST,
                "operation 1: key may not be \"..\": a URL path segment cannot carry it as itself");
        assertThat(timers().status(Q).size()).isZero();
    }

    @Test
    void aFork_andASnapshot_keepTheKeys_ofTimersAndDeliveries() {
        add(Q, "a", 10, "tenant-1");
        add(Q, "b", 20, "tenant-2");
        advance(Q, 10);

        clocks().copy("fork", Q);
        ClockSnapshot saved = clocks().snapshot(Q);
        clocks().load("loaded", saved);

        for (String clock : List.of(Q, "fork", "loaded")) {
            assertThat(timers().get(clock, "b").key()).as(clock).isEqualTo("tenant-2");
            assertThat(deliveries().claim(clock, 1, 1_000, 0)).as(clock).extracting(Delivery::key)
                    .containsExactly("tenant-1");
        }
        assertThat(saved.timers()).extracting(Timer::key).containsExactly("tenant-2");
        assertThat(saved.deliveries()).extracting(Delivery::key).containsExactly("tenant-1");
    }

    /** The clock of the model walk: per key a concurrency of 2 and 3 tokens a second in a bucket of 4; 6 and 10. */
    private static final FlowLimits WALK = new FlowLimits(2, new FlowRate(3, 1_000), 4, 6, new FlowRate(10, 1_000));
    /** Backoff 0: a delivery whose lease ends is ready again at once, at its lease's end. */
    private static final RetryPolicy NO_BACKOFF = new RetryPolicy(RetryPolicy.MAX_ATTEMPTS, 0, 1.0, 0, 0.0);

    /**
     * Seeded random adds, advances, claims, acks and nacks on a flow clock, checked after every claim against a
     * simple reference of the ready deliveries, slots and buckets: every claimed delivery is the next of its key,
     * within its key's concurrency and tokens and the clock's; a claim stops short only when no key could give more;
     * one claim's turns differ by at most one between keys that still could; the counts agree after every step.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3})
    void aSeededWalk_keepsEveryLimitAndTheRoundRobin_asTheReferenceSays(long seed) {
        clocks().create("walk", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                NO_BACKOFF).withFlow(WALK));
        Reference ref = new Reference(WALK);
        java.util.Random random = new java.util.Random(seed);
        for (int step = 0; step < 400; step++) {
            String at = "seed " + seed + " step " + step;
            int action = random.nextInt(10);
            if (action < 3) {
                String key = random.nextInt(5) == 0 ? null : "k" + random.nextInt(4);
                long delay = random.nextInt(1_200);
                String id = "t" + step;
                timers().add("walk", id, Due.after(delay), 0, null, null, key, Trace.NONE);
                ref.add(id, key, delay);
            } else if (action < 5) {
                long by = random.nextInt(800);
                advance("walk", by);
                ref.now += by;
            } else if (action < 8) {
                int max = 1 + random.nextInt(6);
                long lease = 1_000 + random.nextInt(1_800);
                List<Delivery> claimed = deliveries().claim("walk", max, lease, 0);
                ref.claimed(claimed, max, lease, at);
            } else {
                Reference.Item item = ref.anyInFlight(random);
                if (item != null && action == 8) {
                    deliveries().ack("walk", item.id, item.claim);
                    ref.acked(item);
                } else if (item != null) {
                    deliveries().nack("walk", item.id, item.claim, 0L);
                    ref.nacked(item);
                }
            }
            ref.settle();
            assertThat(deliveries().counts("walk").ready()).as(at + " ready").isEqualTo(ref.ready().size());
            assertThat(deliveries().counts("walk").inFlight()).as(at + " in flight").isEqualTo(ref.inFlight());
        }
        assertThat(ref.claims).as("the walk claims").isGreaterThan(100);
        assertThat(ref.heldBack).as("the walk holds deliveries back").isGreaterThan(10);
    }

    /** What the walk's clock holds, kept by the rules alone. */
    private static final class Reference {
        enum State { PENDING, READY, IN_FLIGHT }

        static final class Item {
            final String id;
            final String key;
            final long order;
            final long fireTime;
            State state = State.PENDING;
            long readyAt;
            long leaseUntil;
            String claim;

            Item(String id, String key, long order, long fireTime) {
                this.id = id;
                this.key = key == null ? "" : key;
                this.order = order;
                this.fireTime = fireTime;
            }
        }

        /** A bucket in exact rational arithmetic: {@code units / period} tokens at {@code at}. */
        static final class Bucket {
            final long limit;
            final long period;
            final long most;
            long units;
            long at;

            Bucket(FlowRate rate, long burst) {
                limit = rate.limit();
                period = rate.periodMillis();
                most = burst * period;
                units = most;
            }

            long tokens(long now) {
                return Math.min(most, units + (now - at) * limit) / period;
            }

            void take(long now) {
                units = Math.min(most, units + (now - at) * limit) - period;
                at = now;
            }
        }

        final FlowLimits limits;
        final Map<String, Item> items = new java.util.LinkedHashMap<>();
        final Map<String, Bucket> buckets = new HashMap<>();
        final Bucket clockBucket;
        long now;
        long order;
        int claims;
        int heldBack;

        Reference(FlowLimits limits) {
            this.limits = limits;
            this.clockBucket = new Bucket(limits.clockRate(), limits.clockRate().limit());
        }

        void add(String id, String key, long delay) {
            items.put(id, new Item(id, key, order++, now + delay));
        }

        /** Fires what is due and ends the leases that ended, as the store does on its next look. */
        void settle() {
            for (Item item : items.values()) {
                if (item.state == State.PENDING && item.fireTime <= now) {
                    item.state = State.READY;
                    item.readyAt = item.fireTime;
                } else if (item.state == State.IN_FLIGHT && item.leaseUntil <= now) {
                    item.state = State.READY;
                    item.readyAt = item.leaseUntil;
                    item.claim = null;
                }
            }
        }

        List<Item> ready() {
            return items.values().stream().filter(i -> i.state == State.READY).toList();
        }

        int inFlight() {
            return (int) items.values().stream().filter(i -> i.state == State.IN_FLIGHT).count();
        }

        int inFlight(String key) {
            return (int) items.values().stream().filter(i -> i.state == State.IN_FLIGHT && i.key.equals(key)).count();
        }

        /** The key's ready items in the ready order: readyAt, fireTime, priority (all 0), sequence. */
        List<Item> readyOf(String key) {
            return ready().stream().filter(i -> i.key.equals(key)).sorted(java.util.Comparator
                    .<Item>comparingLong(i -> i.readyAt).thenComparingLong(i -> i.fireTime)
                    .thenComparingLong(i -> i.order)).toList();
        }

        Bucket bucket(String key) {
            return buckets.computeIfAbsent(key, k -> {
                Bucket b = new Bucket(limits.rate(), limits.burstOf(key));
                b.at = now;
                return b;
            });
        }

        long available(String key) {
            long room = Math.min(readyOf(key).size(), limits.concurrency() - inFlight(key));
            return Math.max(0, Math.min(room, bucket(key).tokens(now)));
        }

        long clockRoom() {
            return Math.max(0, Math.min(limits.clockConcurrency() - inFlight(), clockBucket.tokens(now)));
        }

        void claimed(List<Delivery> claimed, int max, long lease, String at) {
            settle();
            Map<String, Integer> taken = new HashMap<>();
            for (Delivery d : claimed) {
                Item item = items.get(d.id());
                assertThat(item).as(at + " claims a known delivery " + d.id()).isNotNull();
                assertThat(d.key() == null ? "" : d.key()).as(at).isEqualTo(item.key);
                assertThat(readyOf(item.key)).as(at + " " + d.id() + " is the next of its key").first()
                        .isSameAs(item);
                assertThat(inFlight(item.key)).as(at + " key concurrency").isLessThan(limits.concurrency());
                assertThat(bucket(item.key).tokens(now)).as(at + " key tokens").isPositive();
                assertThat(clockRoom()).as(at + " clock room").isPositive();
                bucket(item.key).take(now);
                clockBucket.take(now);
                item.state = State.IN_FLIGHT;
                item.leaseUntil = now + lease;
                item.claim = d.claim();
                taken.merge(item.key, 1, Integer::sum);
                claims++;
            }
            java.util.Set<String> keys = new java.util.TreeSet<>();
            ready().forEach(i -> keys.add(i.key));
            heldBack += ready().size();
            if (claimed.size() < max && clockRoom() > 0) {
                for (String key : keys) {
                    assertThat(available(key)).as(at + " key " + key + " could give more").isZero();
                }
            }
            int most = taken.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            for (String key : keys) {
                if (available(key) > 0) {
                    assertThat(taken.getOrDefault(key, 0)).as(at + " the turns of key " + key)
                            .isGreaterThanOrEqualTo(most - 1);
                }
            }
        }

        Item anyInFlight(java.util.Random random) {
            List<Item> inFlight = items.values().stream()
                    .filter(i -> i.state == State.IN_FLIGHT && i.leaseUntil > now).toList();
            return inFlight.isEmpty() ? null : inFlight.get(random.nextInt(inFlight.size()));
        }

        void acked(Item item) {
            items.remove(item.id);
        }

        void nacked(Item item) {
            item.state = State.READY;
            item.readyAt = now;
            item.claim = null;
        }
    }
}
