package io.timeservice.store.memory.heap;

import java.util.Arrays;

/**
 * The oldest pending timer of an {@link IndexedTimerHeap} for the oldest-job-age metric, without touching any other
 * timer when one leaves. Oldest means earliest virtual creation time; among equal ones, earliest wall-clock creation
 * second; among exact ties, any one of them (they report the same age). Virtual creation time never decreases with
 * the sequence, so this is the timer created first up to ties, and the reported creation times are exactly the
 * earliest pending ones. Both keys sit in the record, so a rescan reads 64 consecutive slots and records and nothing
 * else.
 *
 * <p>Handles are grouped in blocks of {@value #BLOCK} (handle >> 6). Each block is a leaf of a tournament tree
 * (a complete binary tree in arrays, node i's children 2i and 2i+1, the root at 1) whose every node holds the oldest
 * timer below it, with copies of its two creation times so that comparing two nodes reads nothing else.
 *
 * <p>Cost: {@link #oldest} O(1). {@link #added} O(1) unless the timer is older than its block's oldest (in practice
 * only when the block was empty): then O(log blocks) within these small arrays. {@link #removed} is one load of the
 * leaf when the timer was not its block's oldest (about 63 times in 64 for removals in random order); otherwise the
 * block is rescanned ({@value #BLOCK} consecutive records) and the path to the root replayed, O(64 + log blocks).
 * The doubly linked list that this replaces cost 8 bytes per timer and, on every removal, stores into two other
 * timers' records (two random cache lines); this costs two 20-byte tree nodes per block, under one byte per timer.
 *
 * <p>Not thread-safe; the heap calls it only while holding its owner's lock.
 */
final class OldestPending {

    static final int BLOCK = 64;
    private static final int BLOCK_SHIFT = 6;
    private static final int NONE = IndexedTimerHeap.NONE;

    /** What a block rescan reads from the heap: which handles are pending and their creation times. */
    interface Members {
        /** Handles in use are below this. */
        int handleLimit();

        /** Whether {@code handle} is a pending timer (false while it is being removed). */
        boolean isPending(int handle);

        long createdAt(int handle);

        /** Wall-clock creation second, unsigned, as a non-negative long. */
        long wallSeconds(int handle);
    }

    private final Members members;
    /** Leaves start here; a power of two, at least the number of blocks. */
    private int leaves;
    private int[] handles;
    private long[] createdAts;
    private long[] wallSeconds;

    OldestPending(Members members, int handleCapacity) {
        this.members = members;
        allocate(handleCapacity);
    }

    /** An independent copy of {@code source}'s tree that reads its timers from {@code members}. */
    OldestPending(OldestPending source, Members members) {
        this.members = members;
        leaves = source.leaves;
        handles = source.handles.clone();
        createdAts = source.createdAts.clone();
        wallSeconds = source.wallSeconds.clone();
    }

    /** The oldest pending handle, or {@link IndexedTimerHeap#NONE} when none is pending. */
    int oldest() {
        return handles[1];
    }

    /** Makes room for handles below {@code handleCapacity}, keeping every block's oldest. */
    void ensureCapacity(int handleCapacity) {
        int needed = leavesFor(handleCapacity);
        if (needed <= leaves) {
            return;
        }
        int oldLeaves = leaves;
        int[] oldHandles = handles;
        long[] oldCreatedAts = createdAts;
        long[] oldWallSeconds = wallSeconds;
        allocate(handleCapacity);
        System.arraycopy(oldHandles, oldLeaves, handles, leaves, oldLeaves);
        System.arraycopy(oldCreatedAts, oldLeaves, createdAts, leaves, oldLeaves);
        System.arraycopy(oldWallSeconds, oldLeaves, wallSeconds, leaves, oldLeaves);
        for (int node = leaves - 1; node >= 1; node--) {
            playOff(node);
        }
    }

