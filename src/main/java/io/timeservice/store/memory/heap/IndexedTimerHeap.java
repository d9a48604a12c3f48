package io.timeservice.store.memory.heap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

import io.timeservice.model.FiringOrder;
import io.timeservice.model.HeapView;
import io.timeservice.model.Timer;

/**
 * An indexed d-ary min-heap of timers: the firing order's keys in heap order in two flat arrays, the rest of each
 * timer by a stable per-timer handle in {@link TimerRecords}, which also finds the handle of an id.
 *
 * <p>Layout. Slot {@code k}'s children are slots {@code k*d+1 .. k*d+d}; its parent is {@code (k-1)/d}. Two key
 * arrays are indexed by slot, so a sift compares keys without chasing a pointer: {@code fireTimes} (one long per
 * slot) and {@code tieBreaks} (priority with handle, then sequence). {@code slots[handle]} is the timer's current
 * heap slot, or -1 while it is lifted out for a sift or not in use.
 *
 * <p>Why this shape: at 1,000,000 pending nearly every access below the top heap levels is a cache miss, up to
 * ~150-200 ns from DRAM, so an operation costs about its number of dependent misses. A sift down reads every
 * child's fireTime but the other words of one child only, so the fireTimes of a node's children are one aligned
 * cache line at arity 8 (see {@link #TIME_BASE}); the chosen child's other words are a second miss that does not
 * wait for the first. The slot is read on the cancel and edit path and written at every sift level, so it stays in
 * a 4 MB array, which caches far better than the 20-byte records.
 *
 * <p>Invariants, true between public calls ({@link HeapInvariants} checks them):
 * <ul>
 *   <li>heap order: no slot's key precedes its parent's key (fireTime, then priority, then sequence);</li>
 *   <li>lockstep: {@code slots[handle at slot k] == k} for every slot k below size, and the id index maps each
 *       pending id to its handle (under the hash cached in that handle's record) for exactly the handles in the
 *       heap. Only {@link #write} stores a handle into a slot, and it writes {@code slots} in the same step, so no
 *       sift can leave the two apart. The id index holds handles, not slots, so it changes only on insert and
 *       remove, never during a sift. Its other entries are the clock's reserved ids ({@link ReservedIds}), negative
 *       handles that are never heap entries: the index holds exactly the heap's handles plus one per reservation.</li>
 * </ul>
 *
 * <p>Cost: insert O(log_d n); remove or update by handle O(d log_d n); find by id expected O(1); peek O(1); firing
 * k timers ({@link #popDue}) O(k d log_d n) for the repair plus O(k log k) to find them in order;
 * {@link #bulkLoad} O(n); the first k in firing order O(k d log k) ({@link FiringOrderWalk}); the oldest pending
 * timer O(1) ({@link OldestPending}). Steady-state operations allocate nothing; arrays grow by doubling and return
 * to their initial size once empty. Steps can be watched through a {@link HeapListener} (for traces); the same
 * algorithm runs either way, except that a traced {@link #popDue} sifts its holes one after another instead of a
 * level's holes in lockstep, which writes the same array (their subtrees are disjoint).
 *
 * <p>Not thread-safe: a memory clock ({@code ClockKernel}) owns one and calls it only while holding its lock.
 */
public final class IndexedTimerHeap {

    public static final int NONE = -1;
    private static final int INITIAL_CAPACITY = 16;
    /** Words per slot in {@link #tieBreaks}. */
    private static final int TIE_STRIDE = 2;
    /**
     * Slot 0's fireTime is at this index of {@link #fireTimes}: when the array starts on a cache line (G1 places
     * arrays this large at a region start, the elements 16 bytes in), slot 1 starts the second line, so the
     * children of every slot (slots k*d+1 .. k*d+d) share one line at arity 8 and half of one at arity 4.
     */
    static final int TIME_BASE = 5;
    /** As {@link #TIME_BASE} for {@link #tieBreaks}: slot 1 starts a line, a group of 4 children fills one. */
    static final int TIE_BASE = 4;

