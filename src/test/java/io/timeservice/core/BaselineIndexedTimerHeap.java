package io.timeservice.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * An indexed d-ary min-heap of timers in flat primitive arrays: the firing order's keys in heap order, everything
 * else by a stable per-timer handle, and an {@link BaselineIdIndex} from id to handle.
 *
 * <p>Layout. Slot {@code k}'s children are slots {@code k*d+1 .. k*d+d}; its parent is {@code (k-1)/d}. The heap
 * array ({@code keys}: fireTime, priority with handle, sequence, interleaved per slot) is indexed by slot, so a sift
 * compares keys without chasing a pointer. Everything that does not take part in comparisons (id, payload, version,
 * creation times, the age list) is indexed by handle, a small int that stays put while the timer is pending and is
 * recycled after it leaves. {@code slots[handle]} is the timer's current heap slot, or -1 while it is lifted out
 * for a sift or not in use.
 *
 * <p>Invariants, true between public calls (see {@link #checkInvariants}):
 * <ul>
 *   <li>heap order: no slot's key precedes its parent's key (fireTime, then priority, then sequence);</li>
 *   <li>lockstep: {@code slots[handle at slot k] == k} for every slot k below size, and the id index maps
 *       {@code ids[h]} to h for exactly the handles in the heap. Only {@link #write} stores a handle into a slot,
 *       and it writes {@code slots} in the same step, so no sift can leave the two apart. The id index holds
 *       handles, not slots, so it changes only on insert and remove, never during a sift.</li>
 * </ul>
 *
 * <p>Cost: insert O(log_d n); remove or update by handle O(d log_d n); find by id expected O(1); peek O(1);
 * {@link #firstInOrder} O(k d log k) without touching the rest of the heap; {@link #bulkLoad} O(n).
 * Steady-state operations allocate nothing; arrays grow by doubling and return to their initial size once empty.
 *
 * <p>Also keeps every pending timer on a doubly linked list in creation (= sequence) order, so the oldest pending
 * timer is known in O(1) for the oldest-job-age metric.
 *
 * <p>Not thread-safe: {@link TimerScheduler} owns one and calls it only while holding its lock.
 */
/** Benchmark-only copy of the heap as of commit 7ec1c52, for one side-by-side A/B run. */
final class BaselineIndexedTimerHeap {

    static final int NONE = -1;
    private static final int INITIAL_CAPACITY = 16;
    private static final int KEY_STRIDE = 3;
    /** Arrays larger than this are released when the heap drains empty. */
    private static final int SHRINK_ABOVE = 4096;

    private final int arity;

    /**
     * By heap slot, [0, size), three longs per slot so that a sift reads one slot's whole key and its handle from
     * one place (children of a node are adjacent: d slots span d * 24 bytes): {@code fireTime}, then
     * {@code priority << 32 | handle}, then {@code sequence}.
     */
    private long[] keys;
    private int size;

    // By handle, [0, handleLimit).
    private String[] ids;
    private String[] payloads;
    private long[] createdAts;
    private long[] createdAtWallMillis;
    private int[] versions;
    private int[] slots;
    private int[] olderHandles;
    /** Newer neighbour on the age list while in use; next free handle while free. */
    private int[] newerHandles;
    private int handleLimit;
    private int freeHandle = NONE;
    private int oldestHandle = NONE;
    private int newestHandle = NONE;

    private final BaselineIdIndex index = new BaselineIdIndex();

    /** Non-null only while a traced operation runs. */
    private List<TraceStep> trace;
    /** Levels moved by sifts since the last {@link #takeLevelsMoved}. */
    private int levelsMoved;

    BaselineIndexedTimerHeap(int arity) {
        if (arity < 2) {
            throw new IllegalArgumentException("arity must be >= 2: " + arity);
        }
        this.arity = arity;
        allocate(INITIAL_CAPACITY);
    }

    int arity() {
        return arity;
    }

    int size() {
        return size;
    }

    /** Records every step of the following operations into {@code steps}; {@code null} stops recording. */
    void traceInto(List<TraceStep> steps) {
        this.trace = steps;
    }

    int takeLevelsMoved() {
        int levels = levelsMoved;
        levelsMoved = 0;
        return levels;
    }

    // ---- slot accessors: the only readers of the interleaved key array ----

    private long fireTimeAt(int slot) {
        return keys[slot * KEY_STRIDE];
    }

    private int priorityAt(int slot) {
        return (int) (keys[slot * KEY_STRIDE + 1] >> 32);
    }

    private int handleAt(int slot) {
        return (int) keys[slot * KEY_STRIDE + 1];
    }

    private long sequenceAt(int slot) {
        return keys[slot * KEY_STRIDE + 2];
    }

    /** Slots the key array holds before it must grow. */
    int slotCapacity() {
        return keys.length / KEY_STRIDE;
    }

    /** Handles the handle-indexed arrays hold before they must grow. */
    int handleCapacity() {
        return ids.length;
    }

    // ---- lookups by id and handle ----

    /** The handle of the pending timer with this id, or {@link #NONE}. */
    int find(String id) {
        return index.find(id, ids);
    }

    /** The handle at the root, the next timer to fire, or {@link #NONE} when empty. */
    int peek() {
        return size == 0 ? NONE : handleAt(0);
    }

    int oldest() {
        return oldestHandle;
    }

    long fireTime(int handle) {
        return fireTimeAt(slots[handle]);
    }

    long createdAt(int handle) {
        return createdAts[handle];
    }

    long createdAtWallMillis(int handle) {
        return createdAtWallMillis[handle];
    }

    Timer snapshot(int handle) {
        int slot = slots[handle];
        return new Timer(ids[handle], fireTimeAt(slot), priorityAt(slot), sequenceAt(slot), versions[handle],
                createdAts[handle], payloads[handle]);
    }

    // ---- mutations ----

    /**
     * Adds a timer and returns its handle. Call only when {@link #find} returned {@link #NONE} for {@code id} and
     * {@code sequence} is greater than every sequence in the heap.
     */
    int insert(String id, long fireTime, int priority, long sequence, int version, long createdAt,
               long createdAtWall, String payload) {
        int handle = newHandle(id, version, createdAt, createdAtWall, payload);
        index.insert(id, handle);
        linkNewest(handle);
        ensureSlotCapacity(size + 1);
        siftUp(size++, handle, fireTime, priority, sequence);
        return handle;
    }

    /** Removes the pending timer {@code handle}; the handle may be reused by a later insert. */
    void remove(int handle) {
        removeAt(slots[handle]);
    }

    /** Removes and forgets the root. Call only when not empty. */
    void removeRoot() {
        removeAt(0);
    }

    /**
     * Gives a pending timer a new fireTime and priority (sequence kept) and counts one more version. Moves it up
     * when the new key precedes the old one, down when it follows, and not at all when equal.
     */
    void update(int handle, long newFireTime, int newPriority) {
        int slot = slots[handle];
        long sequence = sequenceAt(slot);
        int direction = FiringOrder.compare(newFireTime, newPriority, sequence,
                fireTimeAt(slot), priorityAt(slot), sequence);
        versions[handle]++;
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
    void bulkLoad(List<Timer> timers, ToLongFunction<Timer> createdAtWall) {
        if (size != 0) {
            throw new IllegalStateException("bulkLoad needs an empty heap, size is " + size);
        }
        List<Timer> byCreation = new ArrayList<>(timers);
        byCreation.sort(Comparator.comparingLong(Timer::sequence));
        ensureSlotCapacity(byCreation.size());
        for (Timer timer : byCreation) {
            if (index.find(timer.id(), ids) != NONE) {
                clear();
                throw new IllegalArgumentException("duplicate id in bulk load: " + timer.id());
            }
            int handle = newHandle(timer.id(), Math.toIntExact(timer.version()), timer.createdAt(),
                    createdAtWall.applyAsLong(timer), timer.payload());
            index.insert(timer.id(), handle);
            linkNewest(handle);
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

    void clear() {
        size = 0;
        handleLimit = 0;
        freeHandle = NONE;
        oldestHandle = NONE;
        newestHandle = NONE;
        index.clear();
        allocate(INITIAL_CAPACITY);
    }

    // ---- ordered views ----

    /**
     * The first {@code limit} handles in firing order, without copying or sorting the heap: a best-first walk from
     * the root with a candidate queue of the frontier (each taken slot adds its d children). Costs
     * O(limit * d * log(limit * d)).
     */
    int[] firstInOrder(int limit) {
        int count = Math.min(limit, size);
        int[] result = new int[count];
        if (count == 0) {
            return result;
        }
        // The frontier is a binary min-heap of slots; each step takes one slot and adds at most d children.
        int[] frontier = new int[(int) Math.min(size, 1L + (long) count * (arity - 1))];
        int frontierSize = 1;
        frontier[0] = 0;
        for (int i = 0; i < count; i++) {
            int slot = frontier[0];
            result[i] = handleAt(slot);
            frontierSize = popFrontier(frontier, frontierSize);
            int first = slot * arity + 1;
            for (int child = first; child < first + arity && child < size; child++) {
                frontierSize = pushFrontier(frontier, frontierSize, child);
            }
        }
        return result;
    }

    private int pushFrontier(int[] frontier, int frontierSize, int slot) {
        int at = frontierSize;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (compareSlots(slot, frontier[parent]) >= 0) {
                break;
            }
            frontier[at] = frontier[parent];
            at = parent;
        }
        frontier[at] = slot;
        return frontierSize + 1;
    }

    private int popFrontier(int[] frontier, int frontierSize) {
        int last = frontier[--frontierSize];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= frontierSize) {
                break;
            }
            if (child + 1 < frontierSize && compareSlots(frontier[child + 1], frontier[child]) < 0) {
                child++;
            }
            if (compareSlots(frontier[child], last) >= 0) {
                break;
            }
            frontier[at] = frontier[child];
            at = child;
        }
        frontier[at] = last;
        return frontierSize;
    }

    /** The timer in heap slot {@code slot}, as stored (heap-array order, not firing order). */
    HeapView.Cell cell(int slot) {
        return new HeapView.Cell(slot, ids[handleAt(slot)], fireTimeAt(slot), priorityAt(slot), sequenceAt(slot));
    }

    /**
     * Copies the heap in one array copy per field: O(n) but only memory bandwidth, so the scheduler lock is held
     * briefly. The copy is read later, without the lock, to write a snapshot.
     */
    Image image() {
        return new Image(size, Arrays.copyOf(keys, size * KEY_STRIDE), ids.clone(), payloads.clone(),
                versions.clone(), createdAts.clone(), createdAtWallMillis.clone());
    }

    /** A frozen copy of the heap's arrays; see {@link #image()}. */
    record Image(int size, long[] keys, String[] ids, String[] payloads, int[] versions, long[] createdAts,
                 long[] createdAtWallMillis) {

        Timer timer(int slot) {
            long priorityAndHandle = keys[slot * KEY_STRIDE + 1];
            int handle = (int) priorityAndHandle;
            return new Timer(ids[handle], keys[slot * KEY_STRIDE], (int) (priorityAndHandle >> 32),
                    keys[slot * KEY_STRIDE + 2], versions[handle], createdAts[handle], payloads[handle]);
        }

        long createdAtWallMillis(int slot) {
            return createdAtWallMillis[(int) keys[slot * KEY_STRIDE + 1]];
        }
    }

    // ---- invariants ----

    /** Checks the four invariants in O(n). {@code now} is the clock that no pending fireTime may be behind. */
    InvariantReport checkInvariants(long now) {
        return new InvariantReport(List.of(checkRootIsEarliest(), checkIndexMatchesHeap(), checkHeapOrder(),
                checkNoOverdue(now)));
    }

    private InvariantReport.Check checkRootIsEarliest() {
        for (int slot = 1; slot < size; slot++) {
            if (compareSlots(slot, 0) < 0) {
                return InvariantReport.Check.failed(InvariantReport.ROOT_IS_EARLIEST,
                        describe(slot) + " fires before the root " + describe(0));
            }
        }
        return InvariantReport.Check.passed(InvariantReport.ROOT_IS_EARLIEST);
    }

    private InvariantReport.Check checkIndexMatchesHeap() {
        String name = InvariantReport.INDEX_MATCHES_HEAP;
        if (index.size() != size) {
            return InvariantReport.Check.failed(name, "index has " + index.size() + " ids, heap has " + size);
        }
        for (int slot = 0; slot < size; slot++) {
            int handle = handleAt(slot);
            if (handle < 0 || handle >= handleLimit || ids[handle] == null) {
                return InvariantReport.Check.failed(name, "slot " + slot + " holds no live timer");
            }
            if (slots[handle] != slot) {
                return InvariantReport.Check.failed(name, "index says " + ids[handle] + " is at slot "
                        + slots[handle] + ", but it sits at slot " + slot);
            }
            if (index.find(ids[handle], ids) != handle) {
                return InvariantReport.Check.failed(name, ids[handle] + " at slot " + slot + " is not indexed");
            }
        }
        int[] dangling = {NONE};
        index.forEachHandle(handle -> {
            int slot = handle < handleLimit ? slots[handle] : NONE;
            if (dangling[0] == NONE && (slot < 0 || slot >= size || handleAt(slot) != handle)) {
                dangling[0] = handle;
            }
        });
        if (dangling[0] != NONE) {
            return InvariantReport.Check.failed(name, "index entry " + ids[dangling[0]] + " points at slot "
                    + slots[dangling[0]] + ", which does not hold it");
        }
        int onAgeList = 0;
        for (int handle = oldestHandle; handle != NONE && onAgeList <= size; handle = newerHandles[handle]) {
            onAgeList++;
        }
        if (onAgeList != size) {
            return InvariantReport.Check.failed(name, "age list has " + onAgeList + " timers, heap has " + size);
        }
        return InvariantReport.Check.passed(name);
    }

    private InvariantReport.Check checkHeapOrder() {
        for (int slot = 1; slot < size; slot++) {
            int parent = (slot - 1) / arity;
            if (compareSlots(slot, parent) < 0) {
                return InvariantReport.Check.failed(InvariantReport.HEAP_ORDER, "child " + describe(slot)
                        + " fires before its parent " + describe(parent));
            }
        }
        return InvariantReport.Check.passed(InvariantReport.HEAP_ORDER);
    }

    private InvariantReport.Check checkNoOverdue(long now) {
        for (int slot = 0; slot < size; slot++) {
            if (fireTimeAt(slot) < now) {
                return InvariantReport.Check.failed(InvariantReport.NO_OVERDUE,
                        describe(slot) + " is overdue at now=" + now);
            }
        }
        return InvariantReport.Check.passed(InvariantReport.NO_OVERDUE);
    }

    private String describe(int slot) {
        int handle = handleAt(slot);
        String id = handle >= 0 && handle < handleLimit ? ids[handle] : "?";
        return id + "@" + slot + " (fireTime " + fireTimeAt(slot) + ", priority " + priorityAt(slot)
                + ", sequence " + sequenceAt(slot) + ")";
    }

    /** Test hook: swaps two array cells without telling the index, as a buggy sift would. */
    void swapCellsWithoutIndexForTest(int a, int b) {
        for (int i = 0; i < KEY_STRIDE; i++) {
            long key = keys[a * KEY_STRIDE + i];
            keys[a * KEY_STRIDE + i] = keys[b * KEY_STRIDE + i];
            keys[b * KEY_STRIDE + i] = key;
        }
    }

    // ---- sifting: every slot write goes through write() ----

    private void removeAt(int slot) {
        int removed = handleAt(slot);
        if (trace != null) {
            trace.add(TraceStep.remove(ids[removed], slot));
        }
        slots[removed] = NONE;
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
            if (slot > 0 && FiringOrder.compare(fireTime, priority, sequence,
                    fireTimeAt(parent), priorityAt(parent), sequenceAt(parent)) < 0) {
                siftUp(slot, moved, fireTime, priority, sequence);
            } else {
                siftDown(slot, moved, fireTime, priority, sequence);
            }
        }
        releaseHandle(removed);
    }

    /** Moves the hole at {@code slot} up until {@code handle}'s key fits; returns the slot it was written to. */
    private int siftUp(int slot, int handle, long fireTime, int priority, long sequence) {
        while (slot > 0) {
            int parent = (slot - 1) / arity;
            boolean precedes = FiringOrder.compare(fireTime, priority, sequence,
                    fireTimeAt(parent), priorityAt(parent), sequenceAt(parent)) < 0;
            if (trace != null) {
                traceCompare(handle, slot, fireTime, priority, parent, precedes);
            }
            if (!precedes) {
                break;
            }
            write(slot, handleAt(parent), fireTimeAt(parent), priorityAt(parent), sequenceAt(parent));
            slot = parent;
            levelsMoved++;
        }
        write(slot, handle, fireTime, priority, sequence);
        return slot;
    }

    /** Moves the hole at {@code slot} down until {@code handle}'s key fits; returns the slot it was written to. */
    private int siftDown(int slot, int handle, long fireTime, int priority, long sequence) {
        while (true) {
            int first = slot * arity + 1;
            if (first >= size) {
                break;
            }
            int best = first;
            int end = Math.min(first + arity, size);
            for (int child = first + 1; child < end; child++) {
                if (compareSlots(child, best) < 0) {
                    best = child;
                }
            }
            boolean bestPrecedes = FiringOrder.compare(fireTimeAt(best), priorityAt(best), sequenceAt(best),
                    fireTime, priority, sequence) < 0;
            if (trace != null) {
                traceCompare(handle, slot, fireTime, priority, best, !bestPrecedes);
            }
            if (!bestPrecedes) {
                break;
            }
            write(slot, handleAt(best), fireTimeAt(best), priorityAt(best), sequenceAt(best));
            slot = best;
            levelsMoved++;
        }
        write(slot, handle, fireTime, priority, sequence);
        return slot;
    }

    /** Takes {@code handle} out of {@code slot}, leaving a hole to sift. Call only when slot holds handle. */
    private void lift(int slot, int handle) {
        if (trace != null) {
            trace.add(TraceStep.lift(ids[handle], slot));
        }
        slots[handle] = NONE;
    }

    /**
     * The one place that stores a timer in a heap slot: writes the keys and the handle into the slot and the slot
     * into the handle's entry, so the array and the index cannot drift apart.
     */
    private void write(int slot, int handle, long fireTime, int priority, long sequence) {
        if (trace != null) {
            int from = slots[handle];
            trace.add(from == NONE ? TraceStep.place(ids[handle], slot) : TraceStep.move(ids[handle], from, slot));
        }
        int base = slot * KEY_STRIDE;
        keys[base] = fireTime;
        keys[base + 1] = ((long) priority << 32) | (handle & 0xFFFF_FFFFL);
        keys[base + 2] = sequence;
        slots[handle] = slot;
    }

    private int compareSlots(int a, int b) {
        return FiringOrder.compare(fireTimeAt(a), priorityAt(a), sequenceAt(a), fireTimeAt(b), priorityAt(b),
                sequenceAt(b));
    }

    private void traceCompare(int handle, int holeSlot, long fireTime, int priority, int otherSlot,
                              boolean precedes) {
        trace.add(TraceStep.compare(ids[handle], holeSlot, ids[handleAt(otherSlot)], otherSlot, precedes,
                FiringOrder.decidingKey(fireTime, priority, fireTimeAt(otherSlot), priorityAt(otherSlot))));
    }

    // ---- handles and the age list ----

    private int newHandle(String id, int version, long createdAt, long createdAtWall, String payload) {
        int handle;
        if (freeHandle != NONE) {
            handle = freeHandle;
            freeHandle = newerHandles[handle];
        } else {
            ensureHandleCapacity(handleLimit + 1);
            handle = handleLimit++;
        }
        ids[handle] = id;
        payloads[handle] = payload;
        versions[handle] = version;
        createdAts[handle] = createdAt;
        createdAtWallMillis[handle] = createdAtWall;
        slots[handle] = NONE;
        return handle;
    }

    private void releaseHandle(int handle) {
        index.remove(ids[handle], handle);
        unlinkFromAgeList(handle);
        ids[handle] = null;
        payloads[handle] = null;
        if (size == 0 && ids.length > SHRINK_ABOVE) {
            clear(); // give the memory of a drained burst back rather than keep its peak forever
            return;
        }
        newerHandles[handle] = freeHandle;
        freeHandle = handle;
    }

    private void linkNewest(int handle) {
        olderHandles[handle] = newestHandle;
        newerHandles[handle] = NONE;
        if (newestHandle == NONE) {
            oldestHandle = handle;
        } else {
            newerHandles[newestHandle] = handle;
        }
        newestHandle = handle;
    }

    private void unlinkFromAgeList(int handle) {
        int older = olderHandles[handle];
        int newer = newerHandles[handle];
        if (older == NONE) {
            oldestHandle = newer;
        } else {
            newerHandles[older] = newer;
        }
        if (newer == NONE) {
            newestHandle = older;
        } else {
            olderHandles[newer] = older;
        }
    }

    // ---- storage ----

    private void allocate(int capacity) {
        keys = new long[capacity * KEY_STRIDE];
        ids = new String[capacity];
        payloads = new String[capacity];
        createdAts = new long[capacity];
        createdAtWallMillis = new long[capacity];
        versions = new int[capacity];
        slots = new int[capacity];
        olderHandles = new int[capacity];
        newerHandles = new int[capacity];
    }

    private void ensureSlotCapacity(int needed) {
        if (needed > slotCapacity()) {
            keys = Arrays.copyOf(keys, grownCapacity(slotCapacity(), needed) * KEY_STRIDE);
        }
    }

    private void ensureHandleCapacity(int needed) {
        if (needed > ids.length) {
            int capacity = grownCapacity(ids.length, needed);
            ids = Arrays.copyOf(ids, capacity);
            payloads = Arrays.copyOf(payloads, capacity);
            createdAts = Arrays.copyOf(createdAts, capacity);
            createdAtWallMillis = Arrays.copyOf(createdAtWallMillis, capacity);
            versions = Arrays.copyOf(versions, capacity);
            slots = Arrays.copyOf(slots, capacity);
            olderHandles = Arrays.copyOf(olderHandles, capacity);
            newerHandles = Arrays.copyOf(newerHandles, capacity);
        }
    }

    private static int grownCapacity(int current, int needed) {
        long doubled = Math.max((long) current * 2, needed);
        if (doubled > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("heap cannot grow past " + current + " timers");
        }
        return (int) doubled;
    }
}
