package io.timeservice.store.memory.heap;

import static io.timeservice.store.memory.heap.HeapTestSupport.arrayLength;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The open-addressing id → handle table. Handles index an ids-by-handle array that the test owns, as the heap
 * does. The probe-run tests hash under a fixed key and find ids that share a home bucket by search, so they hold
 * whatever the key. Ids colliding in Java's own hash ("Aa" and "BB" have the same hashCode, so every string made of
 * k such blocks shares one hashCode with 2^k - 1 others) are what an attacker would send.
 */
class IdIndexTest {

    private static final long KEY0 = 0x0706050403020100L;
    private static final long KEY1 = 0x0f0e0d0c0b0a0908L;

    /** An empty table under the fixed test key, so the searches below find the same ids in every run. */
    private static IdIndex newIndex() {
        return new IdIndex(KEY0, KEY1);
    }

    private final String[] idsByHandle = new String[20_000];
    private final IdIndex.IdsByHandle idsOf = handle -> idsByHandle[handle];

    private void insert(IdIndex index, String id, int handle) {
        idsByHandle[handle] = id;
        index.insert(id, handle);
    }

    private void remove(IdIndex index, String id, int handle) {
        index.remove(id, handle);
        idsByHandle[handle] = null;
    }

    /** All 2^blocks strings of "Aa"/"BB" blocks after {@code prefix}: one hashCode for all. */
    static List<String> collidingIds(String prefix, int blocks) {
        List<String> ids = new ArrayList<>();
        for (int mask = 0; mask < 1 << blocks; mask++) {
            StringBuilder id = new StringBuilder(prefix);
            for (int b = 0; b < blocks; b++) {
                id.append((mask >> b & 1) == 0 ? "Aa" : "BB");
            }
            ids.add(id.toString());
        }
        return ids;
    }

    /** The first {@code count} ids {@code prefix + n} whose home in a fresh table is bucket {@code home}. */
    private static List<String> idsSharingAHome(String prefix, int count, int home) {
        List<String> ids = new ArrayList<>();
        for (int n = 0; ids.size() < count; n++) {
            if (n > 100_000) {
                throw new AssertionError("no " + count + " ids of " + prefix + " with home " + home);
            }
            if (homeOf(prefix + n) == home) {
                ids.add(prefix + n);
            }
        }
        return ids;
    }