    /** Arrays larger than this are released when the heap drains empty. */
    private static final int SHRINK_ABOVE = 4096;
    /** Timers {@link #popDue} pops before it reports and releases them together. */
    static final int POP_CHUNK = 512;
    /** Holes of one level that {@link #removeTaken} sifts in lockstep when untraced. */
    static final int SIFT_GROUP = 16;
    /** Per popped timer in {@link #popped}: its three key words as the heap stored them, then its levels moved. */
    private static final int POPPED_STRIDE = 4;

    private final int arity;

    /**
     * By heap slot, [0, size) from {@link #TIME_BASE}: the fireTime, the only word a sift reads of every child. Apart
     * from the rest of the key so that a node's children (adjacent slots) take one cache line at arity 8: a level
     * below the cached top then costs one miss for the children, plus one for the chosen child's other words,
     * which is independent of it and overlaps.
     */
    private long[] fireTimes;
    /**
     * By heap slot, [0, size) from {@link #TIE_BASE}, two longs per slot: {@code priority << 32 | handle}, then
     * {@code sequence}. Read for a child only when its fireTime ties with the best one's, and for the one that moves.
     */
    private long[] tieBreaks;
    private int size;

    /**
     * By handle: the heap slot, or -1. Apart from the record because every sift level stores one: a 4-byte array
     * (4 MB at 1,000,000) is far more often still in cache than the records (20 MB).
     */
    private int[] slots;
    private final TimerRecords records;

    /** Told every step of the operations that follow; {@link HeapListener#NONE} unless a trace is recorded. */
    private HeapListener listener = HeapListener.NONE;
    // {@link #popDue}'s scratch, allocated on its first use: the slots of the next timers in firing order, the
    // candidates of the walk that finds them, their keys and levels (until reported), and their slots by slot order.
    private int[] taken;
    private int[] candidates;
    private long[] popped;
    private long[] holes;
    // {@link #siftDownTogether}'s: per entry in hand, its hole, the fired timer whose hole it filled, its levels, keys.
    private int[] siftHoles;
    private int[] siftFired;
    private int[] siftLevels;
    private long[] siftKeys;
    /**
     * Sums the words that {@link #reportAndRelease} reads early. Never read: it exists so that the compiler keeps
     * those loads, whose only purpose is to start cache misses before the loads that need the data.
     */
    private long touched;
    /** Levels moved by sifts since the last {@link #takeLevelsMoved}. */
    private int levelsMoved;
    /**
     * How many times the heap has changed: every method that writes keys, slots or records counts one, so an equal
     * count means an equal heap (a cached invariant report still holds). Copies start from their source's count.
     */
    private long changes;

    public IndexedTimerHeap(int arity) {
        this(arity, IdIndex.DEFAULT_MAX_LOAD_PERCENT);
    }

    /** A heap whose id index grows past {@code indexMaxLoadPercent} of its buckets: for benchmarks comparing loads. */
    public IndexedTimerHeap(int arity, int indexMaxLoadPercent) {
        if (arity < 2) {
            throw new IllegalArgumentException("arity must be >= 2: " + arity);
        }
        this.arity = arity;
        allocate(INITIAL_CAPACITY);
        records = new TimerRecords(INITIAL_CAPACITY, indexMaxLoadPercent);
    }

    /** A copy of {@code source}: see {@link #copy}. */
    private IndexedTimerHeap(IndexedTimerHeap source) {
        arity = source.arity;
        fireTimes = Arrays.copyOf(source.fireTimes, timeAt(source.size));
        tieBreaks = Arrays.copyOf(source.tieBreaks, tieAt(source.size));
        size = source.size;
        records = new TimerRecords(source.records);
        slots = Arrays.copyOf(source.slots, records.limit());
        changes = source.changes;
    }

    /**
     * An independent copy of the whole heap (arrays, index, oldest-pending tree; spare capacity left out), for
     * checking the invariants without holding the owner's lock: the copy is a few array copies, memory bandwidth
     * only, while the check reads every id and probes the index for it, a cache miss or more per timer.
     */
    public IndexedTimerHeap copy() {
        return new IndexedTimerHeap(this);
    }

    public int arity() {
        return arity;
    }

    public int size() {
        return size;
    }

    /** Everything but the keys, by handle; the id index; the oldest pending timer. */
    public TimerRecords records() {
        return records;
    }

