package io.timeservice.model;

import java.util.Arrays;

/**
 * A store's sequences of one clock mapped to a snapshot's numbering ({@link ClockSnapshot}): each sequence's place
 * among all of them, from 1, so the order is kept and gaps are closed. O(n log n) to build, O(log n) a lookup.
 */
public final class SnapshotSequences {

    private final long[] sorted;

    /** Over {@code sequences}, every timer's and delivery's of the clock (distinct); the array is not kept. */
    public SnapshotSequences(long[] sequences) {
        this.sorted = sequences.clone();
        Arrays.sort(sorted);
    }

    /** The snapshot's number of {@code sequence}, one of those given. */
    public long of(long sequence) {
        int at = Arrays.binarySearch(sorted, sequence);
        if (at < 0) {
            throw new IllegalArgumentException("sequence " + sequence + " is not the clock's");
        }
        return at + 1L;
    }

    /** The snapshot's next sequence: one past the last. */
    public long next() {
        return sorted.length + 1L;
    }
}
