package io.timeservice.store.memory.heap;

import io.timeservice.model.Timer;

/**
 * A frozen copy of an {@link IndexedTimerHeap}'s key arrays and records, in the live layout, taken under the lock in
 * one array copy per field ({@link IndexedTimerHeap#image()}) and read afterwards without it to write a snapshot.
 * Timers are visited in heap-array order. Immutable once made (nobody else holds the copied arrays).
 */
public record HeapImage(int size, long[] fireTimes, long[] tieBreaks, TimerRecords records) {

    /** The timer at heap slot {@code slot}, 0 <= slot < size. */
    public Timer timer(int slot) {
        int tie = IndexedTimerHeap.tieAt(slot);
        long priorityAndHandle = tieBreaks[tie];
        return records.timer((int) priorityAndHandle, fireTimes[IndexedTimerHeap.timeAt(slot)],
                (int) (priorityAndHandle >> 32), tieBreaks[tie + 1]);
    }

    /** The sequence of the timer at heap slot {@code slot}, without building the timer. */
    public long sequenceAt(int slot) {
        return tieBreaks[IndexedTimerHeap.tieAt(slot) + 1];
    }

    /** Rounded down to the second, as the heap stores it. */
    public long createdAtWallMillis(int slot) {
        return records.createdAtWallMillis((int) tieBreaks[IndexedTimerHeap.tieAt(slot)]);
    }
}