    /** The change count: see {@link #changes}; the reserved ids' changes count too (they share the index). */
    public long changes() {
        return changes + records.reserved().changes();
    }

    /** The ids reserved after their timers left (a clock's dedupe window), kept in this heap's id index. */
    public ReservedIds reserved() {
        return records.reserved();
    }

    /** Tells {@code listener} every step of the following operations; {@link HeapListener#NONE} stops telling. */
    public void listen(HeapListener listener) {
        this.listener = listener;
    }

    public int takeLevelsMoved() {
        int levels = levelsMoved;
        levelsMoved = 0;
        return levels;
    }

    // ---- slot accessors: the only readers of the interleaved key array ----

    /** Where slot {@code slot}'s fireTime is in {@link #fireTimes} (of the heap or of a {@link HeapImage}). */
    static int timeAt(int slot) {
        return TIME_BASE + slot;
    }

    /** Where slot {@code slot}'s two other key words start in {@link #tieBreaks} (or a {@link HeapImage}'s). */
    static int tieAt(int slot) {
        return TIE_BASE + slot * TIE_STRIDE;
    }

    long fireTimeAt(int slot) {
        return fireTimes[timeAt(slot)];
    }

    int priorityAt(int slot) {
        return (int) (tieBreaks[tieAt(slot)] >> 32);
    }

    int handleAt(int slot) {
        return (int) tieBreaks[tieAt(slot)];
    }

    long sequenceAt(int slot) {
        return tieBreaks[tieAt(slot) + 1];
    }

    /** Slots the key arrays hold before they must grow. */
    int slotCapacity() {
        return fireTimes.length - TIME_BASE;
    }

    public int slotOf(int handle) {
        return slots[handle];
    }

    String idOf(int handle) {
        return records.idOf(handle);
    }

    // ---- lookups by id and handle ----

    /** The handle of the pending timer with this id, or {@link #NONE}. */
    public int find(String id) {
        return records.find(id);
    }

    /**
     * One probe of the id index for an add: the handle of the pending timer {@code id} (0 and up), else, when the id
     * is reserved, an answer that {@link ReservedIds#isReservation} recognises and {@link ReservedIds#numberOf} turns
     * into its reservation, else {@link #NONE}.
     */
    public int lookup(String id) {
        return records.lookup(id);
    }

    /** The handle at the root, the next timer to fire, or {@link #NONE} when empty. */
    public int peek() {
        return size == 0 ? NONE : handleAt(0);
    }

    public long fireTime(int handle) {
        return fireTimeAt(slotOf(handle));
    }

    /** A copy of the pending timer {@code handle} as it is now. */
    public Timer timerAt(int handle) {
        int slot = slotOf(handle);
        return records.timer(handle, fireTimeAt(slot), priorityAt(slot), sequenceAt(slot));
    }

    // ---- mutations ----

    /**
     * Adds a timer and returns its handle. Call only when {@link #find} returned {@link #NONE} for {@code id} and
     * {@code sequence} is greater than every sequence in the heap.
     */
    public int insert(String id, long fireTime, int priority, long sequence, int version, long createdAt,
               long createdAtWall, String payload) {
        return insert(id, fireTime, priority, sequence, version, createdAt, createdAtWall, payload, null, null);
    }

    /**
     * As {@link #insert(String, long, int, long, int, long, long, String)}, with a trace context and under the
     * flow-control key {@code key} (each null: none).
     */
    public int insert(String id, long fireTime, int priority, long sequence, int version, long createdAt,
               long createdAtWall, String payload, String traceContext, String key) {
        changes++;
        int handle = newHandle(id, records.hash(id), version, createdAt, createdAtWall, payload, traceContext, key);
        ensureSlotCapacity(size + 1);
        siftUp(size++, handle, fireTime, priority, sequence);
        return handle;
    }

    /** Removes the pending timer {@code handle}; the handle may be reused by a later insert. */
    public void remove(int handle) {
        removeAt(slotOf(handle));
    }

    /** Removes and forgets the root. Call only when not empty. */
    public void removeRoot() {
        removeAt(0);
    }

