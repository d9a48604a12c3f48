package io.timeservice.store.memory.heap;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import io.timeservice.model.Timer;

/**
 * What an {@link IndexedTimerHeap} keeps of each timer apart from its firing-order key: a record per handle, the
 * allocator of handles, the {@link IdIndex} from id to handle (which also holds the clock's reserved ids, see
 * {@link ReservedIds}), and the oldest timer ({@link OldestPending}, for the oldest-job-age metric). A handle is a small int that stays put while its timer is pending and is recycled after it
 * leaves, so the heap moves keys without moving records. A handle is in use exactly while its timer is pending.
 *
 * <p>Layout, by handle, in two flat arrays: {@code ints} holds a 20-byte record (version, cached id hash, wall-clock
 * creation second, virtual creation time as two ints) and {@code texts} holds the id beside the payload. Both are
 * read together by snapshots and removals; the heap slot of a handle is not here but in the heap, because every
 * sift level writes it and a 4-byte array caches far better than these records. The wall-clock creation time, used
 * only by the oldest-job-age metric, is kept in whole epoch seconds (an unsigned int: 1970 to 2106).
 *
 * <p>The trace context of the request that added a timer (issue 46) sits in a map by handle, apart: most timers have
 * none (tracing is off unless an OTLP endpoint is set), and a sparse map costs them nothing; it has an entry only
 * for a handle in use whose timer has a context.
 *
 * <p>Invariants: handles in use are below {@link #limit()}; a handle in use has a non-null id and is indexed under
 * the hash cached in its record (so a fired timer is unindexed without loading its id); a free handle has a null id
 * and payload, is not indexed, and is on the free list, which runs through the cached-hash field of free records.
 *
 * <p>Flow-control keys sit in a third array, {@code keys}, by handle, allocated only when the first timer with a key
 * arrives (so a clock that never uses keys pays nothing for them); a free handle's key is null.
 *
 * <p>Cost: {@link #find} expected O(1); every accessor O(1), one array load (two for the creation time, from the
 * same record); {@link #oldest} O(1); {@link #add} O(1) amortized, the arrays growing by doubling; {@link #release}
 * O(1) unless it releases its block's oldest (see {@link OldestPending}). Steady state allocates nothing.
 *
 * <p>Not thread-safe: the heap calls it only while its owner holds the lock.
 */
public final class TimerRecords implements OldestPending.Members {

    private static final int NONE = IndexedTimerHeap.NONE;
    // A handle's record: STRIDE ints from recordAt(handle), 20 bytes.
    private static final int STRIDE = 5;
    private static final int VERSION = 0;
    /**
     * {@link IdIndex#hash} of the id while in use, so the index entry can be removed without reading the id; the
     * next free handle while free. Valid only with the owning heap's index (and the copies of both), whose key it
     * depends on: never written out, recomputed on load.
     */
    private static final int ID_HASH = 1;
    /** Wall-clock creation time in epoch seconds, unsigned. */
    private static final int WALL_SECONDS = 2;
    private static final int CREATED_AT_HIGH = 3;
    private static final int CREATED_AT_LOW = 4;
    // texts: the id at handle * TEXT_STRIDE, its payload right after it.
    private static final int TEXT_STRIDE = 2;

    /** By handle, [0, limit): one record of {@link #STRIDE} ints per handle, see the field offsets. */
    private int[] ints;
    /** By handle, [0, limit): id and payload side by side; both null while the handle is free. */
    private String[] texts;
    /** Handle → trace context, for the handles in use whose timer has one. */
    private final Map<Integer, String> traceContexts;
    /** By handle, [0, limit): the flow-control key, or null; the array itself is null until a key is stored. */
    private String[] keys;
    private int limit;
    private int freeHandle = NONE;
    private final OldestPending oldestPending;
    private final IdIndex index;
    /** The reserved ids, indexed in {@link #index} beside the pending ones; null in a {@link #frozenCopy}. */
    private final ReservedIds reserved;
    /** Names the pending timers' entries of the index only. */
    private final IdIndex.IdsByHandle idOfHandle = this::idOfPending;
    /** Names every entry of the index, pending and reserved. */
    private final IdIndex.IdsByHandle idOfEntry = this::idOfEntry;

    TimerRecords(int capacity) {
        this(capacity, IdIndex.DEFAULT_MAX_LOAD_PERCENT);
    }

    /** Records whose {@link IdIndex} grows past {@code indexMaxLoadPercent} of its buckets (for benchmarks). */
    TimerRecords(int capacity, int indexMaxLoadPercent) {
        allocate(capacity);
        traceContexts = new HashMap<>();
        oldestPending = new OldestPending(this, capacity);
        index = new IdIndex(indexMaxLoadPercent);
        reserved = new ReservedIds(index);
    }

    /** An independent copy of {@code source}, spare capacity left out. */
    TimerRecords(TimerRecords source) {
        ints = Arrays.copyOf(source.ints, recordAt(source.limit));
        texts = Arrays.copyOf(source.texts, source.limit * TEXT_STRIDE);
        keys = source.keys == null ? null : Arrays.copyOf(source.keys, source.limit);
        limit = source.limit;
        traceContexts = new HashMap<>(source.traceContexts);
        freeHandle = source.freeHandle;
        oldestPending = new OldestPending(source.oldestPending, this);
        index = new IdIndex(source.index);
        reserved = new ReservedIds(source.reserved, index);
    }

