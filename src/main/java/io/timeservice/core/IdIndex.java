package io.timeservice.core;

/**
 * The id → handle half of the indexed heap: an open-addressing hash table with linear probing.
 *
 * <p>Each bucket is one {@code long}: the key's mixed hash in the high 32 bits and {@code handle + 1} in the low 32
 * bits (0 marks an empty bucket). The id strings themselves are not copied here; they live with the heap, which
 * every lookup is given as {@link IdsByHandle}. That keeps a bucket at 8 bytes, lets most misses be rejected on the
 * stored hash without touching a String, and lets the table grow without re-hashing a single id. Removal shifts
 * later entries of the probe run back (no tombstones), so lookups never slow down with churn.
 *
 * <p>The heap caches each pending timer's {@link #hash} beside its other per-handle fields, so removing a timer
 * ({@link #remove(int, int)}) needs its hash and handle only: firing a timer never loads its id String.
 *
 * <p>Handles never move while a timer is pending (the heap slot is kept per handle instead), so this table is
 * written only on insert and remove, never during a sift.
 *
 * <p>Not thread-safe.
 */
final class IdIndex {

    private static final int MIN_BUCKETS = 16;
    private static final int SHRINK_ABOVE = 8192;
    private static final long EMPTY = 0L;

    private long[] buckets;
    /** 32 - log2(buckets.length): a mixed hash's top bits pick the home bucket. */
    private int shift;
    private int size;
    /**
     * Bucket where the last successful {@link #find} ended. A cancel or edit finds the timer and then removes it;
     * {@link #removeLastFound} then needs neither the id nor the cached hash (one cache miss fewer).
     */
    private int lastFound;

    IdIndex() {
        allocate(MIN_BUCKETS);
    }

    /** An independent copy of {@code source}: one array copy. */
    IdIndex(IdIndex source) {
        buckets = source.buckets.clone();
        shift = source.shift;
        size = source.size;
    }

    /** Where the index reads a handle's id when a stored hash matches: the ids live with the heap, not here. */
    @FunctionalInterface
    interface IdsByHandle {
        String idOf(int handle);
    }

    int size() {
        return size;
    }

    /** The mixed hash under which {@code id} is stored; the heap caches it per handle. */
    static int hash(String id) {
        return mix(id.hashCode());
    }

    /** Returns the handle for {@code id}, or -1 when no pending timer has it. */
    int find(String id, IdsByHandle ids) {
        return find(id, hash(id), ids);
    }

    /** As {@link #find(String, IdsByHandle)}, with {@code hash} = {@link #hash}(id) already computed. */
    int find(String id, int hash, IdsByHandle ids) {
        int mask = buckets.length - 1;
        for (int i = hash >>> shift; ; i = (i + 1) & mask) {
            long bucket = buckets[i];
            if (bucket == EMPTY) {
                return -1;
            }
            if ((int) (bucket >>> 32) == hash) {
                int handle = (int) bucket - 1;
                if (ids.idOf(handle).equals(id)) {
                    lastFound = i;
                    return handle;
                }
            }
        }
    }

    /** Adds {@code id → handle}. Call only after {@link #find} returned -1 for {@code id}. */
    void insert(String id, int handle) {
        insert(hash(id), handle);
    }

    /** Adds {@code handle} under {@code hash} = {@link #hash}(its id). Call only when the id is not indexed. */
    void insert(int hash, int handle) {
        if (size + 1 > buckets.length >>> 1) {
            resize(buckets.length << 1);
        }
        place(hash, handle);
        size++;
    }

    /** Removes {@code id}, which must be present with {@code handle}. */
    void remove(String id, int handle) {
        if (!removeIfPresent(hash(id), handle)) {
            throw new IllegalStateException("id not indexed: " + id);
        }
    }

    /**
     * Removes {@code handle}, stored under {@code hash} = {@link #hash}(its id), without reading the id: the bucket
     * is recognised by hash and handle together, which no other entry shares.
     */
    void remove(int hash, int handle) {
        if (!removeIfPresent(hash, handle)) {
            throw new IllegalStateException("handle " + handle + " not indexed under hash " + hash);
        }
    }

    /**
     * Removes {@code handle} if the last successful {@link #find} ended at its bucket (which may have moved since;
     * then this returns false and changes nothing). A handle is stored at most once, so a bucket holding it is its
     * entry.
     */
    boolean removeLastFound(int handle) {
        if (lastFound >= buckets.length || (int) buckets[lastFound] != handle + 1) {
            return false;
        }
        deleteAt(lastFound);
        return true;
    }

    private boolean removeIfPresent(int hash, int handle) {
        int mask = buckets.length - 1;
        long wanted = pack(hash, handle);
        int hole = hash >>> shift;
        while (buckets[hole] != wanted) {
            if (buckets[hole] == EMPTY) {
                return false;
            }
            hole = (hole + 1) & mask;
        }
        deleteAt(hole);
        return true;
    }

    /** Empties bucket {@code hole}, which holds an entry. */
    private void deleteAt(int hole) {
        int mask = buckets.length - 1;
        // Backward-shift deletion: pull later members of the probe run into the hole when their home allows it.
        for (int next = (hole + 1) & mask; buckets[next] != EMPTY; next = (next + 1) & mask) {
            int home = (int) (buckets[next] >>> 32) >>> shift;
            boolean homeOutsideHoleToNext = hole <= next
                    ? home <= hole || home > next
                    : home <= hole && home > next;
            if (homeOutsideHoleToNext) {
                buckets[hole] = buckets[next];
                hole = next;
            }
        }
        buckets[hole] = EMPTY;
        size--;
        if (size == 0 && buckets.length > SHRINK_ABOVE) {
            allocate(MIN_BUCKETS);
        }
    }

    void clear() {
        allocate(MIN_BUCKETS);
        size = 0;
    }

    /** Calls {@code visitor} with every indexed handle, in bucket order. For the invariant check. */
    void forEachHandle(java.util.function.IntConsumer visitor) {
        for (long bucket : buckets) {
            if (bucket != EMPTY) {
                visitor.accept((int) bucket - 1);
            }
        }
    }

    private void place(int hash, int handle) {
        int mask = buckets.length - 1;
        int i = hash >>> shift;
        while (buckets[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        buckets[i] = pack(hash, handle);
    }

    private void resize(int newLength) {
        long[] old = buckets;
        allocate(newLength);
        for (long bucket : old) {
            if (bucket != EMPTY) {
                place((int) (bucket >>> 32), (int) bucket - 1);
            }
        }
    }

    private void allocate(int length) {
        buckets = new long[length];
        shift = 32 - Integer.numberOfTrailingZeros(length);
    }

    private static long pack(int hash, int handle) {
        return ((long) hash << 32) | ((handle + 1) & 0xFFFF_FFFFL);
    }

    /** Fibonacci hashing: spreads String.hashCode's weak low bits over the top bits that pick the bucket. */
    private static int mix(int hashCode) {
        return hashCode * 0x9E37_79B9;
    }

    @Override
    public String toString() {
        return "IdIndex[size=" + size + ", buckets=" + buckets.length + "]";
    }

}