    /** Told each timer that {@link #popDue} fires, in firing order, while its handle can still be read. */
    @FunctionalInterface
    public interface FiredTimers {
        /**
         * {@code handle} fired with this key; {@code levelsMoved} is how far the entry that filled its hole sank (0
         * when its slot was past the new end of the array). The handle's record
         * ({@link #idOf}, {@link #records}) is readable during the call only; the heap must not be changed in it,
         * except that the call may reserve ids ({@link #reserved}): the fired timers' index entries are removed after
         * every call by hash and handle, which a reservation's entry (or a table grown meanwhile) does not disturb.
         */
        void fired(int handle, long fireTime, int priority, long sequence, int levelsMoved);
    }

    /**
     * Fires the timers due at {@code now} (fireTime at or before it), at most {@code limit} of them, in firing order,
     * and returns how many. Works in chunks of up to {@value #POP_CHUNK}: a chunk is the next timers in firing order,
     * which form a subtree at the root; they leave together, then the heap is repaired once for all of them
     * ({@link #removeTaken}), and their records and index entries are fetched and released side by side.
     */
    public int popDue(long now, int limit, FiredTimers fired) {
        int count = 0;
        while (count < limit && size > 0 && fireTimeAt(0) <= now) {
            int chunk = takeFirst(now, Math.min(limit - count, POP_CHUNK));
            removeTaken(chunk);
            reportAndRelease(chunk, fired);
            count += chunk;
        }
        releaseIfDrained();
        return count;
    }

    /**
     * Finds the first {@code max} timers in firing order that are due at {@code now} (fewer if fewer are), without
     * changing the heap ({@link FiringOrderWalk#firstDueSlots}); writes their slots in firing order into
     * {@link #taken} and returns how many.
     */
    private int takeFirst(long now, int max) {
        ensureTakeRoom(max);
        return FiringOrderWalk.firstDueSlots(this, now, max, taken, candidates);
    }

    /**
     * Makes {@link #popDue}'s scratch arrays hold a chunk of {@code chunk}: allocated on first use and grown by
     * doubling, so a clock that fires a few timers at a time keeps a few hundred bytes, one that fires thousands
     * about 28 KB ({@value #POP_CHUNK} timers), until it drains empty.
     */
    private void ensureTakeRoom(int chunk) {
        if (taken == null) {
            siftHoles = new int[SIFT_GROUP];
            siftFired = new int[SIFT_GROUP];
            siftLevels = new int[SIFT_GROUP];
            siftKeys = new long[SIFT_GROUP * 3];
        } else if (taken.length >= chunk) {
            return;
        }
        int room = Math.min(POP_CHUNK, Math.max(Integer.highestOneBit(Math.max(chunk - 1, 1)) << 1, 8));
        taken = new int[room];
        candidates = new int[room * (arity - 1) + 1];
        popped = new long[room * POPPED_STRIDE];
        holes = new long[room];
    }

