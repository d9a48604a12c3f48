package io.timeservice.store.memory;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.store.QueueInspector;

/** The memory store's {@link QueueInspector}: each clock's own heap, read under its lock. */
public final class MemoryQueueInspector implements QueueInspector {

    private final ClockRegistry clocks;

    public MemoryQueueInspector(ClockRegistry clocks) {
        this.clocks = clocks;
    }

    @Override
    public InvariantReport invariants(String clock) {
        return scheduler(clock).invariants();
    }

    @Override
    public HeapView heapView(String clock, int limit) {
        return scheduler(clock).heapView(limit);
    }

    private MemoryClock scheduler(String clock) {
        return clock == null ? clocks.defaultScheduler() : clocks.scheduler(clock);
    }
}
