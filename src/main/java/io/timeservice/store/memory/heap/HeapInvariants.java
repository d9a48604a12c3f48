package io.timeservice.store.memory.heap;

import java.util.Arrays;
import java.util.List;

import io.timeservice.model.InvariantReport;

/**
 * The four invariants of an {@link IndexedTimerHeap}, checked the slow way from its arrays: the root is the earliest
 * timer, the id index and the recorded slots match the heap array (and the oldest-pending tree matches a recount),
 * heap order holds at every slot, and no timer is overdue. O(n); reads the heap, never changes it.
 *
 * <p>Not thread-safe: run it on a heap nobody else changes meanwhile (the clock checks a {@link
 * IndexedTimerHeap#copy copy}).
 */
public final class HeapInvariants {

    private static final int NONE = IndexedTimerHeap.NONE;

    private final IndexedTimerHeap heap;
    private final TimerRecords records;

    private HeapInvariants(IndexedTimerHeap heap) {
        this.heap = heap;
        this.records = heap.records();
    }

    /** Checks the four invariants in O(n). {@code now} is the clock that no pending fireTime may be behind. */
    public static InvariantReport check(IndexedTimerHeap heap, long now) {
        HeapInvariants checker = new HeapInvariants(heap);
        return new InvariantReport(List.of(checker.checkRootIsEarliest(), checker.checkIndexMatchesHeap(),
                checker.checkHeapOrder(), checker.checkNoOverdue(now)));
    }

    private InvariantReport.Check checkRootIsEarliest() {
        for (int slot = 1; slot < heap.size(); slot++) {
            if (heap.compareSlots(slot, 0) < 0) {
                return InvariantReport.Check.failed(InvariantReport.ROOT_IS_EARLIEST,
                        describe(slot) + " fires before the root " + describe(0));
            }
        }
        return InvariantReport.Check.passed(InvariantReport.ROOT_IS_EARLIEST);
    }

    private InvariantReport.Check checkIndexMatchesHeap() {
        String name = InvariantReport.INDEX_MATCHES_HEAP;
        if (records.indexedTimers() != heap.size()) {
            return InvariantReport.Check.failed(name, "index has " + records.indexedTimers() + " pending ids (and "
                    + records.reserved().size() + " reserved), heap has " + heap.size());
        }
        for (int slot = 0; slot < heap.size(); slot++) {
            int handle = heap.handleAt(slot);
            if (handle < 0 || handle >= records.limit() || heap.idOf(handle) == null) {
                return InvariantReport.Check.failed(name, "slot " + slot + " holds no live timer");
            }
            if (heap.slotOf(handle) != slot) {
                return InvariantReport.Check.failed(name, "index says " + heap.idOf(handle) + " is at slot "
                        + heap.slotOf(handle) + ", but it sits at slot " + slot);
            }
            if (records.cachedHash(handle) != records.index().hash(heap.idOf(handle))) {
                return InvariantReport.Check.failed(name, heap.idOf(handle) + " at slot " + slot
                        + " has a cached hash that is not its id's: its index entry could not be removed");
            }
            if (records.find(heap.idOf(handle)) != handle) {
                return InvariantReport.Check.failed(name, heap.idOf(handle) + " at slot " + slot + " is not indexed");
            }
        }
        int[] dangling = {NONE};
        int[] danglingReserved = {NONE};
        records.index().forEachHandle(handle -> {
            if (ReservedIds.isReservation(handle)) {
                int number = ReservedIds.numberOf(handle);
                if (danglingReserved[0] == NONE && (number >= records.reserved().limit()
                        || !records.reserved().isLive(number))) {
                    danglingReserved[0] = number;
                }
                return;
            }
            int slot = handle >= 0 && handle < records.limit() ? heap.slotOf(handle) : NONE;
            if (dangling[0] == NONE && (slot < 0 || slot >= heap.size() || heap.handleAt(slot) != handle)) {
                dangling[0] = handle;
            }
        });
        if (dangling[0] != NONE) {
            return InvariantReport.Check.failed(name, "index entry " + heap.idOf(dangling[0]) + " points at slot "
                    + heap.slotOf(dangling[0]) + ", which does not hold it");
        }
        if (danglingReserved[0] != NONE) {
            return InvariantReport.Check.failed(name, "index entry of reservation " + danglingReserved[0]
                    + " names no reserved id");
        }
        String unindexed = unindexedReservation();
        if (unindexed != null) {
            return InvariantReport.Check.failed(name, unindexed);
        }
        // Every block's oldest, recomputed the slow way from the heap array.
        int[] oldestInBlock = new int[(records.limit() + OldestPending.BLOCK - 1) / OldestPending.BLOCK];
        Arrays.fill(oldestInBlock, NONE);
        for (int slot = 0; slot < heap.size(); slot++) {
            int handle = heap.handleAt(slot);
            int block = handle / OldestPending.BLOCK;
            int best = oldestInBlock[block];
            if (best == NONE || createdBefore(handle, best)) {
                oldestInBlock[block] = handle;
            }
        }
        for (int block = 0; block < oldestInBlock.length; block++) {
            if (!sameCreation(records.oldestPending().oldestInBlock(block), oldestInBlock[block], block)) {
                return InvariantReport.Check.failed(name, "handles " + block * OldestPending.BLOCK + ".. name "
                        + records.oldestPending().oldestInBlock(block) + " as their oldest pending timer, but it is "
                        + oldestInBlock[block]);
            }
        }
        int oldest = NONE;
        for (int handle : oldestInBlock) {
            if (handle != NONE && (oldest == NONE || createdBefore(handle, oldest))) {
                oldest = handle;
            }
        }
        if (!sameCreation(records.oldestPending().oldest(), oldest, NONE)) {
            return InvariantReport.Check.failed(name, "oldest pending timer is handle " + oldest
                    + ", but the tree names " + records.oldestPending().oldest());
        }
        return InvariantReport.Check.passed(name);
    }