    /**
     * Removes the {@code count} timers whose slots {@link #takeFirst} wrote into {@link #taken} (a subtree at the
     * root, in firing order), keeping their keys and handles in {@link #popped} for the report. They leave in firing
     * order; then each hole they left below the new end of the array, deepest first, takes one of the last entries
     * and sifts it down (Floyd's heap construction, confined to the holes). When a hole is filled every hole below it
     * has been, so its subtree is a heap, and every entry that is not taken fires after every taken one, so nothing
     * moves up. The holes' subtrees are disjoint, so their sifts do not wait for one another: the memory system can
     * fetch one's cache lines while another's are in flight, which root pops one after another cannot do.
     */
    private void removeTaken(int count) {
        changes++;
        for (int i = 0; i < count; i++) {
            int slot = taken[i];
            int at = i * POPPED_STRIDE;
            popped[at] = fireTimeAt(slot);
            popped[at + 1] = tieBreaks[tieAt(slot)];
            popped[at + 2] = tieBreaks[tieAt(slot) + 1];
            popped[at + 3] = 0;
            holes[i] = (long) slot << 32 | i;
            int handle = handleAt(slot);
            listener.removed(handle, slot);
            slots[handle] = NONE; // out of the heap; its record and index entry go after the report
        }
        Arrays.sort(holes, 0, count); // by slot: filled from the deepest up
        int newSize = size - count;
        int last = size - 1;
        size = newSize;
        for (int h = count - 1; h >= 0 && (int) (holes[h] >>> 32) >= newSize; h--) {
            count--; // a hole past the new end needs no filling
        }
        // Traced, one hole at a time, so that the steps tell one sift after another; untraced, up to SIFT_GROUP
        // holes of one level sift in lockstep, so that their cache misses are in flight together. The holes' subtrees
        // are disjoint, so both orders write the same array.
        int group = listener == HeapListener.NONE ? SIFT_GROUP : 1;
        for (int h = count - 1; h >= 0; ) {
            int levelStart = levelStart((int) (holes[h] >>> 32));
            int g = 0;
            for (; g < group && h >= 0 && (int) (holes[h] >>> 32) >= levelStart; g++, h--) {
                while (slots[handleAt(last)] == NONE) {
                    last--; // a taken timer's slot, not an entry to move
                }
                int moved = handleAt(last);
                siftHoles[g] = (int) (holes[h] >>> 32);
                siftFired[g] = (int) holes[h];
                siftKeys[g * 3] = fireTimeAt(last);
                siftKeys[g * 3 + 1] = tieBreaks[tieAt(last)];
                siftKeys[g * 3 + 2] = sequenceAt(last);
                lift(last--, moved);
            }
            siftDownTogether(g);
        }
        levelsMoved = 0;
    }

    /** The first slot of the level that {@code slot} is on. */
    private int levelStart(int slot) {
        int start = 0;
        for (int next = 1; next <= slot; next = next * arity + 1) {
            start = next;
        }
        return start;
    }

    /**
     * Sifts down the first {@code count} entries in hand ({@link #siftKeys}) from their holes ({@link #siftHoles}),
     * one level of each in turn, as {@link #siftDown} would one after another; notes each one's levels against the
     * fired timer whose hole it fills.
     */
    private void siftDownTogether(int count) {
        int active = count;
        int[] levels = siftLevels;
        Arrays.fill(levels, 0, count, 0);
        while (active > 0) {
            // First only load each hole's children (their fireTimes and tie-break words: one line each at arity 4),
            // a loop without a branch on what it loads, so all the misses start at once; the compares below, whose
            // mispredicted branches would discard loads issued after them, then find the lines in cache.
            long touch = 0;
            for (int j = 0; j < count; j++) {
                long first = (long) siftHoles[j] * arity + 1;
                if (first > 0 && first < size) {
                    touch += fireTimes[timeAt((int) first)] + tieBreaks[tieAt((int) first)];
                }
            }
            touched += touch;
            active = 0;
            for (int j = 0; j < count; j++) {
                int hole = siftHoles[j];
                if (hole < 0) {
                    continue;
                }
                long fireTime = siftKeys[j * 3];
                long priorityAndHandle = siftKeys[j * 3 + 1];
                long sequence = siftKeys[j * 3 + 2];
                int handle = (int) priorityAndHandle;
                int priority = (int) (priorityAndHandle >> 32);
                int best = earliestChild(hole);
                boolean bestPrecedes = false;
                if (best != NONE) {
                    long bestFireTime = fireTimes[timeAt(best)];
                    bestPrecedes = bestFireTime < fireTime || bestFireTime == fireTime && FiringOrder.compare(
                            bestFireTime, priorityAt(best), sequenceAt(best), fireTime, priority, sequence) < 0;
                    listener.compared(handle, hole, fireTime, priority, best, !bestPrecedes);
                }
                if (bestPrecedes) {
                    write(hole, fireTimes[timeAt(best)], tieBreaks[tieAt(best)], tieBreaks[tieAt(best) + 1]);
                    siftHoles[j] = best;
                    levels[j]++;
                    active++;
                } else {
                    write(hole, fireTime, priorityAndHandle, sequence);
                    siftHoles[j] = -1;
                    popped[siftFired[j] * POPPED_STRIDE + 3] = levels[j];
                }
            }
        }
    }

