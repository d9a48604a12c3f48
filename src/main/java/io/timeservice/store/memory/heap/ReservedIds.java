package io.timeservice.store.memory.heap;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The ids a clock keeps reserved after their timers left the heap (its dedupe window), stored beside the pending
 * ids in the heap's own {@link IdIndex}: an add asks one probe sequence whether its id is pending, reserved or free
 * ({@link IndexedTimerHeap#lookup}) instead of asking the index and then a second map. What a reservation means, its
 * window and its budget are the memory clock's ({@code Reservations}); this class only stores them.
 *
 * <p>Entries. Reservation number {@code r} is indexed under the id's {@link IdIndex#hash} as the negative handle
 * {@link #entryOf entryOf(r)} = {@code -r - 2}, which no timer handle (0 and up) and no miss (-1) can be, so the
 * index tells the two kinds apart by sign and a lookup of a pending id never reads a reserved one's String. An id
 * may briefly be indexed both as a pending timer and as a reservation (a clock without a window does not look at
 * reservations it still holds pinned); each kind's lookup sees only its own entry.
 *
 * <p>Layout, by number, in flat arrays: the id ({@code ids}, null once forgotten), its cached hash ({@code hashes},
 * so an entry is unindexed without hashing the id again; the next free number while free), the time its window
 * began or its state's time ({@code times}), the sequence of the timer that left ({@code sequences}), and
 * {@code marks}: the state's ordinal in the low 8 bits, above them the places the number holds in the start queue.
 * The start queue is a ring of numbers in the order their windows began (which is their expiry order, every window
 * having the clock's one length): a number whose window starts again is queued again, and a number forgotten while
 * it still has places is reused only after the queue has passed them all, so a place never names another id. Per
 * reservation: 28 bytes of arrays, 4 of queue, and 10.7 to 16 bytes of index buckets (at the index's default load),
 * each array up to twice that after growing by doubling.
 *
 * <p>Lockstep, checked by {@link HeapInvariants}: the index holds exactly one entry {@code entryOf(r)}, under
 * {@code hashes[r]}, for each live number, and no other negative entry. Not thread-safe: the heap's owner calls it
 * under its lock.
 */
public final class ReservedIds {

    /** No reservation. */
    public static final int NONE = -1;
    private static final int INITIAL_CAPACITY = 16;
    /** Arrays larger than this are released when no reservation and no queued place is left. */
    private static final int SHRINK_ABOVE = 4096;
    private static final int STATE_BITS = 8;
    private static final int STATE_MASK = (1 << STATE_BITS) - 1;

    private final IdIndex index;
    private final IdIndex.IdsByHandle idOfEntry = this::idOfEntry;
    private String[] ids;
    private int[] hashes;
    private long[] times;
    private long[] sequences;
    private int[] marks;
    /** Numbers used so far: every number in use or free is below it. */
    private int limit;
    private int free = NONE;
    private int size;
    /** The start queue: a ring of {@code queued} numbers from {@code head}. */
    private int[] queue;
    private int head;
    private int queued;
    /** Counts every change, as the heap counts its own, so a cached invariant report knows when it is stale. */
    private long changes;

    ReservedIds(IdIndex index) {
        this.index = index;
        allocate(INITIAL_CAPACITY);
        queue = new int[INITIAL_CAPACITY];
    }

    /** An independent copy of {@code source} that indexes into {@code index}, a copy of the source's index. */
    ReservedIds(ReservedIds source, IdIndex index) {
        this.index = index;
        ids = Arrays.copyOf(source.ids, Math.max(source.limit, 1));
        hashes = Arrays.copyOf(source.hashes, ids.length);
        times = Arrays.copyOf(source.times, ids.length);
        sequences = Arrays.copyOf(source.sequences, ids.length);
        marks = Arrays.copyOf(source.marks, ids.length);
        limit = source.limit;
        free = source.free;
        size = source.size;
        queue = new int[Math.max(Integer.highestOneBit(Math.max(source.queued, 1)) << 1, INITIAL_CAPACITY)];
        for (int i = 0; i < source.queued; i++) {
            queue[i] = source.queue[(source.head + i) & (source.queue.length - 1)];
        }
        queued = source.queued;
        changes = source.changes;
    }

    /** The index entry (a negative handle) of reservation number {@code number}. */
    static int entryOf(int number) {
        return -number - 2;
    }

    /** Whether an answer of {@link IndexedTimerHeap#lookup} names a reservation rather than a pending timer or none. */
    public static boolean isReservation(int found) {
        return found < NONE;
    }

    /** The reservation number that the index entry (or {@link IndexedTimerHeap#lookup} answer) {@code found} names. */
    public static int numberOf(int found) {
        return -found - 2;
    }

    /** Reservations held. */
    public int size() {
        return size;
    }

    /** The change count: see {@link #changes}. */
    long changes() {
        return changes;
    }

    /** The number of the reservation of {@code id}, or {@link #NONE}. */
    public int find(String id) {
        int entry = index.find(id, index.hash(id), idOfEntry);
        return entry == NONE ? NONE : numberOf(entry);
    }

    /** The id of index entry {@code entry} when it is a live reservation's, else null (a pending timer's entry). */
    String idOfEntry(int entry) {
        return entry < NONE ? ids[numberOf(entry)] : null;
    }

    /** Reserves {@code id}, which holds no reservation (see {@link #find}), and returns its number. */
    public int add(String id, int state, long time, long sequence) {
        changes++;
        int number;
        if (free != NONE) {
            number = free;
            free = hashes[number];
        } else {
            if (limit == ids.length) {
                grow(TimerRecords.grownCapacity(ids.length, limit + 1));
            }
            number = limit++;
        }
        int hash = index.hash(id);
        ids[number] = id;
        hashes[number] = hash;
        marks[number] = state;
        times[number] = time;
        sequences[number] = sequence;
        index.insert(hash, entryOf(number));
        size++;
        return number;
    }

    /** Gives the live reservation {@code number} these fields. */
    public void set(int number, int state, long time, long sequence) {
        changes++;
        marks[number] = (marks[number] & ~STATE_MASK) | state;
        times[number] = time;
        sequences[number] = sequence;
    }

    public String id(int number) {
        return ids[number];
    }

    public int state(int number) {
        return marks[number] & STATE_MASK;
    }

    public long time(int number) {
        return times[number];
    }

    public long sequence(int number) {
        return sequences[number];
    }

    /** Whether {@code number} is held now: not forgotten (it may still have places in the start queue). */
    public boolean isLive(int number) {
        return ids[number] != null;
    }

    /** Places {@code number} holds in the start queue. */
    public int places(int number) {
        return marks[number] >>> STATE_BITS;
    }

    // ---- the start queue ----

    /** Queues {@code number}, which is live, at the end of the start queue: its window begins now. */
    public void enqueue(int number) {
        changes++;
        if (queued == queue.length) {
            int[] grown = new int[queue.length * 2];
            for (int i = 0; i < queued; i++) {
                grown[i] = queue[(head + i) & (queue.length - 1)];
            }
            queue = grown;
            head = 0;
        }
        queue[(head + queued++) & (queue.length - 1)] = number;
        marks[number] += 1 << STATE_BITS;
    }

    /** The number at the head of the start queue, or {@link #NONE} when it is empty. */
    public int first() {
        return queued == 0 ? NONE : queue[head];
    }

    /** Takes the head place off the start queue; its number is reused once forgotten and out of the queue. */
    public void dequeue() {
        changes++;
        int number = queue[head];
        head = (head + 1) & (queue.length - 1);
        queued--;
        marks[number] -= 1 << STATE_BITS;
        if (ids[number] == null && places(number) == 0) {
            recycle(number);
        }
        shrinkIfEmpty();
    }

    // ---- forgetting ----

    /** Forgets the live reservation {@code number}: unindexed now, its number reused once out of the queue. */
    public void forget(int number) {
        changes++;
        index.remove(hashes[number], entryOf(number));
        ids[number] = null;
        size--;
        if (places(number) == 0) {
            recycle(number);
        }
        shrinkIfEmpty();
    }

    /** Forgets every reservation and empties the start queue; the pending timers' entries stay indexed. */
    public void clear() {
        changes++;
        if (index.size() == size) {
            index.clear();
        } else {
            forEach(number -> index.remove(hashes[number], entryOf(number)));
        }
        allocate(INITIAL_CAPACITY);
        queue = new int[INITIAL_CAPACITY];
        head = 0;
        queued = 0;
        limit = 0;
        free = NONE;
        size = 0;
    }

    /** Calls {@code visitor} with every live reservation's number, in number order. */
    public void forEach(IntConsumer visitor) {
        for (int number = 0; number < limit; number++) {
            if (ids[number] != null) {
                visitor.accept(number);
            }
        }
    }

    /** The hash {@code number} is indexed under, for the invariant check. */
    int cachedHash(int number) {
        return hashes[number];
    }

    /** Numbers in use or free are below this. */
    int limit() {
        return limit;
    }

    private void recycle(int number) {
        marks[number] = 0;
        hashes[number] = free;
        free = number;
    }

    private void shrinkIfEmpty() {
        if (size == 0 && queued == 0 && ids.length > SHRINK_ABOVE) {
            allocate(INITIAL_CAPACITY);
            queue = new int[INITIAL_CAPACITY];
            head = 0;
            limit = 0;
            free = NONE;
        }
    }

    private void grow(int capacity) {
        ids = Arrays.copyOf(ids, capacity);
        hashes = Arrays.copyOf(hashes, capacity);
        times = Arrays.copyOf(times, capacity);
        sequences = Arrays.copyOf(sequences, capacity);
        marks = Arrays.copyOf(marks, capacity);
    }

    private void allocate(int capacity) {
        ids = new String[capacity];
        hashes = new int[capacity];
        times = new long[capacity];
        sequences = new long[capacity];
        marks = new int[capacity];
    }
}
