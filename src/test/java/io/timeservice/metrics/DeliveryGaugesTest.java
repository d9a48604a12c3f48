package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.time.FiringLoop;
import org.junit.jupiter.api.Test;

/**
 * The delivery gauges over a system clock and a queueing virtual clock, on a fake wall clock and a firing loop whose
 * rounds the test runs itself (its thread never starts): totals by state, the oldest ready age of system clocks only,
 * clocks held back by the delivery limit, the limit, and the firing thread's lag.
 */
class DeliveryGaugesTest {

    private static final long START = 1_700_000_000_000L;
    private static final ClockSettings ONE_ATTEMPT = ClockSettings.of(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(1, 1_000, 2.0, 60_000, 0));

    private final AtomicLong wall = new AtomicLong(START);
    private final PendingBudget budget = new PendingBudget(100, Long.MAX_VALUE);
    private final ClockRegistry clocks = new ClockRegistry((clock, shared) -> new MemoryClock(clock, 4, shared,
            wall::get, StoreMetrics.NONE), budget, 10, wall::get);
    private final FiringLoop firing = new FiringLoop(wall::get, 1_000, 100);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    DeliveryGaugesTest() {
        budget.limitDeliveries(10);
        clocks.fireWith(firing);
        new DeliveryGauges(clocks, firing, wall::get).bindTo(registry);
    }

    @Test
    void flowGauges_countTheReadyDeliveriesHeldBack_andTheirKeys_andTokensDeniedAreCounted() {
        java.util.concurrent.atomic.AtomicInteger denied = new java.util.concurrent.atomic.AtomicInteger();
        StoreMetrics counting = new StoreMetrics() {
            @Override
            public void flowTokensDenied(int count) {
                denied.addAndGet(count);
            }
        };
        ClockRegistry flowClocks = new ClockRegistry((clock, shared) -> new MemoryClock(clock, 4, shared, wall::get,
                counting), budget, 10, wall::get);
        SimpleMeterRegistry flowRegistry = new SimpleMeterRegistry();
        new DeliveryGauges(flowClocks, firing, wall::get).bindTo(flowRegistry);
        MemoryClock flow = flowClocks.create("flow", 0, ONE_ATTEMPT.withFlow(new io.timeservice.model.FlowLimits(1,
                new io.timeservice.model.FlowRate(1, 1_000), 5, null, null))).clock().scheduler();
        for (String id : List.of("a0", "a1", "a2")) {
            flow.add(id, io.timeservice.model.Due.after(10), 0, null, null, "a", Trace.NONE);
        }
        flow.add("b0", io.timeservice.model.Due.after(10), 0, null, null, "b", Trace.NONE);
        flow.advance(10, Trace.NONE);

        List<Delivery> claimed = flow.claim(10, 1_000, 0);

        assertThat(claimed).extracting(Delivery::id).containsExactly("a0", "b0");
        assertThat(flowRegistry.get("timer.flow.held.back").gauge().value()).isEqualTo(2.0);
        assertThat(flowRegistry.get("timer.flow.keys.at.limit").gauge().value()).isEqualTo(1.0);
        flow.ack("a0", claimed.get(0).claim());
        assertThat(flowRegistry.get("timer.flow.held.back").gauge().value()).as("a may give again").isZero();
        assertThat(flow.claim(10, 1_000, 0)).extracting(Delivery::id).containsExactly("a1");
        assertThat(denied).as("a's bucket of 5 had tokens for each").hasValue(0);
        flowClocks.create("tight", 0, ONE_ATTEMPT.withFlow(new io.timeservice.model.FlowLimits(null,
                new io.timeservice.model.FlowRate(1, 1_000), null, null, null))).clock().scheduler();
        MemoryClock tight = flowClocks.scheduler("tight");
        tight.add("t0", io.timeservice.model.Due.after(1), 0, null, null, "t", Trace.NONE);
        tight.add("t1", io.timeservice.model.Due.after(1), 0, null, null, "t", Trace.NONE);
        tight.advance(1, Trace.NONE);
        assertThat(tight.claim(10, 1_000, 0)).hasSize(1);
        assertThat(tight.claim(10, 1_000, 0)).isEmpty();
        assertThat(denied).as("t was found without a token once; then it waits").hasValue(1);
        assertThat(flowRegistry.get("timer.flow.keys.at.limit").gauge().value())
                .as("a (a1 in flight at a concurrency of 1, a2 ready) and t (no token), over both clocks")
                .isEqualTo(2.0);
    }