    /** Reports the first {@code count} timers of {@link #popped} to {@code fired}, then forgets them. */
    private void reportAndRelease(int count, FiredTimers fired) {
        long touched = 0;
        for (int at = 0; at < count * POPPED_STRIDE; at += POPPED_STRIDE) {
            touched += records.touch((int) popped[at + 1]); // independent loads: all in flight together
        }
        for (int at = 0; at < count * POPPED_STRIDE; at += POPPED_STRIDE) {
            long priorityAndHandle = popped[at + 1];
            fired.fired((int) priorityAndHandle, popped[at], (int) (priorityAndHandle >> 32), popped[at + 2],
                    (int) popped[at + 3]);
        }
        for (int at = 0; at < count * POPPED_STRIDE; at += POPPED_STRIDE) {
            touched += records.touchIndexEntry((int) popped[at + 1]);
        }
        for (int at = 0; at < count * POPPED_STRIDE; at += POPPED_STRIDE) {
            records.release((int) popped[at + 1]);
        }
        this.touched += touched;
    }

    /**
     * Gives a pending timer a new fireTime and priority (sequence kept) and counts one more version. Moves it up
     * when the new key precedes the old one, down when it follows, and not at all when equal.
     */
    public void update(int handle, long newFireTime, int newPriority) {
        changes++;
        int slot = slotOf(handle);
        long sequence = sequenceAt(slot);
        int direction = FiringOrder.compare(newFireTime, newPriority, sequence,
                fireTimeAt(slot), priorityAt(slot), sequence);
        records.countVersion(handle);
        if (direction == 0) {
            return;
        }
        lift(slot, handle);
        if (direction < 0) {
            siftUp(slot, handle, newFireTime, newPriority, sequence);
        } else {
            siftDown(slot, handle, newFireTime, newPriority, sequence);
        }
    }

    /**
     * Replaces an empty heap's contents with {@code timers} in O(n): appends them unordered, then sifts down every
     * internal slot from the last parent to the root (Floyd). Slots are recorded by {@link #write} during that
     * pass, so the index describes the final layout.
     */
    public void bulkLoad(List<Timer> timers, ToLongFunction<Timer> createdAtWall) {
        if (size != 0) {
            throw new IllegalStateException("bulkLoad needs an empty heap, size is " + size);
        }
        changes++;
        List<Timer> byCreation = new ArrayList<>(timers);
        byCreation.sort(Comparator.comparingLong(Timer::sequence));
        ensureSlotCapacity(byCreation.size());
        for (Timer timer : byCreation) {
            int hash = records.hash(timer.id());
            if (records.find(timer.id(), hash) != NONE) {
                clear();
                throw new IllegalArgumentException("duplicate id in bulk load: " + timer.id());
            }
            int handle = newHandle(timer.id(), hash, Math.toIntExact(timer.version()), timer.createdAt(),
                    createdAtWall.applyAsLong(timer), timer.payload(), timer.traceContext(), timer.key());
            write(size++, handle, timer.fireTime(), timer.priority(), timer.sequence());
        }
        for (int slot = (size - 2) / arity; slot >= 0 && size > 1; slot--) {
            int handle = handleAt(slot);
            long fireTime = fireTimeAt(slot);
            int priority = priorityAt(slot);
            long sequence = sequenceAt(slot);
            lift(slot, handle);
            siftDown(slot, handle, fireTime, priority, sequence);
        }
        levelsMoved = 0;
    }

    public void clear() {
        changes++;
        size = 0;
        taken = null; // popDue's scratch goes with the rest of a drained burst's memory
        candidates = null;
        popped = null;
        holes = null;
        allocate(INITIAL_CAPACITY);
        records.clear(INITIAL_CAPACITY);
    }

    /** The timer in heap slot {@code slot}, as stored (heap-array order, not firing order). */
    public HeapView.Cell cell(int slot) {
        return new HeapView.Cell(slot, idOf(handleAt(slot)), fireTimeAt(slot), priorityAt(slot), sequenceAt(slot));
    }

    /**
     * Copies the heap in one array copy per field: O(n) but only memory bandwidth, so the clock's lock is held
     * briefly. The copy is read later, without the lock, to write a snapshot.
     */
    public HeapImage image() {
        return new HeapImage(size, Arrays.copyOf(fireTimes, timeAt(size)), Arrays.copyOf(tieBreaks, tieAt(size)),
                records.frozenCopy());
    }

