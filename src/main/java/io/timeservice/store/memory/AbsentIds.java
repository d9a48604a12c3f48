package io.timeservice.store.memory;

import java.util.Map;

/**
 * A one-hash Bloom filter of the ids a clock keeps reserved ({@link Reservations}), consulted before its map: an add's
 * id is almost always a new one, and a map of a million reservations answers "not held" only after a cache miss or two
 * (its table, then a node), where this answers it from a bit array of 8 to 16 bits per reservation (1 to 2 MB for a
 * million). A set bit only means "look in the map", so the filter never changes an answer.
 *
 * <p>Bits are set as ids are reserved and never cleared one by one (one bit may stand for several ids); once as many
 * ids were dropped as the map holds, or the map outgrows 8 bits per id, the bits are rebuilt from the map's keys, so
 * the share of stale bits stays bounded and each rebuild's O(n) is paid for by the n changes before it (amortized
 * O(1) per reservation). The position is {@link String#hashCode} (cached in the String) times a 32-bit odd constant,
 * top bits: ids that share a hash code share a bit, which costs them only the map's lookup, as without the filter.
 *
 * <p>Not thread-safe: used under the clock's lock, as {@link Reservations} is.
 */
final class AbsentIds {

    private static final int MIN_BITS_LOG2 = 12;
    /** Bits per held id below which the filter is rebuilt larger. */
    private static final int BITS_PER_ID = 8;

    private long[] bits = new long[(1 << MIN_BITS_LOG2) / Long.SIZE];
    private int bitsLog2 = MIN_BITS_LOG2;
    /** Ids dropped from the map since the bits were last rebuilt: their bits may still be set. */
    private long dropped;

    /** Whether {@code id} is surely not among the held ids (false: it may be). */
    boolean surelyAbsent(String id) {
        int bit = position(id);
        return (bits[bit >>> 6] & (1L << bit)) == 0;
    }

    /** {@code id} was just put into {@code held}. */
    void added(String id, Map<String, ?> held) {
        if ((long) held.size() * BITS_PER_ID > (1L << bitsLog2)) {
            rebuild(held);
        } else {
            int bit = position(id);
            bits[bit >>> 6] |= 1L << bit;
        }
    }

    /** An id was just removed from {@code held}. */
    void removed(Map<String, ?> held) {
        if (++dropped > Math.max(held.size(), 1 << MIN_BITS_LOG2)) {
            rebuild(held);
        }
    }

    /** Every id was dropped. */
    void cleared() {
        bitsLog2 = MIN_BITS_LOG2;
        bits = new long[(1 << MIN_BITS_LOG2) / Long.SIZE];
        dropped = 0;
    }

    /** Sets exactly the bits of {@code held}'s ids, in an array sized for twice as many. */
    private void rebuild(Map<String, ?> held) {
        int log2 = MIN_BITS_LOG2;
        while ((1L << log2) < (long) held.size() * BITS_PER_ID * 2 && log2 < 31) {
            log2++;
        }
        bitsLog2 = log2;
        bits = new long[Math.max(1, (int) ((1L << log2) / Long.SIZE))];
        for (String id : held.keySet()) {
            int bit = position(id);
            bits[bit >>> 6] |= 1L << bit;
        }
        dropped = 0;
    }

    private int position(String id) {
        return (id.hashCode() * 0x9E3779B9) >>> (32 - bitsLog2);
    }
}