    /** Why a reserved id is not indexed where its number says, or null when every one is. */
    private String unindexedReservation() {
        ReservedIds reserved = records.reserved();
        String[] problem = {null};
        reserved.forEach(number -> {
            if (problem[0] != null) {
                return;
            }
            String id = reserved.id(number);
            if (reserved.cachedHash(number) != records.index().hash(id)) {
                problem[0] = "reserved id " + id + " has a cached hash that is not its id's";
            } else if (reserved.find(id) != number) {
                problem[0] = "reserved id " + id + " is not indexed";
            }
        });
        return problem[0];
    }

    /**
     * Whether {@code named} (what the tree holds) can stand for {@code expected} (recomputed): both none, or a
     * pending timer of block {@code block} (any block when NONE) with the same two creation times. The tree keeps
     * its holder on an exact tie, so it need not be the lowest handle.
     */
    private boolean sameCreation(int named, int expected, int block) {
        if (named == NONE || expected == NONE) {
            return named == expected;
        }
        boolean inBlock = block == NONE || named / OldestPending.BLOCK == block;
        return inBlock && named < records.limit() && heap.slotOf(named) != NONE
                && records.createdAt(named) == records.createdAt(expected)
                && records.wallSeconds(named) == records.wallSeconds(expected);
    }

    /** The oldest-pending order of two pending timers: creation time, then wall-clock second, then handle. */
    private boolean createdBefore(int a, int b) {
        if (records.createdAt(a) != records.createdAt(b)) {
            return records.createdAt(a) < records.createdAt(b);
        }
        long wallA = records.wallSeconds(a);
        long wallB = records.wallSeconds(b);
        return wallA != wallB ? wallA < wallB : a < b;
    }

    private InvariantReport.Check checkHeapOrder() {
        for (int slot = 1; slot < heap.size(); slot++) {
            int parent = (slot - 1) / heap.arity();
            if (heap.compareSlots(slot, parent) < 0) {
                return InvariantReport.Check.failed(InvariantReport.HEAP_ORDER, "child " + describe(slot)
                        + " fires before its parent " + describe(parent));
            }
        }
        return InvariantReport.Check.passed(InvariantReport.HEAP_ORDER);
    }

    private InvariantReport.Check checkNoOverdue(long now) {
        for (int slot = 0; slot < heap.size(); slot++) {
            if (heap.fireTimeAt(slot) < now) {
                return InvariantReport.Check.failed(InvariantReport.NO_OVERDUE,
                        describe(slot) + " is overdue at now=" + now);
            }
        }
        return InvariantReport.Check.passed(InvariantReport.NO_OVERDUE);
    }

    private String describe(int slot) {
        int handle = heap.handleAt(slot);
        String id = handle >= 0 && handle < records.limit() ? heap.idOf(handle) : "?";
        return id + "@" + slot + " (fireTime " + heap.fireTimeAt(slot) + ", priority " + heap.priorityAt(slot)
                + ", sequence " + heap.sequenceAt(slot) + ")";
    }
}
