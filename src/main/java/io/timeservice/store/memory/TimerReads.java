package io.timeservice.store.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.ProblemException;
import io.timeservice.model.FiringPosition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.memory.heap.FiringOrderWalk;
import io.timeservice.store.memory.heap.IndexedTimerHeap;

/**
 * One memory clock's reads of its timers, changing nothing: a timer by id, the next one, the pending ones in firing
 * order (found without sorting the heap), the queue's status, and the heap's view and invariant reports
 * ({@link InvariantReports}). The PostgreSQL store's counterpart is {@code PostgresTimerReads}.
 *
 * <p>Cost: get, peek and {@link #status} O(1); {@link #dueBy} O(k log k) for k listed; an invariant walk O(n), on a
 * copy of the heap.
 *
 * <p>Not thread-safe by itself: every method takes the lock through the {@link ClockKernel}.
 */
final class TimerReads {

    private final ClockKernel kernel;
    private final IndexedTimerHeap heap;
    /** Tags a schedule's occurrence with its schedule. */
    private final ClockScheduleCalls schedules;
    private final InvariantReports invariantReports;

    TimerReads(ClockKernel kernel, LongSupplier wallClockMillis, ClockScheduleCalls schedules) {
        this.kernel = kernel;
        this.heap = kernel.heap();
        this.schedules = schedules;
        this.invariantReports = new InvariantReports(kernel.lock(), heap, () -> kernel.clock().firedThrough(),
                wallClockMillis, kernel::requireServing);
    }

    /** @throws ProblemException {@code timer_not_found} */
    Timer get(String id) {
        return kernel.read(Operation.GET, () -> schedules.tagged(heap.timerAt(kernel.requirePending(id))));
    }

    /**
     * The next timer to fire, without removing it. O(1).
     *
     * @throws ProblemException {@code queue_empty}
     */
    Timer peek() {
        return kernel.read(Operation.PEEK, () -> {
            int root = heap.peek();
            if (root == IndexedTimerHeap.NONE) {
                throw TimerRules.queueEmpty();
            }
            return schedules.tagged(heap.timerAt(root));
        });
    }

    /**
     * The pending timers due at or before {@code dueBy}, at most {@code limit}, in firing order, changing nothing:
     * what an advance to {@code dueBy} would fire.
     */
    QueueListing dueBy(long dueBy, int limit) {
        TimerRules.requireLimit(limit);
        return kernel.read(Operation.LIST, () -> {
            int[] handles = FiringOrderWalk.firstInOrder(heap, limit);
            List<Timer> timers = new ArrayList<>(handles.length);
            for (int handle : handles) {
                if (heap.fireTime(handle) > dueBy) {
                    break;
                }
                timers.add(schedules.tagged(heap.timerAt(handle)));
            }
            return new QueueListing(kernel.clock().now(), heap.size(), timers);
        });
    }

    /**
     * A page of the pending timers in firing order after {@code after} (null: from the first), those whose id starts
     * with {@code idPrefix} (null: any), at most {@code limit} ({@link FiringOrderWalk#page}).
     */
    QueueListing page(FiringPosition after, String idPrefix, int limit) {
        TimerRules.requireLimit(limit);
        return kernel.read(Operation.LIST, () -> {
            int[] handles = FiringOrderWalk.page(heap, after, idPrefix, limit);
            List<Timer> timers = new ArrayList<>(handles.length);
            for (int handle : handles) {
                timers.add(schedules.tagged(heap.timerAt(handle)));
            }
            return new QueueListing(kernel.clock().now(), heap.size(), timers);
        });
    }

    /** Clock, depth, next deadline and oldest pending timer, in O(1). Not counted as an operation. */
    QueueStatus status() {
        return kernel.serving(() -> {
            int root = heap.peek();
            int oldest = heap.records().oldest();
            boolean empty = oldest == IndexedTimerHeap.NONE;
            return new QueueStatus(kernel.clock().now(), heap.size(),
                    root == IndexedTimerHeap.NONE ? null : heap.fireTime(root),
                    empty ? null : heap.records().createdAt(oldest),
                    empty ? null : heap.records().createdAtWallMillis(oldest));
        });
    }

    /**
     * The four invariants of the current state. A walk is O(n) and runs on a copy of the heap taken under the lock
     * (see {@link InvariantReports}); while the queue does not change, the last report is returned without a walk.
     * {@code bounded}: within the bound set by {@link #limitInvariantChecks}: while it holds a large queue's walks
     * apart, the last report is returned, marked not {@link InvariantReport#current()}. Unbounded reports are for
     * start-up and tests; requests go through the bounded ones.
     */
    InvariantReport invariants(boolean bounded) {
        return invariantReports.report(bounded);
    }

    /**
     * Bounds how often the bounded {@link #invariants} and {@link #heapView} walk a large queue: with more than
     * {@code aboveSize} timers pending, at most one walk starts per {@code minInterval}, timed on {@code nanoClock}.
     */
    void limitInvariantChecks(Duration minInterval, int aboveSize, LongSupplier nanoClock) {
        invariantReports.limit(minInterval, aboveSize, nanoClock);
    }

    /**
     * The first {@code limit} cells of the backing array and the index entries of their ids, read under the lock
     * without copying the rest of the heap, and the bounded invariant report: of the same instant unless the report
     * is marked not current. The index entries are looked up in the id index, so a broken index shows (an id mapped
     * to another slot than the one it sits in, or to null when the index lacks it).
     */
    HeapView heapView(int limit) {
        TimerRules.requireLimit(limit);
        return invariantReports.view(limit);
    }
}