    // ---- sifting: every slot write goes through write() ----

    private void removeAt(int slot) {
        changes++;
        int removed = handleAt(slot);
        listener.removed(removed, slot);
        // Unindex and release first: for a fired timer the bucket (found from the hash in its record) is a miss of its
        // own, which then overlaps with the sift below instead of following it.
        forget(removed);
        fillHole(slot);
        releaseIfDrained();
    }

    /**
     * Fills the hole that a removed timer left at {@code slot} with the last entry, which moves up or down from
     * there; the heap is one shorter afterwards.
     */
    private void fillHole(int slot) {
        int last = --size;
        if (slot != last) {
            int moved = handleAt(last);
            long fireTime = fireTimeAt(last);
            int priority = priorityAt(last);
            long sequence = sequenceAt(last);
            lift(last, moved);
            // The last entry may belong above or below the hole. Choose the direction before writing it anywhere:
            // a sift starts from a hole, so sifting down (which writes) and then up would record a move into an
            // occupied cell. Preceding the hole's parent means preceding every child too, so up excludes down.
            int parent = (slot - 1) / arity;
            if (slot == 0) {
                popRootBottomUp(moved, fireTime, priority, sequence);
            } else if (slot > 0 && FiringOrder.compare(fireTime, priority, sequence,
                    fireTimeAt(parent), priorityAt(parent), sequenceAt(parent)) < 0) {
                siftUp(slot, moved, fireTime, priority, sequence);
            } else {
                siftDown(slot, moved, fireTime, priority, sequence);
            }
        }
    }

    private void releaseIfDrained() {
        if (size == 0 && records.capacity() > SHRINK_ABOVE) {
            clear(); // give the memory of a drained burst back rather than keep its peak forever
        }
    }

    /** Moves the hole at {@code slot} up until {@code handle}'s key fits; returns the slot it was written to. */
    private int siftUp(int slot, int handle, long fireTime, int priority, long sequence) {
        while (slot > 0) {
            int parent = (slot - 1) / arity;
            long parentFireTime = fireTimes[timeAt(parent)];
            long parentPriorityAndHandle = tieBreaks[tieAt(parent)];
            long parentSequence = tieBreaks[tieAt(parent) + 1];
            boolean precedes = FiringOrder.compare(fireTime, priority, sequence,
                    parentFireTime, (int) (parentPriorityAndHandle >> 32), parentSequence) < 0;
            listener.compared(handle, slot, fireTime, priority, parent, precedes);
            if (!precedes) {
                break;
            }
            write(slot, parentFireTime, parentPriorityAndHandle, parentSequence);
            slot = parent;
            levelsMoved++;
        }
        write(slot, handle, fireTime, priority, sequence);
        return slot;
    }

    /** Moves the hole at {@code slot} down until {@code handle}'s key fits; returns the slot it was written to. */
    private int siftDown(int slot, int handle, long fireTime, int priority, long sequence) {
        while (true) {
            int best = earliestChild(slot);
            if (best == NONE) {
                break;
            }
            long bestFireTime = fireTimes[timeAt(best)];
            long bestPriorityAndHandle = tieBreaks[tieAt(best)];
            long bestSequence = tieBreaks[tieAt(best) + 1];
            boolean bestPrecedes = FiringOrder.compare(bestFireTime, (int) (bestPriorityAndHandle >> 32),
                    bestSequence, fireTime, priority, sequence) < 0;
            listener.compared(handle, slot, fireTime, priority, best, !bestPrecedes);
            if (!bestPrecedes) {
                break;
            }
            write(slot, bestFireTime, bestPriorityAndHandle, bestSequence);
            slot = best;
            levelsMoved++;
        }
        write(slot, handle, fireTime, priority, sequence);
        return slot;
    }