    @Test
    void gauges_countEveryClocksDeliveriesByState_andAgeOnlySystemClocksReadyOnes() {
        MemoryClock system = clocks.create("real", 0, ClockSettings.SYSTEM).clock().scheduler();
        MemoryClock virtual = clocks.create("ci", 0, ONE_ATTEMPT).clock().scheduler();
        system.add("a", 500, 0, null, Trace.NONE);
        system.add("b", 1_000, 0, null, Trace.NONE);
        system.add("later", 60_000, 0, null, Trace.NONE);
        virtual.add("v1", 10, 0, null, Trace.NONE);
        virtual.add("v2", 10, 0, null, Trace.NONE);
        virtual.add("v3", 10, 0, null, Trace.NONE);
        assertThat(firing.fireDue()).as("the new clock's first round: nothing due yet").isZero();
        assertThat(states()).containsExactly(0.0, 0.0, 0.0, 0.0);
        assertThat(gauge("timer.delivery.oldest.ready.age")).isZero();
        assertThat(gauge("timer.firing.thread.lag")).isZero();

        wall.set(START + 2_000);
        assertThat(gauge("timer.firing.thread.lag")).as("a was due 1.5 s ago, not yet taken").isEqualTo(1.5);
        assertThat(firing.fireDue()).isEqualTo(2);
        virtual.advance(10, Trace.NONE);               // v1..v3 ready on virtual time
        List<Delivery> claimed = virtual.claim(2, 1_000, 0);
        virtual.nack(claimed.get(0).id(), claimed.get(0).claim(), null);   // its only attempt: dead
        wall.set(START + 3_500);

        assertThat(states()).as("ready, in_flight, waiting, dead").containsExactly(3.0, 1.0, 0.0, 1.0);
        assertThat(gauge("timer.delivery.oldest.ready.age")).as("a became ready at its fireTime; v3 is virtual")
                .isEqualTo(3.0);
        assertThat(gauge("timer.firing.thread.lag")).as("nothing due is left").isZero();
        assertThat(gauge("timer.delivery.held.back")).isZero();
        assertThat(gauge("timer.delivery.capacity")).isEqualTo(10);
        assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTags())
                .allSatisfy(tag -> assertThat(tag.getKey()).isEqualTo("state")));

        List<Delivery> both = system.claim(2, 1_000, 0);
        system.ack(both.get(0).id(), both.get(0).claim());
        assertThat(states()).containsExactly(1.0, 2.0, 0.0, 1.0);
        assertThat(gauge("timer.delivery.oldest.ready.age")).as("only v3 is ready, on a virtual clock").isZero();
    }

    @Test
    void heldBack_countsTheClocksThatCannotFire_whileTheDeliveriesHoldTheirLimit() {
        budget.limitDeliveries(4);
        MemoryClock system = clocks.create("real", 0, ClockSettings.SYSTEM).clock().scheduler();
        for (int i = 0; i < 6; i++) {
            system.add("t" + i, 0, 0, null, Trace.NONE);
        }

        assertThat(firing.fireDue()).as("only as many as the limit of 4").isEqualTo(4);

        assertThat(gauge("timer.delivery.held.back")).isEqualTo(1);
        assertThat(states()).containsExactly(4.0, 0.0, 0.0, 0.0);

        List<Delivery> claimed = system.claim(4, 1_000, 0);
        for (Delivery delivery : claimed) {
            system.ack(delivery.id(), delivery.claim());
        }
        wall.addAndGet(1_000);
        assertThat(firing.fireDue()).isEqualTo(2);
        assertThat(gauge("timer.delivery.held.back")).isZero();
        assertThat(states()).containsExactly(2.0, 0.0, 0.0, 0.0);
    }

    @Test
    void firingThreadAlive_followsTheThread() throws InterruptedException {
        assertThat(gauge("timer.firing.thread.alive")).isZero();
        firing.start();
        try {
            assertThat(gauge("timer.firing.thread.alive")).isEqualTo(1);
        } finally {
            firing.stop();
        }
        assertThat(gauge("timer.firing.thread.alive")).isZero();
    }

    @Test
    void gauges_keepReporting_whenNothingButTheRegistryHoldsTheBinder() {
        SimpleMeterRegistry alone = new SimpleMeterRegistry();
        new DeliveryGauges(clocks, firing, wall::get).bindTo(alone);

        System.gc(); // Micrometer holds a gauge's object weakly unless told otherwise: a collected one reads NaN

        assertThat(alone.get("timer.delivery.queue.depth").tag("state", "ready").gauge().value()).isZero();
        assertThat(alone.get("timer.delivery.oldest.ready.age").gauge().value()).isZero();
        assertThat(alone.get("timer.delivery.held.back").gauge().value()).isZero();
    }

    private List<Double> states() {
        return List.of("ready", "in_flight", "waiting", "dead").stream()
                .map(state -> registry.get("timer.delivery.queue.depth").tag("state", state).gauge().value())
                .toList();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }
}
