package io.timeservice.store.memory;

import io.timeservice.store.memory.heap.HeapCorruption;


/** Lets tests outside the core package break a heap on purpose, to prove that the checks notice. */
public final class CorruptionHooks {

    private CorruptionHooks() {
    }

    /** Swaps two array cells without updating the index, as a sift that forgot the lockstep rule would. */
    public static void swapCellsWithoutIndex(MemoryClock scheduler, int a, int b) {
        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, a, b));
    }
}
