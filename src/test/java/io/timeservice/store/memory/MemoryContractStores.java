package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.store.ClockStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.FlowKeyStore;
import io.timeservice.store.ScheduleStore;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.Stores;
import io.timeservice.store.TimerStore;

/**
 * The memory store for the contract suites: a fresh registry of virtual clocks per case, wired as
 * {@code MemoryStoreConfiguration} wires it (no journal), its wall clock stopped at 0.
 */
public final class MemoryContractStores implements Stores {

    private final ClockRegistry clocks;
    private final TimerStore timers;
    private final DeliveryStore deliveries;
    private final ClockStore clockStore;
    private final ScheduleStore schedules;
    private final FlowKeyStore flowKeys;

    private MemoryContractStores(ClockRegistry clocks) {
        this.clocks = clocks;
        this.timers = new MemoryTimerStore(clocks);
        this.deliveries = new MemoryDeliveryStore(clocks);
        this.clockStore = new MemoryClockStore(clocks);
        this.schedules = new MemoryScheduleStore(clocks);
        this.flowKeys = new MemoryFlowKeyStore(clocks);
    }

    public static Stores open(Limits limits) {
        PendingBudget budget = new PendingBudget(limits.capacity(), limits.capacityBytes());
        budget.limitSchedules(limits.maxSchedules());
        if (limits.maxDeliveries() != Long.MAX_VALUE) {
            budget.limitDeliveries(limits.maxDeliveries());
        }
        if (limits.maxReservations() != Long.MAX_VALUE) {
            budget.limitReservations(limits.maxReservations());
        }
        return new MemoryContractStores(new ClockRegistry((clock, shared) -> {
            MemoryClock scheduler = new MemoryClock(clock, 4, shared, () -> 0L, StoreMetrics.NONE);
            scheduler.scheduleWith(Stores.CRON, limits.maxCatchUp());
            return scheduler;
        }, budget, limits.maxClocks(), () -> 0L));
    }

    @Override
    public TimerStore timers() {
        return timers;
    }

    @Override
    public DeliveryStore deliveries() {
        return deliveries;
    }

    @Override
    public FlowKeyStore flowKeys() {
        return flowKeys;
    }

    @Override
    public ClockStore clocks() {
        return clockStore;
    }

    @Override
    public ScheduleStore schedules() {
        return schedules;
    }

    @Override
    public List<Delivery> unacknowledged(String clock) {
        return clocks.scheduler(clock).allDeliveries();
    }

    @Override
    public void close() {
    }
}
