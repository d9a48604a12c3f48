package io.timeservice.metrics;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.CorruptionHooks;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;

/** The queue gauges over several clocks, on a fake wall clock: totals, the largest age, any broken heap. */
class QueueGaugesTest {

    private final AtomicLong wall = new AtomicLong(10_000);
    private final ClockRegistry clocks = new ClockRegistry((clock, budget) -> new MemoryClock(clock, 4, budget,
            wall::get, StoreMetrics.NONE), new PendingBudget(100, Long.MAX_VALUE), 10, wall::get);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    QueueGaugesTest() {
        new QueueGauges(clocks, wall::get).bindTo(registry);
    }

    @Test
    void gauges_areTotalsAndMaximaOverEveryClock_withoutAClockLabel() {
        MemoryClock first = clocks.create("ci-1", 0).clock().scheduler();
        MemoryClock second = clocks.create("ci-2", 1_000).clock().scheduler();
        first.add("a", 100, 0, "{\"k\":1}", Trace.NONE);       // wall 10 s
        first.advance(50, Trace.NONE);                          // virtual age 50 ms
        wall.set(40_000);
        second.add("b", 100, 0, null, Trace.NONE);
        second.add("c", 100, 0, null, Trace.NONE);
        second.advance(20, Trace.NONE);                         // virtual age 20 ms
        clocks.defaultScheduler().add("d", 5, 0, null, Trace.NONE);
        wall.set(100_000);

        assertThat(clocksIn("virtual")).isEqualTo(3);
        assertThat(clocksIn("system")).isZero();
        assertThat(gauge("timer.queue.depth")).isEqualTo(4);
        assertThat(gauge("timer.queue.payload")).isEqualTo("a{\"k\":1}bcd".length());
        assertThat(gauge("timer.queue.oldest.age")).isEqualTo(90.0);          // a, on ci-1
        assertThat(gauge("timer.queue.oldest.age.virtual")).isEqualTo(0.050);  // a, on ci-1
        assertThat(gauge("timer.queue.invariants.ok")).isEqualTo(1);
        assertThat(gauge("timer.queue.serving")).isEqualTo(1);
        // no clock label: the clocks' count has one label, their mode, and the schedules' count one, their state
        assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTags())
                .extracting(io.micrometer.core.instrument.Tag::getKey)
                .isEqualTo(switch (meter.getId().getName()) {
                    case "timer.clocks" -> List.of("mode");
                    case "timer.schedules" -> List.of("state");
                    default -> List.of();
                }));

        clocks.delete("ci-1");
        assertThat(clocksIn("virtual")).isEqualTo(2);
        assertThat(gauge("timer.queue.depth")).isEqualTo(3);
        assertThat(gauge("timer.queue.oldest.age")).isEqualTo(60.0);          // b, on ci-2
        assertThat(gauge("timer.queue.oldest.age.virtual")).isEqualTo(0.020);
    }

    @Test
    void invariantsOk_isZero_whenAnyClocksHeapIsBroken() {
        MemoryClock broken = clocks.create("broken", 0).clock().scheduler();
        clocks.create("fine", 0).clock().scheduler().add("x", 5, 0, null, Trace.NONE);
        for (String id : new String[] {"a", "b", "c"}) {
            broken.add(id, 5, 0, null, Trace.NONE);
        }
        assertThat(gauge("timer.queue.invariants.ok")).isEqualTo(1);

        CorruptionHooks.swapCellsWithoutIndex(broken, 0, 2);

        assertThat(gauge("timer.queue.invariants.ok")).isZero();
    }

    @Test
    void gauges_keepReporting_whenNothingButTheRegistryHoldsTheBinder() {
        SimpleMeterRegistry alone = new SimpleMeterRegistry();
        new QueueGauges(clocks, wall::get).bindTo(alone);

        System.gc(); // Micrometer holds a gauge's object weakly unless told otherwise: a collected one reads NaN

        assertThat(alone.get("timer.queue.depth").gauge().value()).isZero();
        assertThat(alone.get("timer.queue.serving").gauge().value()).isEqualTo(1);
    }

    @Test
    void clocks_areCountedByMode() {
        clocks.create("jobs", 0, io.timeservice.model.ClockSettings.SYSTEM);
        clocks.create("test", 0);
        assertThat(clocksIn("system")).isEqualTo(1);
        assertThat(clocksIn("virtual")).isEqualTo(2);
        clocks.delete("jobs");
        assertThat(clocksIn("system")).isZero();
    }

    private double clocksIn(String mode) {
        return registry.get("timer.clocks").tag("mode", mode).gauge().value();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }
}
