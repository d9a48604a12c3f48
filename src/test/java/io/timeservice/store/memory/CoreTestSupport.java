package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.heap.HeapTestSupport;
import io.timeservice.store.memory.heap.IndexedTimerHeap;

/** Small helpers shared by the core tests. Plain static methods; no state. */
final class CoreTestSupport {

    /** Generous capacity so that only the capacity test ever meets the limit. */
    static final int LARGE_CAPACITY = 1_000_000;

    private CoreTestSupport() {
    }

    static MemoryClock scheduler(int arity) {
        return MemoryClock.withVirtualClock(arity, LARGE_CAPACITY);
    }

    /** The ids in heap-array order (slot 0 first), read from the public heap view. */
    static List<String> layout(MemoryClock scheduler) {
        int size = scheduler.status().size();
        if (size == 0) {
            return List.of();
        }
        List<String> ids = new ArrayList<>(size);
        for (HeapView.Cell cell : scheduler.heapView(size).slots()) {
            ids.add(cell.id());
        }
        return ids;
    }

    /** Every pending timer, in firing order. */
    static List<Timer> pending(MemoryClock scheduler) {
        return scheduler.firstN(Integer.MAX_VALUE).timers();
    }

    static List<String> ids(List<Timer> timers) {
        return timers.stream().map(Timer::id).toList();
    }

    static void assertInvariantsHold(MemoryClock scheduler, String context) {
        InvariantReport report = scheduler.checkInvariants();
        assertThat(report.ok())
                .as("invariants after %s: %s", context, report.firstFailure())
                .isTrue();
    }

    /** The slot that the heap records for {@code handle} in its record: what the lockstep rule is about. */
    static int recordedSlot(IndexedTimerHeap heap, int handle) {
        return heap.slotOf(handle);
    }

    /** Runs {@code action} on {@code scheduler}'s heap under its lock: to break the heap or read its arrays. */
    static void onHeap(MemoryClock scheduler, Consumer<IndexedTimerHeap> action) {
        ClockKernel kernel = (ClockKernel) HeapTestSupport.field(scheduler, "kernel");
        kernel.lock().run(() -> action.accept(kernel.heap()));
    }
}
