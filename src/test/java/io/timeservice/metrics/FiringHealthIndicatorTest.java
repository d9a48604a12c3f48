package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.time.FiringLoop;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The firing component: DOWN without its thread, UP with lag and held-back clocks while it runs. */
class FiringHealthIndicatorTest {

    private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    private final PendingBudget budget = new PendingBudget(100, Long.MAX_VALUE);
    private final ClockRegistry clocks = new ClockRegistry((clock, shared) -> new MemoryClock(clock, 4, shared,
            wall::get, StoreMetrics.NONE), budget, 10, wall::get);
    private final FiringLoop firing = new FiringLoop(wall::get, 1_000, 100);
    private final FiringHealthIndicator indicator = new FiringHealthIndicator(clocks, firing);

    FiringHealthIndicatorTest() {
        clocks.fireWith(firing);
    }

    @Test
    void down_untilTheThreadStarts_andAgainOnceItStops() throws InterruptedException {
        assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);

        Health running = healthWhileTheThreadRuns();

        assertThat(running.getStatus()).isEqualTo(Status.UP);
        assertThat(running.getDetails()).containsEntry("thread", "running").containsEntry("lagMillis", 0L)
                .containsEntry("heldBackClocks", 0).doesNotContainKey("heldBack");
        Health stopped = indicator.health();
        assertThat(stopped.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) stopped.getDetails().get("thread")).startsWith("stopped");
    }

    @Test
    void up_butSaysSo_whileTheDeliveryLimitHoldsAClockBack() throws InterruptedException {
        budget.limitDeliveries(2);
        MemoryClock system = clocks.create("real", 0, ClockSettings.SYSTEM).clock().scheduler();
        for (String id : new String[] {"a", "b", "c"}) {
            system.add(id, 0, 0, null, Trace.NONE);
        }
        assertThat(firing.fireDue()).isEqualTo(2);   // c stays pending: the deliveries hold their limit

        Health health = healthWhileTheThreadRuns();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("heldBackClocks", 1);
        assertThat((String) health.getDetails().get("heldBack")).contains("timeservice.deliveries.max (2)");
    }

    /** The component's answer with the firing thread started, which is stopped again before this returns. */
    private Health healthWhileTheThreadRuns() throws InterruptedException {
        firing.start();
        try {
            return indicator.health();
        } finally {
            firing.stop();
        }
    }
}
