package io.timeservice.store.postgres;

import io.timeservice.model.ClockSettings;
import io.timeservice.store.ClockStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryDeliveryStore;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;

/** The three ports of one store, {@code "memory"} or {@code "postgres"} (a fresh schema), for tests run on both. */
final class BothStores implements AutoCloseable {

    final TimerStore timers;
    final DeliveryStore deliveries;
    final ClockStore clocks;
    private final TestDatabase database;
    private final PostgresStore postgres;

    BothStores(String store, Class<?> owner, int capacity) {
        if (store.equals("memory")) {
            Clocks memory = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, () -> 0L,
                    SchedulerMetrics.NONE), new PendingBudget(capacity, 10_000_000), 10, () -> 0L);
            timers = new MemoryTimerStore(memory);
            deliveries = new MemoryDeliveryStore(memory);
            clocks = new MemoryClockStore(memory);
            database = null;
            postgres = null;
        } else {
            database = TestDatabase.create(owner, 2);
            postgres = PostgresStore.open(database.dataSource(), capacity, 10_000_000, 10, ClockSettings.Mode.VIRTUAL);
            timers = new PostgresTimerStore(postgres);
            deliveries = new PostgresDeliveryStore(postgres);
            clocks = new PostgresClockStore(postgres);
        }
    }

    @Override
    public void close() {
        if (postgres != null) {
            postgres.close();
            database.close();
        }
    }
}
