package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.Timer;
import io.timeservice.store.memory.time.VirtualClock;

/** Puts a scheduler into a state that breaks an invariant, for tests that show what a failure looks like. */
public final class BrokenHeaps {

    private BrokenHeaps() {
    }

    /**
     * Empties the scheduler, sets its clock to {@code now} and loads {@code timers} as they are, although some are
     * due before {@code now}: no public operation can leave an overdue timer behind, a recovery bug could. Goes
     * through {@code bulkLoad}, which trusts its input, so the heap itself stays well formed.
     */
    public static void loadOverdueTimers(MemoryClock scheduler, long now, List<Timer> timers) {
        scheduler.reset(new VirtualClock(now));
        CoreTestSupport.onHeap(scheduler, heap -> heap.bulkLoad(timers, timer -> 0L));
    }
}
