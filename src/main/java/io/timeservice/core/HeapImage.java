package io.timeservice.core;

/**
 * A frozen copy of an {@link IndexedTimerHeap}'s key array and records, in the live layout, taken under the lock in
 * one array copy per field ({@link IndexedTimerHeap#image()}) and read afterwards without it to write a snapshot.
 * Timers are visited in heap-array order. Immutable once made (nobody else holds the copied arrays).
 */
record HeapImage(int size, long[] keys, TimerRecords records) {

    /** The timer at heap slot {@code slot}, 0 <= slot < size. */
    Timer timer(int slot) {
        int key = IndexedTimerHeap.keyAt(slot);
        long priorityAndHandle = keys[key + 1];
        return records.timer((int) priorityAndHandle, keys[key], (int) (priorityAndHandle >> 32), keys[key + 2]);
    }

    /** Rounded down to the second, as the heap stores it. */
    long createdAtWallMillis(int slot) {
        return records.createdAtWallMillis((int) keys[IndexedTimerHeap.keyAt(slot) + 1]);
    }
}