    private static List<Integer> upTo(int count) {
        List<Integer> handles = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            handles.add(i);
        }
        return handles;
    }

    /** Indexes of the non-empty buckets, read from the table's private array. */
    private static List<Integer> occupiedBuckets(IdIndex index) {
        long[] buckets = (long[]) HeapTestSupport.field(index, "buckets");
        List<Integer> occupied = new ArrayList<>();
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] != 0) {
                occupied.add(i);
            }
        }
        return occupied;
    }

    /** Handles in bucket order, as the table stores them. */
    private static List<Integer> bucketOrder(IdIndex index) {
        List<Integer> handles = new ArrayList<>();
        index.forEachHandle(handles::add);
        return handles;
    }

    @Test
    void collidingIds_reallyShareOneHashCode() {
        List<String> ids = collidingIds("job-", 5);

        assertThat(ids).hasSize(32).doesNotHaveDuplicates();
        assertThat(ids.stream().map(String::hashCode).distinct()).hasSize(1);
    }

    @Test
    void insertFindRemove_withCollidingHashes_eachIdKeepsItsOwnHandle() {
        IdIndex index = newIndex();
        List<String> ids = collidingIds("c", 6); // 64 ids, one String.hashCode
        for (int i = 0; i < ids.size(); i++) {
            insert(index, ids.get(i), i);
        }

        for (int i = 0; i < ids.size(); i++) {
            assertThat(index.find(ids.get(i), idsOf)).as(ids.get(i)).isEqualTo(i);
        }
        assertThat(index.find("cAaAaAaAaAaBBx", idsOf)).isEqualTo(-1);
        assertThat(index.find(collidingIds("d", 6).get(0), idsOf)).isEqualTo(-1);
        assertThat(index.size()).isEqualTo(64);
    }

    /**
     * Hash flooding: 16,384 ids with one String.hashCode. Under a hash derived from String.hashCode they all share
     * one home and form a single probe run (the longest probe is then 16,384 buckets, and each add or cancel walks
     * it); under the keyed hash they spread like any ids, at most half the buckets full.
     */
    @Test
    void idsSharingOneStringHashCode_spreadOverTheTable_probesStayShort() {
        IdIndex index = new IdIndex(); // the process key, as the service runs
        List<String> ids = collidingIds("flood-", 14);
        for (int i = 0; i < ids.size(); i++) {
            index.insert(ids.get(i), i);
        }
        String[] byHandle = ids.toArray(String[]::new);

        assertThat(ids.stream().map(String::hashCode).distinct()).hasSize(1);
        assertThat(index.longestProbe()).as("longest probe among %d ids", ids.size()).isLessThan(200);
        assertThat((double) index.totalProbes() / index.size()).as("mean probe").isLessThan(3.0);
        for (int i = 0; i < ids.size(); i += 97) {
            assertThat(index.find(ids.get(i), handle -> byHandle[handle])).isEqualTo(i);
        }
    }

    @Test
    void probeStatistics_countTheBucketsEachFindVisits() {
        IdIndex index = newIndex();
        List<String> ids = idsSharingAHome("s", 3, 7);
        for (int i = 0; i < ids.size(); i++) {
            insert(index, ids.get(i), i);
        }

        assertThat(index.longestProbe()).isEqualTo(3);
        assertThat(index.totalProbes()).isEqualTo(1 + 2 + 3);
    }

    /**
     * The hash is SipHash-1-3 of the id's UTF-16LE bytes: checked against a byte-wise reference implementation, and
     * that reference against the SipHash paper's test vector for SipHash-2-4.
     */
    @Test
    void hash_isSipHash13OfTheUtf16LeBytes() {
        byte[] paperMessage = new byte[15];
        for (int i = 0; i < paperMessage.length; i++) {
            paperMessage[i] = (byte) i;
        }
        assertThat(referenceSipHash(2, 4, KEY0, KEY1, paperMessage)).isEqualTo(0xa129ca6149be45e5L);

        for (String id : List.of("", "a", "ab", "abc", "abcd", "abcde", "job-00000042", "AaBBAaBB", "x".repeat(128),
                "Ünïcödé-€", "\ud83d\ude00")) {
            long reference = referenceSipHash(1, 3, KEY0, KEY1,
                    id.getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
            assertThat(IdIndex.sipHash13(KEY0, KEY1, id)).as(id).isEqualTo((int) (reference ^ reference >>> 32));
        }
    }

    @Test
    void hash_dependsOnTheKey_andACopyKeepsItsSourcesKey() {
        IdIndex index = newIndex();
        IdIndex otherKey = new IdIndex(KEY0 + 1, KEY1);
        List<String> ids = collidingIds("k", 4);

        assertThat(ids.stream().map(index::hash).distinct()).as("one String.hashCode, many hashes").hasSize(16);
        assertThat(ids.stream().map(otherKey::hash).toList()).isNotEqualTo(ids.stream().map(index::hash).toList());
        IdIndex copy = new IdIndex(index);
        assertThat(ids.stream().map(copy::hash).toList()).isEqualTo(ids.stream().map(index::hash).toList());
    }

    /** SipHash-c-d over bytes, written straight from the paper; little-endian words, length byte on top. */
    private static long referenceSipHash(int compressionRounds, int finalizationRounds, long key0, long key1,
                                         byte[] message) {
        long[] v = {0x736f6d6570736575L ^ key0, 0x646f72616e646f6dL ^ key1, 0x6c7967656e657261L ^ key0,
                0x7465646279746573L ^ key1};
        int blocks = message.length / 8;
        for (int block = 0; block <= blocks; block++) {
            long m = 0;
            if (block < blocks) {
                for (int b = 7; b >= 0; b--) {
                    m = m << 8 | (message[block * 8 + b] & 0xFF);
                }
            } else {
                m = (long) (message.length & 0xFF) << 56;
                for (int b = 0; b < message.length % 8; b++) {
                    m |= (long) (message[block * 8 + b] & 0xFF) << 8 * b;
                }
            }
            v[3] ^= m;
            for (int r = 0; r < compressionRounds; r++) {
                sipRound(v);
            }
            v[0] ^= m;
        }
        v[2] ^= 0xff;
        for (int r = 0; r < finalizationRounds; r++) {
            sipRound(v);
        }
        return v[0] ^ v[1] ^ v[2] ^ v[3];
    }

    private static void sipRound(long[] v) {
        v[0] += v[1];
        v[1] = Long.rotateLeft(v[1], 13);
        v[1] ^= v[0];
        v[0] = Long.rotateLeft(v[0], 32);
        v[2] += v[3];
        v[3] = Long.rotateLeft(v[3], 16);
        v[3] ^= v[2];
        v[0] += v[3];
        v[3] = Long.rotateLeft(v[3], 21);
        v[3] ^= v[0];
        v[2] += v[1];
        v[1] = Long.rotateLeft(v[1], 17);
        v[1] ^= v[2];
        v[2] = Long.rotateLeft(v[2], 32);
    }

    @Test
    void remove_fromMiddleOfProbeRun_laterMembersShiftBackAndStayFindable() {
        IdIndex index = newIndex();
        List<String> ids = idsSharingAHome("m", 8, 2); // 8 ids in one unwrapped run
        for (int i = 0; i < ids.size(); i++) {
            insert(index, ids.get(i), i);
        }
        int home = occupiedBuckets(index).get(0);

        remove(index, ids.get(3), 3);

        assertThat(index.find(ids.get(3), idsOf)).isEqualTo(-1);
        for (int i = 0; i < ids.size(); i++) {
            if (i != 3) {
                assertThat(index.find(ids.get(i), idsOf)).as(ids.get(i)).isEqualTo(i);
            }
        }
        // Backward shift, not a tombstone: the run closed up and its tail bucket is empty again.
        assertThat(occupiedBuckets(index)).containsExactly(home, home + 1, home + 2, home + 3, home + 4, home + 5,
                home + 6);
        assertThat(bucketOrder(index)).containsExactly(0, 1, 2, 4, 5, 6, 7);
        assertThat(index.size()).isEqualTo(7);
    }

    /**
     * The other half of backward-shift deletion: an entry whose home lies after the hole must stay. Layout: X0 at
     * its home h, Y0 at its home h+1, X1 (home h) pushed on to h+2. Removing X0 must pull X1 back to h and leave
     * Y0 alone; pulling Y0 in front of its home would make it unfindable.
     */
    @Test
    void remove_entryWhoseHomeIsAfterTheHole_staysWhileAnEarlierHomedEntryShiftsPastIt() {
        List<String> xs = idsSharingAHome("x", 2, 5);
        List<String> ys = idsSharingAHome("y", 1, 6);
        int home = homeOf(xs.get(0));
        IdIndex index = newIndex();
        insert(index, xs.get(0), 0);
        insert(index, ys.get(0), 1);
        insert(index, xs.get(1), 2);
        assertThat(occupiedBuckets(index)).containsExactly(home, home + 1, home + 2);

        remove(index, xs.get(0), 0);

        assertThat(index.find(ys.get(0), idsOf)).isEqualTo(1);
        assertThat(index.find(xs.get(1), idsOf)).isEqualTo(2);
        assertThat(occupiedBuckets(index)).containsExactly(home, home + 1);
        assertThat(bucketOrder(index)).containsExactly(2, 1);
    }

    /** The bucket that {@code id} lands in when alone in a fresh table. */
    private static int homeOf(String id) {
        IdIndex index = newIndex();
        index.insert(id, 0);
        return occupiedBuckets(index).get(0);
    }

    @Test
    void remove_firstOfRunThenReinsert_runStaysContiguous() {
        IdIndex index = newIndex();
        List<String> ids = idsSharingAHome("r", 4, 3);
        for (int i = 0; i < ids.size(); i++) {
            insert(index, ids.get(i), i);
        }
        List<Integer> bucketsBefore = occupiedBuckets(index);

        remove(index, ids.get(0), 0);
        insert(index, ids.get(0), 10);

        assertThat(index.find(ids.get(0), idsOf)).isEqualTo(10);
        assertThat(bucketOrder(index)).containsExactly(1, 2, 3, 10);
        assertThat(occupiedBuckets(index)).isEqualTo(bucketsBefore);
    }

    @Test
    void remove_runWrappingPastTheTableEnd_shiftsMembersBackAcrossTheBoundary() {
        // Home in the second-to-last bucket: members 0, 1 fill the last two buckets, 2 and 3 wrap to 0 and 1.
        List<String> ids = idsSharingAHome("w", 4, 14);
        IdIndex index = newIndex();
        for (int i = 0; i < ids.size(); i++) {
            insert(index, ids.get(i), i);
        }
        int buckets = arrayLength(index, "buckets");
        assertThat(occupiedBuckets(index)).containsExactly(0, 1, buckets - 2, buckets - 1);

        remove(index, ids.get(0), 0); // the run's first member

        // 1 moved into the freed bucket, 2 moved back across the end into the last bucket, 3 moved to bucket 0.
        assertThat(occupiedBuckets(index)).containsExactly(0, buckets - 2, buckets - 1);
        assertThat(bucketOrder(index)).containsExactly(3, 1, 2);
        for (int i = 1; i < ids.size(); i++) {
            assertThat(index.find(ids.get(i), idsOf)).as(ids.get(i)).isEqualTo(i);
        }

        remove(index, ids.get(2), 2); // now in the last bucket; 3 must come back across the boundary again

        assertThat(occupiedBuckets(index)).containsExactly(buckets - 2, buckets - 1);
        assertThat(index.find(ids.get(1), idsOf)).isEqualTo(1);
        assertThat(index.find(ids.get(3), idsOf)).isEqualTo(3);
        assertThat(index.find(ids.get(2), idsOf)).isEqualTo(-1);
    }

    @ParameterizedTest(name = "max load {0}%")
    @ValueSource(ints = {50, 75})
    void insert_pastMaxLoad_resizesAndEveryIdStaysFindable(int maxLoadPercent) {
        IdIndex index = new IdIndex(KEY0, KEY1, maxLoadPercent);
        int bucketsBefore = arrayLength(index, "buckets");

        for (int i = 0; i < 1000; i++) {
            insert(index, "id-" + i, i);
        }

        assertThat(arrayLength(index, "buckets")).isGreaterThan(bucketsBefore)
                .isGreaterThanOrEqualTo(1000 * 100 / maxLoadPercent);
        for (int i = 0; i < 1000; i++) {
            assertThat(index.find("id-" + i, idsOf)).isEqualTo(i);
        }
        assertThat(index.find("id-1000", idsOf)).isEqualTo(-1);
    }

    @Test
    void remove_lastEntryOfLargeTable_shrinksBackToMinimum() {
        IdIndex index = newIndex();
        int minimum = arrayLength(index, "buckets");
        for (int i = 0; i < 7000; i++) {
            insert(index, "big-" + i, i);
        }
        assertThat(arrayLength(index, "buckets")).isGreaterThan(8192);

        for (int i = 0; i < 7000; i++) {
            remove(index, "big-" + i, i);
        }

        assertThat(index.size()).isZero();
        assertThat(arrayLength(index, "buckets")).isEqualTo(minimum);
        insert(index, "after", 0);
        assertThat(index.find("after", idsOf)).isZero();
    }

    @Test
    void remove_absentId_refused() {
        IdIndex index = newIndex();
        insert(index, "present", 0);

        assertThatThrownBy(() -> index.remove("absent", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("absent");
        assertThat(index.find("present", idsOf)).isZero();
    }

    @Test
    void clear_forgetsEverything() {
        IdIndex index = newIndex();
        for (int i = 0; i < 100; i++) {
            insert(index, "c" + i, i);
        }

        index.clear();

        assertThat(index.size()).isZero();
        assertThat(index.find("c5", idsOf)).isEqualTo(-1);
        assertThat(bucketOrder(index)).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void randomInsertsAndRemoves_agreeWithAHashMap(long seed) {
        Random random = new Random(seed);
        IdIndex index = newIndex();
        Map<String, Integer> model = new HashMap<>();
        // A pool mixing colliding families with ordinary ids, so runs form, wrap and break up.
        List<String> pool = new ArrayList<>();
        pool.addAll(collidingIds("p", 4));
        pool.addAll(collidingIds("q", 4));
        for (int i = 0; i < 200; i++) {
            pool.add("plain-" + i);
        }
        List<Integer> free = upTo(pool.size());

        for (int step = 0; step < 20_000; step++) {
            String id = pool.get(random.nextInt(pool.size()));
            Integer handle = model.get(id);
            String context = "seed " + seed + " step " + step + " id " + id;
            if (handle == null && random.nextInt(3) != 0) {
                int newHandle = free.remove(random.nextInt(free.size()));
                insert(index, id, newHandle);
                model.put(id, newHandle);
            } else if (handle != null && random.nextBoolean()) {
                remove(index, id, handle);
                model.remove(id);
                free.add(handle);
            }
            assertThat(index.find(id, idsOf)).as(context).isEqualTo(model.getOrDefault(id, -1));
            assertThat(index.size()).as(context).isEqualTo(model.size());
            if (step % 500 == 0) {
                for (String any : pool) {
                    assertThat(index.find(any, idsOf)).as("%s: find %s", context, any)
                            .isEqualTo(model.getOrDefault(any, -1));
                }
                List<Integer> stored = bucketOrder(index);
                assertThat(stored).as(context).containsExactlyInAnyOrderElementsOf(model.values());
            }
        }
    }

    @Test
    void removeLastFound_removesWhatFindFound_andRefusesWhenTheBucketNoLongerHoldsIt() {
        IdIndex index = newIndex();
        List<String> ids = idsSharingAHome("r", 8, 4); // one probe run: removals shift its members back
        for (int i = 0; i < ids.size(); i++) {
            insert(index, ids.get(i), i);
        }

        assertThat(index.find(ids.get(5), idsOf)).isEqualTo(5);
        assertThat(index.removeLastFound(4)).as("the last find ended at handle 5's bucket").isFalse();
        assertThat(index.removeLastFound(5)).isTrue();
        idsByHandle[5] = null;
        assertThat(index.find(ids.get(5), idsOf)).isEqualTo(-1);

        assertThat(index.find(ids.get(7), idsOf)).isEqualTo(7);
        remove(index, ids.get(0), 0); // shifts 7 back by one bucket
        assertThat(index.removeLastFound(7)).as("its bucket moved").isFalse();
        for (int i = 1; i < ids.size(); i++) {
            assertThat(index.find(ids.get(i), idsOf)).as(ids.get(i)).isEqualTo(i == 5 ? -1 : i);
        }
        assertThat(index.size()).isEqualTo(6);
    }
}
