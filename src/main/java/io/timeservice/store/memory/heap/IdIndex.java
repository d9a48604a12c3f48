package io.timeservice.store.memory.heap;

import java.security.SecureRandom;
import java.util.function.IntConsumer;

/**
 * The id → handle half of the indexed heap: an open-addressing hash table with linear probing.
 *
 * <p>Ids come from clients, so the hash must be one they cannot aim: with {@link String#hashCode} ids that share a
 * hash code are trivial to make ("Aa" and "BB" collide, and so does every string of such blocks), and n of them
 * form one probe run that makes every add and cancel O(n) under the clock's lock. {@link #hash} is therefore
 * SipHash-1-3 (the keyed hash Rust's {@code HashMap} uses against this attack) of the id's UTF-16LE bytes, keyed
 * with 128 random bits drawn once per process. Unlike {@code String.hashCode} it is not cached in the String, so a
 * lookup reads the id's characters before its bucket. Hashes are never written to disk: snapshots and the journal
 * carry ids, and recovery hashes them again.
 *
 * <p>Each bucket is one {@code long}: the id's hash in the high 32 bits and {@code handle + 1} in the low 32
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
 * <p>Size: any number of buckets, not only powers of two. The home bucket of a hash is
 * {@code (hash as unsigned) × buckets >>> 32} (a multiply and a shift, "fastrange"; on a power of two it is the
 * hash's top bits), and probes wrap from the last bucket to the first. The table grows before an insert would take
 * it past {@code maxLoadPercent} of its buckets, to {@code maxLoadPercent / (maxLoadPercent - 25)} times its
 * length, so its load stays between {@code maxLoadPercent - 25} and {@code maxLoadPercent} percent: at 50% it
 * doubles from {@value #MIN_BUCKETS} (powers of two, 16 to 32 bytes of buckets per entry), at 75% it grows by half
 * (10.7 to 16 bytes per entry). The default is {@value #DEFAULT_MAX_LOAD_PERCENT}%. Drained to empty, a large table
 * shrinks back to {@value #MIN_BUCKETS} buckets.
 *
 * <p>Two kinds of entry share the table: a pending timer's handle (0 and up) and a reserved id's entry (a negative
 * handle below -1, see {@link ReservedIds}), so that an add learns in one probe sequence whether its id is pending,
 * reserved or free ({@link #findEither}). The table stores and moves both alike; only the {@link IdsByHandle} a
 * lookup is given tells them apart (it answers null for an entry the lookup does not look for).
 *
 * <p>Not thread-safe.
 */
final class IdIndex {

    private static final int MIN_BUCKETS = 16;
    /** The load the table may reach before it grows, in percent of its buckets (see the class comment). */
    static final int DEFAULT_MAX_LOAD_PERCENT = 75;
    private static final int SHRINK_ABOVE = 8192;
    private static final long EMPTY = 0L;
    /** The SipHash key of every index in this process unless a test names its own. */
    private static final long[] PROCESS_KEY = randomKey();

    private final long key0;
    private final long key1;
    /** One-entry memo of {@link #hash}: an add finds its id and then inserts it, with the same String. */
    private String lastHashed;
    private int lastHash;

    private final int maxLoadPercent;
    private long[] buckets;
    /** Entries the table holds before the next insert grows it: {@code maxLoadPercent} of its buckets. */
    private int growAt;
    private int size;
    /**
     * Bucket where the last successful {@link #find} ended. A cancel or edit finds the timer and then removes it;
     * {@link #removeLastFound} then needs neither the id nor the cached hash (one cache miss fewer).
     */
    private int lastFound;

    IdIndex() {
        this(DEFAULT_MAX_LOAD_PERCENT);
    }

    /** An index that grows past {@code maxLoadPercent} (50 to 90) of its buckets: for benchmarks comparing loads. */
    IdIndex(int maxLoadPercent) {
        this(PROCESS_KEY[0], PROCESS_KEY[1], maxLoadPercent);
    }

    /** An index hashing under a chosen key, for tests that need the same buckets in every run. */
    IdIndex(long key0, long key1) {
        this(key0, key1, DEFAULT_MAX_LOAD_PERCENT);
    }

