package io.timeservice.store.memory.heap;

import static io.timeservice.store.memory.heap.HeapTestSupport.arrayLength;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The id table's sizing and wrap-around, against {@link HashMap} as the model: bucket counts that are not powers of
 * two, homes by multiply-shift, probe runs that wrap from the last bucket to the first, backward-shift deletion
 * across that boundary, growth up to the maximum load and the shrink when drained. Seeded, so a failure repeats.
 */
class IdIndexModelTest {

    private static final long KEY0 = 0x0706050403020100L;
    private static final long KEY1 = 0x0f0e0d0c0b0a0908L;
    private static final int POOL = 16_000;

    private final String[] idsByHandle = new String[POOL];
    private final IdIndex.IdsByHandle idsOf = handle -> idsByHandle[handle];

    private static long[] buckets(IdIndex index) {
        return (long[]) HeapTestSupport.field(index, "buckets");
    }

    /** Bucket of {@code handle}, or -1. */
    private static int bucketOf(IdIndex index, int handle) {
        long[] buckets = buckets(index);
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] != 0 && (int) buckets[i] - 1 == handle) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The linear-probing invariant, read from the table itself: every entry sits in its home bucket or after it
     * (wrapping), with no empty bucket between; the entry's stored hash is its id's; the table is no fuller than
     * its maximum load.
     */
    private void assertProbeRunsIntact(IdIndex index, int maxLoadPercent, String context) {
        long[] buckets = buckets(index);
        int length = buckets.length;
        int occupied = 0;
        for (int i = 0; i < length; i++) {
            if (buckets[i] == 0) {
                continue;
            }
            occupied++;
            int hash = (int) (buckets[i] >>> 32);
            int handle = (int) buckets[i] - 1;
            assertThat(hash).as("%s: stored hash of handle %d", context, handle).isEqualTo(index.hash(idsByHandle[handle]));
            int home = IdIndex.home(hash, length);
            for (int j = home; j != i; j = j + 1 == length ? 0 : j + 1) {
                assertThat(buckets[j]).as("%s: bucket %d between home %d and entry at %d (of %d)", context, j, home,
                        i, length).isNotZero();
            }
        }
        assertThat(occupied).as(context).isEqualTo(index.size());
        assertThat((long) occupied * 100).as("%s: load of %d buckets", context, length)
                .isLessThanOrEqualTo((long) length * maxLoadPercent);
    }

    @Test
    void home_isTheTopBitsOnAPowerOfTwo_andCoversEveryBucketOfAnyLength() {
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            int hash = random.nextInt();
            assertThat(IdIndex.home(hash, 1 << 21)).isEqualTo(hash >>> 11);
            assertThat(IdIndex.home(hash, 16)).isEqualTo(hash >>> 28);
        }
        assertThat(IdIndex.home(0, 1_398_101)).isZero();
        assertThat(IdIndex.home(-1, 1_398_101)).isEqualTo(1_398_100);
        assertThat(IdIndex.home(Integer.MIN_VALUE, 24)).isEqualTo(12);
        int[] hits = new int[24];
        for (int i = 0; i < 24_000; i++) {
            hits[IdIndex.home(random.nextInt(), 24)]++;
        }
        for (int bucket = 0; bucket < 24; bucket++) {
            assertThat(hits[bucket]).as("bucket %d", bucket).isBetween(800, 1200);
        }
    }

    /** 50% doubles from 16 (the power-of-two table before); 75% grows by half, its load between 50% and 75%. */
    @ParameterizedTest(name = "max load {0}%")
    @CsvSource({"50, '16,32,64,128,256,512,1024,2048,4096'", "75, '16,24,36,54,81,122,183,275,413,620,930,1395,2093'"})
    void growth_followsTheMaxLoad(int maxLoadPercent, String expectedLengths) {
        IdIndex index = new IdIndex(KEY0, KEY1, maxLoadPercent);
        List<Integer> lengths = new ArrayList<>(List.of(index.bucketCount()));
        for (int handle = 0; handle < 1500; handle++) {
            idsByHandle[handle] = "g" + handle;
            index.insert(idsByHandle[handle], handle);
            if (index.bucketCount() != lengths.get(lengths.size() - 1)) {
                assertThat(index.size() * 100).as("load just after growing to %d", index.bucketCount())
                        .isGreaterThanOrEqualTo(index.bucketCount() * (maxLoadPercent - 25) - 100);
                lengths.add(index.bucketCount());
            }
        }
        List<Integer> expected = new ArrayList<>();
        for (String length : expectedLengths.split(",")) {
            expected.add(Integer.parseInt(length));
        }
        assertThat(lengths).isEqualTo(expected.subList(0, lengths.size()));
        assertThat(lengths).hasSizeGreaterThanOrEqualTo(Math.min(expected.size(), 9));
    }

    /**
     * A run that wraps in a table of 24 buckets (not a power of two): three ids homed in bucket 22 take 22, 23 and
     * 0, one homed in 23 goes on to 1, one homed in 0 to 2. Removing from the run's start pulls each member back
     * across the end as far as its home allows.
     */
    @Test
    void remove_inATableOf24_shiftsMembersBackAcrossTheEnd_asFarAsTheirHomesAllow() {
        IdIndex index = new IdIndex(KEY0, KEY1, 75);
        for (int h = 0; h < 13; h++) { // grow to 24 buckets, then empty it again (no shrink below 8,192)
            idsByHandle[h] = "fill" + h;
            index.insert(idsByHandle[h], h);
        }
        for (int h = 0; h < 13; h++) {
            index.remove(idsByHandle[h], h);
            idsByHandle[h] = null;
        }
        assertThat(index.bucketCount()).isEqualTo(24);
        List<String> at22 = idsHomedAt(index, "a", 22, 3);
        String at23 = idsHomedAt(index, "b", 23, 1).get(0);
        String at0 = idsHomedAt(index, "c", 0, 1).get(0);
        String[] order = {at22.get(0), at22.get(1), at22.get(2), at23, at0};
        for (int h = 0; h < order.length; h++) {
            idsByHandle[h] = order[h];
            index.insert(order[h], h);
        }
        assertThat(List.of(bucketOf(index, 0), bucketOf(index, 1), bucketOf(index, 2), bucketOf(index, 3),
                bucketOf(index, 4))).containsExactly(22, 23, 0, 1, 2);

        index.remove(order[0], 0); // 1 → 22, 2 → 23 (across the end), 3 → 0 (across the end), 4 → 1
        idsByHandle[0] = null;

        assertThat(List.of(bucketOf(index, 1), bucketOf(index, 2), bucketOf(index, 3), bucketOf(index, 4)))
                .containsExactly(22, 23, 0, 1);
        assertThat(index.find(order[0], idsOf)).isEqualTo(-1);

        assertThat(index.find(order[3], idsOf)).isEqualTo(3); // homed at 23, now in bucket 0
        index.remove(order[2], 2); // the last bucket: 3 (home 23) comes back across the end, 4 into its home 0
        idsByHandle[2] = null;
        assertThat(List.of(bucketOf(index, 1), bucketOf(index, 3), bucketOf(index, 4))).containsExactly(22, 23, 0);
        assertThat(index.removeLastFound(3)).as("the found entry's bucket moved").isFalse();
        index.remove(order[1], 1); // 3 is in its home, 4 in its home across the end: neither moves
        idsByHandle[1] = null;
        assertThat(List.of(bucketOf(index, 3), bucketOf(index, 4))).containsExactly(23, 0);
        assertThat(index.find(order[4], idsOf)).isEqualTo(4);
        assertThat(index.removeLastFound(4)).isTrue();
        assertThat(index.find(order[3], idsOf)).isEqualTo(3);
        assertThat(index.size()).isEqualTo(1);
        assertProbeRunsIntact(index, 75, "end");
    }

    private static List<String> idsHomedAt(IdIndex index, String prefix, int home, int count) {
        List<String> ids = new ArrayList<>();
        for (int n = 0; ids.size() < count; n++) {
            if (IdIndex.home(index.hash(prefix + n), index.bucketCount()) == home) {
                ids.add(prefix + n);
            }
        }
        return ids;
    }

    /**
     * Random inserts and removals (by id, by cached hash, and right after a find, as a cancel removes) against a
     * HashMap, through phases that grow the table past the shrink threshold, churn near full load, drain it to
     * empty (it must shrink back to 16 buckets) and churn at a few dozen entries, close to the maximum load of a
     * small table, where runs wrap all the time. Every step checks the id it touched; every 97th step (1,001st
     * above 2,000 entries) checks every id, the probe invariant and the load, and some of those checks a copy.
     * The test counts removals that pulled an entry from bucket 0 back to the last bucket and requires many (14 to
     * 85 in these cases when written), so the wrap-around case is really exercised.
     */
    @ParameterizedTest(name = "max load {0}%, seed {1}, churn at {2} and {3} entries, >= {4} shifts across the end")
    @CsvSource({"75, 1, 40, 20, 40", "75, 2, 40, 20, 40", "75, 3, 40, 20, 40", "50, 4, 15, 7, 10",
            "50, 6, 15, 7, 10", "90, 5, 40, 20, 40"})
    void randomOperations_agreeWithAHashMap_acrossWrapGrowthAndShrink(int maxLoadPercent, long seed, int small,
                                                                      int smaller, int minimumShifts) {
        Random random = new Random(seed);
        IdIndex index = new IdIndex(KEY0, KEY1, maxLoadPercent);
        Map<String, Integer> model = new HashMap<>();
        List<String> present = new ArrayList<>();
        List<Integer> free = new ArrayList<>();
        for (int h = POOL - 1; h >= 0; h--) {
            free.add(h);
        }
        int minimum = arrayLength(index, "buckets");
        int shiftsAcrossTheEnd = 0;
        int shrinks = 0;
        int nextId = 0;
        // target sizes: up past the shrink threshold, down to 0, a small churn, up to mid, down to 0 again
        int[][] phases = {{12_000, 0}, {0, 0}, {small, 6_000}, {8_000, 0}, {0, 0}, {smaller, 8_000}, {0, 0}};
        int step = 0;
        for (int[] phase : phases) {
            int target = phase[0];
            int churn = phase[1];
            int phaseSteps = 0;
            while (model.size() != target || phaseSteps < churn) {
                phaseSteps++;
                step++;
                boolean insert = random.nextBoolean();
                if (model.size() > target) {
                    insert = random.nextInt(4) == 0; // mostly removing
                } else if (model.size() < target) {
                    insert = random.nextInt(4) != 0; // mostly inserting
                }
                String context = "load " + maxLoadPercent + " seed " + seed + " step " + step + " size " + model.size();
                if (insert && !free.isEmpty()) {
                    String id = random.nextInt(10) == 0 && !present.isEmpty()
                            ? present.get(random.nextInt(present.size())) // already present: the caller checks first
                            : "m" + nextId++;
                    if (model.containsKey(id)) {
                        assertThat(index.find(id, idsOf)).as(context).isEqualTo(model.get(id));
                        continue;
                    }
                    assertThat(index.find(id, idsOf)).as(context + " absent " + id).isEqualTo(-1);
                    int handle = free.remove(free.size() - 1);
                    idsByHandle[handle] = id;
                    index.insert(id, handle);
                    model.put(id, handle);
                    present.add(id);
                    assertThat(index.find(id, idsOf)).as(context + " inserted " + id).isEqualTo(handle);
                } else if (!present.isEmpty()) {
                    int at = random.nextInt(present.size());
                    String id = present.get(at);
                    int handle = model.get(id);
                    long[] before = buckets(index);
                    int atZero = before[0] == 0 ? -1 : (int) before[0] - 1;
                    int wasBuckets = before.length;
                    switch (random.nextInt(3)) {
                        case 0 -> index.remove(id, handle);
                        case 1 -> index.remove(index.hash(id), handle);
                        default -> {
                            assertThat(index.find(id, idsOf)).as(context).isEqualTo(handle);
                            assertThat(index.removeLastFound(handle)).as(context).isTrue();
                        }
                    }
                    if (atZero >= 0 && atZero != handle && buckets(index).length == wasBuckets
                            && bucketOf(index, atZero) == wasBuckets - 1) {
                        shiftsAcrossTheEnd++;
                    }
                    idsByHandle[handle] = null;
                    model.remove(id);
                    present.set(at, present.get(present.size() - 1));
                    present.remove(present.size() - 1);
                    free.add(handle);
                    assertThat(index.find(id, idsOf)).as(context + " removed " + id).isEqualTo(-1);
                    if (model.isEmpty() && wasBuckets > 8192) {
                        assertThat(index.bucketCount()).as(context + ": drained, shrunk").isEqualTo(minimum);
                        shrinks++;
                    }
                }
                assertThat(index.size()).as(context).isEqualTo(model.size());
                if (step % (model.size() > 2000 ? 1001 : 97) == 0) {
                    assertProbeRunsIntact(index, maxLoadPercent, context);
                    for (Map.Entry<String, Integer> entry : model.entrySet()) {
                        assertThat(index.find(entry.getKey(), idsOf)).as("%s: find %s", context, entry.getKey())
                                .isEqualTo(entry.getValue());
                    }
                    if (step % 7 == 0) {
                        IdIndex copy = new IdIndex(index);
                        for (Map.Entry<String, Integer> entry : model.entrySet()) {
                            assertThat(copy.find(entry.getKey(), idsOf)).as(context).isEqualTo(entry.getValue());
                        }
                        if (!present.isEmpty()) { // the copy is independent
                            String id = present.get(0);
                            copy.remove(id, model.get(id));
                            assertThat(index.find(id, idsOf)).as(context).isEqualTo(model.get(id));
                        }
                    }
                }
            }
            assertProbeRunsIntact(index, maxLoadPercent, "end of phase to " + target);
        }
        assertThat(shrinks).as("drains of a large table").isEqualTo(2);
        assertThat(shiftsAcrossTheEnd).as("entries pulled back from bucket 0 to the last bucket").isGreaterThanOrEqualTo(minimumShifts);
    }

    /** The copy keeps the sizing: growing the copy follows the same lengths as the source. */
    @ParameterizedTest(name = "max load {0}%")
    @ValueSource(ints = {50, 75})
    void copy_keepsTheMaxLoad(int maxLoadPercent) {
        IdIndex index = new IdIndex(KEY0, KEY1, maxLoadPercent);
        for (int h = 0; h < 100; h++) {
            idsByHandle[h] = "k" + h;
            index.insert(idsByHandle[h], h);
        }
        IdIndex copy = new IdIndex(index);
        for (int h = 100; h < 1000; h++) {
            idsByHandle[h] = "k" + h;
            index.insert(idsByHandle[h], h);
            copy.insert(idsByHandle[h], h);
        }
        assertThat(copy.bucketCount()).isEqualTo(index.bucketCount());
        assertThat(copy.toString()).contains("maxLoad=" + maxLoadPercent + "%");
    }
}