    /**
     * Refills the root's hole with {@code handle} (the former last entry) bottom-up: moves the earliest child up
     * level by level to a leaf, then sifts {@code handle} up from there. The last entry almost always belongs near
     * the bottom, so this skips the comparison with it at every level on the way down. The min-child path is
     * sorted, so it ends in the same slot as {@link #siftDown} would and moves the same number of levels. Traced, the
     * way down shows as moves of the earliest child into the hole, without compares (the entry in hand takes no part
     * in them), and the way back up as an ordinary sift up.
     */
    private void popRootBottomUp(int handle, long fireTime, int priority, long sequence) {
        int hole = 0;
        int depth = 0;
        for (int best = earliestChild(hole); best != NONE; best = earliestChild(hole)) {
            write(hole, fireTimes[timeAt(best)], tieBreaks[tieAt(best)], tieBreaks[tieAt(best) + 1]);
            hole = best;
            depth++;
        }
        int movedBefore = levelsMoved;
        siftUp(hole, handle, fireTime, priority, sequence);
        int movedBack = levelsMoved - movedBefore;
        levelsMoved = movedBefore + depth - movedBack; // net levels, as the top-down sift counts them
    }

    /** The child of {@code slot} that fires first, or {@link #NONE} when {@code slot} is a leaf. */
    private int earliestChild(int slot) {
        int first = slot * arity + 1;
        if (first >= size) {
            return NONE;
        }
        int end = Math.min(first + arity, size);
        int best = first;
        long bestFireTime = fireTimes[timeAt(first)];
        for (int child = first + 1; child < end; child++) {
            long fireTime = fireTimes[timeAt(child)];
            // Most children lose on fireTime alone; read the rest of the key only on a tie.
            if (fireTime < bestFireTime || fireTime == bestFireTime && FiringOrder.compare(fireTime,
                    priorityAt(child), sequenceAt(child), bestFireTime, priorityAt(best), sequenceAt(best)) < 0) {
                best = child;
                bestFireTime = fireTime;
            }
        }
        return best;
    }

    /** Takes {@code handle} out of {@code slot}, leaving a hole to sift. Call only when slot holds handle. */
    private void lift(int slot, int handle) {
        listener.lifted(handle, slot);
        slots[handle] = NONE;
    }

    /**
     * The one place that stores a timer in a heap slot: writes the keys and the handle into the slot and the slot
     * into {@code slots[handle]}, so the array and the index cannot drift apart.
     */
    private void write(int slot, int handle, long fireTime, int priority, long sequence) {
        write(slot, fireTime, ((long) priority << 32) | (handle & 0xFFFF_FFFFL), sequence);
    }

    /** {@link #write} with the middle key word as stored: a sift moves a neighbour's words without unpacking. */
    private void write(int slot, long fireTime, long priorityAndHandle, long sequence) {
        int handle = (int) priorityAndHandle;
        listener.writing(handle, slot);
        fireTimes[timeAt(slot)] = fireTime;
        int tie = tieAt(slot);
        tieBreaks[tie] = priorityAndHandle;
        tieBreaks[tie + 1] = sequence;
        slots[handle] = slot;
    }

    int compareSlots(int a, int b) {
        return FiringOrder.compare(fireTimeAt(a), priorityAt(a), sequenceAt(a), fireTimeAt(b), priorityAt(b),
                sequenceAt(b));
    }

    // ---- handles and storage ----

    /** Stores a new timer's record; its slot stays -1 until {@link #write} puts it in the heap. */
    private int newHandle(String id, int hash, int version, long createdAt, long createdAtWall, String payload,
                          String traceContext, String key) {
        int handle = records.add(id, hash, version, createdAt, createdAtWall, payload, traceContext, key);
        if (handle >= slots.length) {
            slots = Arrays.copyOf(slots, records.capacity());
        }
        slots[handle] = NONE;
        return handle;
    }

    /** Marks a leaving timer out of the heap and releases its handle (and index entry). */
    private void forget(int handle) {
        slots[handle] = NONE;
        records.release(handle);
    }

    private void allocate(int capacity) {
        fireTimes = new long[timeAt(capacity)];
        tieBreaks = new long[tieAt(capacity)];
        slots = new int[capacity];
    }

    private void ensureSlotCapacity(int needed) {
        if (needed > slotCapacity()) {
            int grown = TimerRecords.grownCapacity(slotCapacity(), needed);
            fireTimes = Arrays.copyOf(fireTimes, timeAt(grown));
            tieBreaks = Arrays.copyOf(tieBreaks, tieAt(grown));
        }
    }
}
