package io.timeservice.store.memory;

import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.StoreMetrics;

/** Clocks on a wall clock the test moves by hand, so real-time behaviour runs deterministically. */
final class DeliveryTestClocks {

    static final RetryPolicy QUICK_RETRIES = new RetryPolicy(3, 100, 2.0, 1_000, 0.0);
    static final ClockSettings VIRTUAL_QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, QUICK_RETRIES);
    static final ClockSettings SYSTEM_QUEUE = new ClockSettings(ClockSettings.Mode.SYSTEM,
            ClockSettings.DeliveryMode.QUEUE, QUICK_RETRIES);

    final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    final ClockRegistry clocks;

    DeliveryTestClocks(int capacity, long maxDeliveries) {
        PendingBudget budget = new PendingBudget(capacity, Long.MAX_VALUE);
        budget.limitDeliveries(maxDeliveries);
        clocks = new ClockRegistry((clock, shared) -> new MemoryClock(clock, 4, shared, wall::get, StoreMetrics.NONE),
                budget, 100, wall::get);
    }

    DeliveryTestClocks() {
        this(100_000, 100_000);
    }

    MemoryClock create(String name, ClockSettings settings) {
        return clocks.create(name, 0, settings).clock().scheduler();
    }
}