    /** Records alone, for reading only: see {@link #frozenCopy}. */
    private TimerRecords(int[] ints, String[] texts, Map<Integer, String> traceContexts, String[] keys, int limit) {
        this.ints = ints;
        this.texts = texts;
        this.traceContexts = traceContexts;
        this.keys = keys;
        this.limit = limit;
        oldestPending = null;
        index = null;
        reserved = null;
    }

    /**
     * A copy of the records alone, spare capacity left out, without the index or the oldest-pending tree (so its
     * {@link #find}, {@link #oldest}, {@link #add} and {@link #release} must not be called): two array copies, for
     * a {@link HeapImage} that a snapshot reads later without the lock.
     */
    TimerRecords frozenCopy() {
        return new TimerRecords(Arrays.copyOf(ints, recordAt(limit)), Arrays.copyOf(texts, limit * TEXT_STRIDE),
                traceContexts.isEmpty() ? Map.of() : new HashMap<>(traceContexts),
                keys == null ? null : Arrays.copyOf(keys, limit), limit);
    }

    /** Handles in use are below this. */
    int limit() {
        return limit;
    }

    @Override
    public int handleLimit() {
        return limit;
    }

    /** Whether {@code handle} is in use: its timer is pending. */
    @Override
    public boolean isPending(int handle) {
        return texts[handle * TEXT_STRIDE] != null;
    }

    /**
     * The handle of the pending timer created first, or {@link IndexedTimerHeap#NONE} when none is: earliest
     * creation time, then earliest wall-clock second; among exact ties any one (see {@link OldestPending}).
     */
    public int oldest() {
        return oldestPending.oldest();
    }

    OldestPending oldestPending() {
        return oldestPending;
    }

    IdIndex index() {
        return index;
    }

    /** The ids reserved after their timers left, indexed beside the pending ones. */
    public ReservedIds reserved() {
        return reserved;
    }

    /** Pending timers in the index: its entries less the reserved ones. */
    int indexedTimers() {
        return index.size() - reserved.size();
    }

    /**
     * One probe for {@code id}: the handle of its pending timer, else its reservation as an index entry (see
     * {@link ReservedIds#isReservation}), else {@link IndexedTimerHeap#NONE}.
     */
    int lookup(String id) {
        return index.findEither(id, index.hash(id), idOfEntry);
    }

    /** The handle in use with this id, or {@link IndexedTimerHeap#NONE}. */
    int find(String id) {
        return index.find(id, idOfHandle);
    }

    /** As {@link #find(String)}, with the id's {@link #hash} already known. */
    int find(String id, int hash) {
        return index.find(id, hash, idOfHandle);
    }

    /** The id's {@link IdIndex#hash}, under which {@link #add} indexes it. */
    int hash(String id) {
        return index.hash(id);
    }

    /** Handles the arrays hold before they must grow. */
    int capacity() {
        return texts.length / TEXT_STRIDE;
    }

    private static int recordAt(int handle) {
        return handle * STRIDE;
    }

    String idOf(int handle) {
        return texts[handle * TEXT_STRIDE];
    }

    private String idOfPending(int entry) {
        return entry >= 0 ? idOf(entry) : null;
    }

    private String idOfEntry(int entry) {
        return entry >= 0 ? idOf(entry) : reserved.idOfEntry(entry);
    }

    String payloadOf(int handle) {
        return texts[handle * TEXT_STRIDE + 1];
    }

    /** The trace context of the timer {@code handle}, or null. */
    String traceContextOf(int handle) {
        return traceContexts.isEmpty() ? null : traceContexts.get(handle);
    }

    /** The pending timer at {@code handle} holds {@code payload} from now on (an add that replaced it). */
    public void replacePayload(int handle, String payload) {
        texts[handle * TEXT_STRIDE + 1] = payload;
    }

    /** The flow-control key of {@code handle}, or null. */
    String keyOf(int handle) {
        return keys == null ? null : keys[handle];
    }

    int versionOf(int handle) {
        return ints[recordAt(handle) + VERSION];
    }

    void countVersion(int handle) {
        ints[recordAt(handle) + VERSION]++;
    }

    /** The {@link IdIndex#hash} of the id, as cached in the record while the handle is in use. */
    int cachedHash(int handle) {
        return ints[recordAt(handle) + ID_HASH];
    }

    @Override
    public long createdAt(int handle) {
        int record = recordAt(handle);
        return (long) ints[record + CREATED_AT_HIGH] << 32 | (ints[record + CREATED_AT_LOW] & 0xFFFF_FFFFL);
    }

    /** Wall-clock creation second, unsigned, as a non-negative long. */
    @Override
    public long wallSeconds(int handle) {
        return Integer.toUnsignedLong(ints[recordAt(handle) + WALL_SECONDS]);
    }