    /** Forgets every timer and returns to the size for {@code handleCapacity}. */
    void clear(int handleCapacity) {
        allocate(handleCapacity);
    }

    /**
     * Records a new pending timer. On an exact tie with its block's oldest the block keeps the one it has: a clock
     * that has not moved gives every new timer the same creation time, and replaying the path to the root for a
     * lower, reused handle would change nothing that {@link #oldest}'s caller can see (measured: that replay was a
     * fifth of an add at 1,000,000 pending).
     */
    void added(int handle, long createdAt, long wallSeconds) {
        int leaf = leaves + (handle >>> BLOCK_SHIFT);
        if (earlier(createdAt, wallSeconds, leaf)) {
            set(leaf, handle, createdAt, wallSeconds);
            replayFrom(leaf >>> 1);
        }
    }

    /** Call after {@code handle} stopped being pending ({@link Members#isPending} false). */
    void removed(int handle) {
        int leaf = leaves + (handle >>> BLOCK_SHIFT);
        if (handles[leaf] != handle) {
            return;
        }
        rescan(leaf);
        replayFrom(leaf >>> 1);
    }

    /** The handle that a block's leaf holds; for the invariant check. */
    int oldestInBlock(int block) {
        return handles[leaves + block];
    }

    /** Finds the block's oldest again by reading its records in order; the lowest handle wins exact ties. */
    private void rescan(int leaf) {
        int first = (leaf - leaves) << BLOCK_SHIFT;
        int end = Math.min(first + BLOCK, members.handleLimit());
        set(leaf, NONE, Long.MAX_VALUE, Long.MAX_VALUE);
        for (int handle = first; handle < end; handle++) {
            if (members.isPending(handle)) {
                long createdAt = members.createdAt(handle);
                long wall = members.wallSeconds(handle);
                if (createdAt != createdAts[leaf] ? createdAt < createdAts[leaf] : wall < wallSeconds[leaf]) {
                    set(leaf, handle, createdAt, wall);
                }
            }
        }
    }

    /** Recomputes every node from {@code node} up to the root from its two children. */
    private void replayFrom(int node) {
        for (; node >= 1; node >>>= 1) {
            playOff(node);
        }
    }

    private void playOff(int node) {
        int left = node << 1;
        int right = left + 1;
        int winner = older(createdAts[right], wallSeconds[right], handles[right], left) ? right : left;
        set(node, handles[winner], createdAts[winner], wallSeconds[winner]);
    }

    /** Whether (createdAt, wallSeconds, handle) comes strictly before what {@code node} holds. */
    private boolean older(long createdAt, long wall, int handle, int node) {
        if (createdAt != createdAts[node] || wall != wallSeconds[node]) {
            return earlier(createdAt, wall, node);
        }
        return handles[node] == NONE || handle < handles[node];
    }

    /** Whether (createdAt, wallSeconds) is strictly earlier than what {@code node} holds; an empty node holds MAX. */
    private boolean earlier(long createdAt, long wall, int node) {
        return createdAt != createdAts[node] ? createdAt < createdAts[node] : wall < wallSeconds[node];
    }

    private void set(int node, int handle, long createdAt, long wall) {
        handles[node] = handle;
        createdAts[node] = createdAt;
        wallSeconds[node] = wall;
    }

    private void allocate(int handleCapacity) {
        leaves = leavesFor(handleCapacity);
        handles = new int[2 * leaves];
        createdAts = new long[2 * leaves];
        wallSeconds = new long[2 * leaves];
        Arrays.fill(handles, NONE);
        Arrays.fill(createdAts, Long.MAX_VALUE);
        Arrays.fill(wallSeconds, Long.MAX_VALUE);
    }

    private static int leavesFor(int handleCapacity) {
        int blocks = (handleCapacity + BLOCK - 1) >>> BLOCK_SHIFT;
        return blocks <= 1 ? 1 : Integer.highestOneBit(blocks - 1) << 1;
    }
}
