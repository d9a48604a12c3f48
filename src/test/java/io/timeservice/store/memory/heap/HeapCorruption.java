package io.timeservice.store.memory.heap;

import static io.timeservice.store.memory.heap.HeapTestSupport.field;

/**
 * Breaks a heap on purpose, as a bug would, to prove that the checks notice: reaches into the private arrays (by
 * reflection, so production code carries no hooks) and counts each break as a change, so no cached report survives.
 */
public final class HeapCorruption {

    private HeapCorruption() {
    }

    /** Swaps two array cells without telling the index, as a buggy sift would. */
    public static void swapCellsWithoutIndex(IndexedTimerHeap heap, int a, int b) {
        countChange(heap);
        long[] fireTimes = (long[]) field(heap, "fireTimes");
        long[] tieBreaks = (long[]) field(heap, "tieBreaks");
        swap(fireTimes, IndexedTimerHeap.timeAt(a), IndexedTimerHeap.timeAt(b));
        swap(tieBreaks, IndexedTimerHeap.tieAt(a), IndexedTimerHeap.tieAt(b));
        swap(tieBreaks, IndexedTimerHeap.tieAt(a) + 1, IndexedTimerHeap.tieAt(b) + 1);
    }

    private static void swap(long[] words, int a, int b) {
        long word = words[a];
        words[a] = words[b];
        words[b] = word;
    }

    /** Drops {@code id}'s index entry while the timer stays in the heap, as a lost update would. */
    public static void dropIndexEntry(IndexedTimerHeap heap, String id) {
        countChange(heap);
        int handle = heap.find(id);
        heap.records().index().remove(heap.records().index().hash(id), handle);
    }

    /** Overwrites a handle's cached id hash, as a bug in the record layout would. */
    public static void corruptCachedHash(IndexedTimerHeap heap, int handle) {
        countChange(heap);
        int[] records = (int[]) field(heap.records(), "ints");
        records[handle * constant(TimerRecords.class, "STRIDE") + constant(TimerRecords.class, "ID_HASH")] ^= 1;
    }

    private static void countChange(IndexedTimerHeap heap) {
        try {
            var changes = IndexedTimerHeap.class.getDeclaredField("changes");
            changes.setAccessible(true);
            changes.setLong(heap, changes.getLong(heap) + 1);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("IndexedTimerHeap has no change count", e);
        }
    }

    private static int constant(Class<?> owner, String name) {
        try {
            var field = owner.getDeclaredField(name);
            field.setAccessible(true);
            return field.getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(owner.getSimpleName() + " has no constant " + name, e);
        }
    }
}