    /** An index hashing under a chosen key and growing past {@code maxLoadPercent} (50 to 90) of its buckets. */
    IdIndex(long key0, long key1, int maxLoadPercent) {
        if (maxLoadPercent < 50 || maxLoadPercent > 90) {
            throw new IllegalArgumentException("maxLoadPercent must be in [50, 90]: " + maxLoadPercent);
        }
        this.key0 = key0;
        this.key1 = key1;
        this.maxLoadPercent = maxLoadPercent;
        allocate(MIN_BUCKETS);
    }

    /**
     * An independent copy of {@code source} with its key, so the hashes cached beside it stay valid: one array copy.
     */
    IdIndex(IdIndex source) {
        key0 = source.key0;
        key1 = source.key1;
        maxLoadPercent = source.maxLoadPercent;
        buckets = source.buckets.clone();
        growAt = source.growAt;
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

    /**
     * The hash under which {@code id} is stored: SipHash-1-3 under this index's key. The heap caches it per handle;
     * such a cached hash is valid only for this index and its copies.
     */
    int hash(String id) {
        if (id != lastHashed) {
            lastHash = sipHash13(key0, key1, id);
            lastHashed = id;
        }
        return lastHash;
    }

    /**
     * Returns the handle for {@code id}, or -1 when no entry that {@code ids} names has it ({@code ids} answers null
     * for the entries of the other kind, see the class comment).
     */
    int find(String id, IdsByHandle ids) {
        return find(id, hash(id), ids);
    }

    /** As {@link #find(String, IdsByHandle)}, with {@code hash} = {@link #hash}(id) already computed. */
    int find(String id, int hash, IdsByHandle ids) {
        long[] buckets = this.buckets;
        for (int i = home(hash, buckets.length); ; i = next(i, buckets.length)) {
            long bucket = buckets[i];
            if (bucket == EMPTY) {
                return -1;
            }
            if ((int) (bucket >>> 32) == hash) {
                int handle = (int) bucket - 1;
                if (id.equals(ids.idOf(handle))) {
                    lastFound = i;
                    return handle;
                }
            }
        }
    }

    /**
     * One probe sequence for both kinds of entry: the handle (0 and up) of {@code id} when it has one, else its
     * reserved entry (below -1) when it has one, else -1. {@code ids} names every entry. A miss, the common case of
     * an add, costs what {@link #find} costs.
     */
    int findEither(String id, int hash, IdsByHandle ids) {
        long[] buckets = this.buckets;
        int reserved = -1;
        for (int i = home(hash, buckets.length); ; i = next(i, buckets.length)) {
            long bucket = buckets[i];
            if (bucket == EMPTY) {
                return reserved;
            }
            if ((int) (bucket >>> 32) == hash) {
                int handle = (int) bucket - 1;
                if (id.equals(ids.idOf(handle))) {
                    if (handle >= 0) {
                        lastFound = i;
                        return handle;
                    }
                    reserved = handle;
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
        if (size + 1 > growAt) {
            resize(grownLength(buckets.length));
        }
        place(hash, handle);
        size++;
    }

    /** Reads the home bucket of {@code hash} and returns it: starts its cache miss early (see callers). */
    long touch(int hash) {
        return buckets[home(hash, buckets.length)];
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
        long wanted = pack(hash, handle);
        int hole = home(hash, buckets.length);
        while (buckets[hole] != wanted) {
            if (buckets[hole] == EMPTY) {
                return false;
            }
            hole = next(hole, buckets.length);
        }
        deleteAt(hole);
        return true;
    }

    /** Empties bucket {@code hole}, which holds an entry. */
    private void deleteAt(int hole) {
        long[] buckets = this.buckets;
        int length = buckets.length;
        // Backward-shift deletion: pull later members of the probe run into the hole when their home allows it, i.e.
        // when the home is not in the cyclic range (hole, next] (the run may wrap past the last bucket to the first).
        for (int next = next(hole, length); buckets[next] != EMPTY; next = next(next, length)) {
            int home = homeOf(buckets[next], length);
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
        if (size == 0 && length > SHRINK_ABOVE) {
            allocate(MIN_BUCKETS);
        }
    }

    void clear() {
        allocate(MIN_BUCKETS);
        size = 0;
    }

    /** Calls {@code visitor} with every indexed handle (of both kinds), in bucket order. For the invariant check. */
    void forEachHandle(IntConsumer visitor) {
        for (long bucket : buckets) {
            if (bucket != EMPTY) {
                visitor.accept((int) bucket - 1);
            }
        }
    }

    private void place(int hash, int handle) {
        int i = home(hash, buckets.length);
        while (buckets[i] != EMPTY) {
            i = next(i, buckets.length);
        }
        buckets[i] = pack(hash, handle);
    }

    /** The length the table grows to from {@code length}: see the class comment. */
    private int grownLength(int length) {
        long grown = ((long) length * maxLoadPercent + maxLoadPercent - 26) / (maxLoadPercent - 25);
        return (int) Math.min(grown, Integer.MAX_VALUE - 8);
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
        growAt = (int) ((long) length * maxLoadPercent / 100);
    }

    /** The home bucket of {@code hash} in a table of {@code length} buckets: fastrange, see the class comment. */
    static int home(int hash, int length) {
        return (int) (((hash & 0xFFFF_FFFFL) * length) >>> 32);
    }

    private static int next(int bucket, int length) {
        return bucket + 1 == length ? 0 : bucket + 1;
    }

    /** Buckets in the table now (for tests and the memory figures). */
    int bucketCount() {
        return buckets.length;
    }

    private static long pack(int hash, int handle) {
        return ((long) hash << 32) | ((handle + 1) & 0xFFFF_FFFFL);
    }

    /**
     * The longest probe a successful {@link #find} makes now: 1 + the largest distance of an entry from its home
     * bucket. O(buckets); for tests that check colliding ids cannot build long runs.
     */
    int longestProbe() {
        int longest = 0;
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] != EMPTY) {
                longest = Math.max(longest, 1 + distanceFromHome(i));
            }
        }
        return longest;
    }

    /** The buckets that finding every indexed id visits, summed: {@link #size} when no entry left its home. */
    long totalProbes() {
        long total = 0;
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] != EMPTY) {
                total += 1 + distanceFromHome(i);
            }
        }
        return total;
    }

    /** Buckets from the home of the entry in bucket {@code i} forward (wrapping) to {@code i}. */
    private int distanceFromHome(int i) {
        int home = homeOf(buckets[i], buckets.length);
        return i >= home ? i - home : i - home + buckets.length;
    }

    private static int homeOf(long bucket, int length) {
        return home((int) (bucket >>> 32), length);
    }

    /**
     * SipHash-1-3 (Aumasson and Bernstein) of {@code text} as UTF-16LE bytes, folded to 32 bits. Reads four chars
     * per 64-bit message word straight from the String; the last word carries the rest and the byte length, as
     * SipHash pads.
     */
    static int sipHash13(long key0, long key1, String text) {
        long v0 = 0x736f6d6570736575L ^ key0;
        long v1 = 0x646f72616e646f6dL ^ key1;
        long v2 = 0x6c7967656e657261L ^ key0;
        long v3 = 0x7465646279746573L ^ key1;
        int length = text.length();
        int full = length & ~3;
        for (int i = 0; i <= full; i += 4) {
            long word;
            if (i < full) {
                word = text.charAt(i) | (long) text.charAt(i + 1) << 16 | (long) text.charAt(i + 2) << 32
                        | (long) text.charAt(i + 3) << 48;
            } else {
                word = (long) (2 * length) << 56;
                for (int rest = full; rest < length; rest++) {
                    word |= (long) text.charAt(rest) << 16 * (rest - full);
                }
            }
            v3 ^= word;
            // one compression round
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            v0 ^= word;
        }
        v2 ^= 0xff;
        for (int round = 0; round < 3; round++) { // three finalization rounds
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        long hash = v0 ^ v1 ^ v2 ^ v3;
        return (int) (hash ^ hash >>> 32);
    }

    private static long[] randomKey() {
        SecureRandom random = new SecureRandom();
        return new long[] {random.nextLong(), random.nextLong()};
    }

    @Override
    public String toString() {
        return "IdIndex[size=" + size + ", buckets=" + buckets.length + ", maxLoad=" + maxLoadPercent + "%]";
    }

}