    /** Wall-clock creation time in epoch milliseconds, rounded down to the second (stored as seconds). */
    public long createdAtWallMillis(int handle) {
        return wallSeconds(handle) * 1000L;
    }

    /** Epoch milliseconds as whole epoch seconds in an unsigned int: rounded down, clamped to 1970..2106. */
    static int toWallSeconds(long epochMillis) {
        return (int) Math.min(Math.max(Math.floorDiv(epochMillis, 1000L), 0L), 0xFFFF_FFFFL);
    }

    /** The timer {@code handle} with the key it has in the heap. */
    public Timer timer(int handle, long fireTime, int priority, long sequence) {
        return new Timer(idOf(handle), fireTime, priority, sequence, versionOf(handle), createdAt(handle),
                payloadOf(handle), null, traceContextOf(handle), keyOf(handle));
    }

    /**
     * Stores and indexes a new record, in the last released handle or a new one at {@link #limit()} (growing the
     * arrays), and returns its handle. Call only when {@link #find} has not found {@code id}, whose {@link #hash} is
     * {@code hash}.
     */
    int add(String id, int hash, int version, long createdAt, long createdAtWall, String payload,
            String traceContext, String key) {
        int handle;
        if (freeHandle != NONE) {
            handle = freeHandle;
            freeHandle = ints[recordAt(handle) + ID_HASH];
        } else {
            if (limit == capacity()) {
                int grown = grownCapacity(capacity(), limit + 1);
                ints = Arrays.copyOf(ints, recordAt(grown));
                texts = Arrays.copyOf(texts, grown * TEXT_STRIDE);
                if (keys != null) {
                    keys = Arrays.copyOf(keys, grown);
                }
                oldestPending.ensureCapacity(grown);
            }
            handle = limit++;
        }
        texts[handle * TEXT_STRIDE] = id;
        texts[handle * TEXT_STRIDE + 1] = payload;
        if (traceContext != null) {
            traceContexts.put(handle, traceContext);
        }
        if (key != null && keys == null) {
            keys = new String[capacity()];
        }
        if (keys != null) {
            keys[handle] = key;
        }
        int record = recordAt(handle);
        ints[record + VERSION] = version;
        ints[record + ID_HASH] = hash;
        ints[record + WALL_SECONDS] = toWallSeconds(createdAtWall);
        ints[record + CREATED_AT_HIGH] = (int) (createdAt >>> 32);
        ints[record + CREATED_AT_LOW] = (int) createdAt;
        index.insert(hash, handle);
        oldestPending.added(handle, createdAt, wallSeconds(handle));
        return handle;
    }

    /**
     * Reads {@code handle}'s record and texts and returns a word of them, so that a caller about to use many records
     * can start all their cache misses at once (the JIT keeps a load only if its value is used).
     */
    long touch(int handle) {
        return ints[recordAt(handle) + ID_HASH] + (texts[handle * TEXT_STRIDE] == null ? 1 : 0);
    }

    /** Reads the index bucket where {@code handle}'s entry starts its probe: {@link #touch} for {@link #release}. */
    long touchIndexEntry(int handle) {
        return index.touch(ints[recordAt(handle) + ID_HASH]);
    }

    /**
     * Frees {@code handle} for a later {@link #add}: removes its index entry (where the last {@link #find} found it,
     * or under the cached hash), drops its texts, puts it on the free list and tells the oldest-pending tree.
     */
    void release(int handle) {
        if (!index.removeLastFound(handle)) { // a cancel or edit has just found it; a fire has not
            index.remove(ints[recordAt(handle) + ID_HASH], handle);
        }
        texts[handle * TEXT_STRIDE] = null;
        texts[handle * TEXT_STRIDE + 1] = null;
        if (!traceContexts.isEmpty()) {
            traceContexts.remove(handle);
        }
        if (keys != null) {
            keys[handle] = null;
        }
        ints[recordAt(handle) + ID_HASH] = freeHandle;
        freeHandle = handle;
        oldestPending.removed(handle);
    }

    /** Frees every handle and returns to {@code capacity}; the reserved ids stay indexed. */
    void clear(int capacity) {
        if (reserved.size() == 0) {
            index.clear();
        } else if (indexedTimers() > 0) {
            for (int handle = 0; handle < limit; handle++) {
                if (isPending(handle)) {
                    index.remove(ints[recordAt(handle) + ID_HASH], handle);
                }
            }
        }
        allocate(capacity);
        traceContexts.clear();
        limit = 0;
        freeHandle = NONE;
        oldestPending.clear(capacity);
    }

    private void allocate(int capacity) {
        ints = new int[recordAt(capacity)];
        texts = new String[capacity * TEXT_STRIDE];
        keys = null;
    }

    /** Doubles {@code current}, or more if {@code needed} is larger; refuses sizes the record array cannot hold. */
    static int grownCapacity(int current, int needed) {
        long doubled = Math.max((long) current * 2, needed);
        if (doubled > (Integer.MAX_VALUE - 8) / STRIDE) {
            throw new IllegalStateException("heap cannot grow past " + current + " timers");
        }
        return (int) doubled;
    }
}
