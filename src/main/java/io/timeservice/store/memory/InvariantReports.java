package io.timeservice.store.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.store.memory.heap.HeapInvariants;
import io.timeservice.store.memory.heap.IndexedTimerHeap;

/**
 * The clock's invariant reports: walks a copy of the heap (taken under the clock's lock, checked without it,
 * one walk at a time), keeps the last report while the queue does not change, and bounds how often a large queue is
 * walked.
 *
 * <p>A walk is O(n) and reads every timer's id at random, so the lock is held only for the copy (array copies). The
 * last report stands for the current state while the heap's change count and the clock are those it was made at.
 * With a limit set ({@link #limit}), a bounded request on a queue above the size limit that comes sooner than the
 * interval after the last walk gets the last report, marked not {@link InvariantReport#current()}.
 *
 * <p>Thread-safe: the last report is guarded by the clock's lock, and {@code checking} lets one walk run at a
 * time, so concurrent callers never hold more than one copy between them.
 */
final class InvariantReports {

    private final CombiningLock lock;
    private final IndexedTimerHeap heap;
    /** The clock's now; call holding the lock (the clock is replaced on reset). */
    private final LongSupplier now;
    private final LongSupplier wallClockMillis;
    /** Throws if the clock no longer serves; call holding the lock. */
    private final Runnable requireServing;
    /** Held while a walk runs on its copy of the heap: one copy at a time. */
    private final Object checking = new Object();
    /** The last walk's report and the state it describes; guarded by the clock's lock. */
    private LastCheck lastCheck;
    private volatile CheckLimit checkLimit = CheckLimit.NONE;

    /** Reports on {@code heap}, read only under {@code lock}, as {@code now} and {@code requireServing} are. */
    InvariantReports(CombiningLock lock, IndexedTimerHeap heap, LongSupplier now, LongSupplier wallClockMillis,
                     Runnable requireServing) {
        this.lock = lock;
        this.heap = heap;
        this.now = now;
        this.wallClockMillis = wallClockMillis;
        this.requireServing = requireServing;
    }

    /** Above {@code aboveSize} timers pending, bounded walks start at least {@code minInterval} apart. */
    void limit(Duration minInterval, int aboveSize, LongSupplier nanoClock) {
        if (minInterval.isNegative() || aboveSize < 0) {
            throw new IllegalArgumentException("minInterval and aboveSize must be >= 0: " + minInterval + ", "
                    + aboveSize);
        }
        checkLimit = new CheckLimit(minInterval.toNanos(), aboveSize, nanoClock);
    }

    /** A report for the current state, from the last walk or a new one; {@code bounded}: within the limit. */
    InvariantReport report(boolean bounded) {
        InvariantReport cached = lock.call(() -> reusable(bounded));
        if (cached != null) {
            return cached;
        }
        synchronized (checking) {
            Object reportOrState = lock.call(() -> {
                InvariantReport report = reusable(bounded);
                return report != null ? report : freeze();
            });
            return reportOrState instanceof InvariantReport report ? report : walk((Frozen) reportOrState);
        }
    }

    /**
     * The first {@code limit} cells and their index entries, read under the lock, with the bounded report: of the
     * same instant unless it is marked not current.
     */
    HeapView view(int limit) {
        HeapView cachedView = lock.call(() -> {
            InvariantReport report = reusable(true);
            return report == null ? null : sample(limit, report);
        });
        if (cachedView != null) {
            return cachedView;
        }
        synchronized (checking) {
            ViewAndCopy sample = lock.call(() -> {
                InvariantReport report = reusable(true);
                return new ViewAndCopy(sample(limit, report), report == null ? freeze() : null);
            });
            HeapView view = sample.view();
            if (sample.copy() == null) {
                return view;
            }
            return new HeapView(view.arity(), view.size(), view.now(), view.slots(), view.index(),
                    walk(sample.copy()));
        }
    }

    /**
     * The last walk's report if it describes the current state, or ({@code bounded}) if the check limit holds a new
     * walk back, then marked not current; null when a walk is due. Call holding the lock.
     */
    private InvariantReport reusable(boolean bounded) {
        requireServing.run();
        LastCheck last = lastCheck;
        if (last == null) {
            return null;
        }
        if (last.changes() == heap.changes() && last.now() == now.getAsLong()) {
            return last.report();
        }
        CheckLimit limit = checkLimit;
        if (bounded && heap.size() > limit.aboveSize()
                && limit.nanoClock().getAsLong() - last.startedNanos() < limit.minIntervalNanos()) {
            return last.report().notCurrent();
        }
        return null;
    }

    /** The first {@code limit} cells of the live heap with {@code report}. Call holding the lock. */
    private HeapView sample(int limit, InvariantReport report) {
        return sample(heap, limit, now.getAsLong(), report);
    }

    /** A copy of the heap and the clocks for a walk. Call holding the lock. */
    private Frozen freeze() {
        return new Frozen(heap.copy(), now.getAsLong(), wallClockMillis.getAsLong(),
                checkLimit.nanoClock().getAsLong());
    }

    /** Walks a frozen copy and keeps its report for reuse. Call holding {@code checking}, not the lock. */
    private InvariantReport walk(Frozen frozen) {
        InvariantReport report = HeapInvariants.check(frozen.heap(), frozen.now()).checkedAt(frozen.wallMillis());
        lock.run(() -> lastCheck = new LastCheck(report, frozen.heap().changes(), frozen.now(),
                frozen.startedNanos()));
        return report;
    }

    /** The heap and the clocks as they were at one instant. */
    private record Frozen(IndexedTimerHeap heap, long now, long wallMillis, long startedNanos) {
    }

    /** The shown cells, and a copy to walk when no report could be reused (the view's report is then null). */
    private record ViewAndCopy(HeapView view, Frozen copy) {
    }

    /** A walk's report and the state it describes: the heap's change count and the clock. */
    private record LastCheck(InvariantReport report, long changes, long now, long startedNanos) {
    }

    /** Above {@code aboveSize} timers, walks start at least {@code minIntervalNanos} apart. */
    private record CheckLimit(long minIntervalNanos, int aboveSize, LongSupplier nanoClock) {

        static final CheckLimit NONE = new CheckLimit(0, Integer.MAX_VALUE, System::nanoTime);
    }

    /**
     * The first {@code limit} cells of {@code heap} and the slot the id index leads to for each of their ids: its
     * handle in the index, then the slot recorded for that handle. What the index says, not where the id sits, so a
     * broken index shows. Call holding the heap owner's lock.
     */
    private static HeapView sample(IndexedTimerHeap heap, int limit, long now, InvariantReport report) {
        int count = Math.min(limit, heap.size());
        List<HeapView.Cell> cells = new ArrayList<>(count);
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int slot = 0; slot < count; slot++) {
            HeapView.Cell cell = heap.cell(slot);
            cells.add(cell);
            int handle = heap.find(cell.id());
            index.put(cell.id(), handle == IndexedTimerHeap.NONE ? null : heap.slotOf(handle));
        }
        return new HeapView(heap.arity(), heap.size(), now, cells, index, report);
    }
}
