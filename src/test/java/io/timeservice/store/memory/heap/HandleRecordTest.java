package io.timeservice.store.memory.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the per-handle record keeps beside the heap slot: the cached id hash (the index entry of a leaving timer is
 * removed under it, without reading the id), the creation times behind {@link OldestPending} (oldest pending timer in
 * O(1)) and the wall-clock creation second. A seeded model runs random inserts, cancels, edits and pops on ids that
 * share one String hashCode, and checks after every step. Also: the untraced bottom-up root pop leaves the same
 * layout as the traced top-down one.
 */
class HandleRecordTest {

    static Stream<Arguments> seedsAndArities() {
        return Stream.of(2, 4, 8).flatMap(arity -> Stream.of(11L, 12L, 13L).map(seed -> Arguments.of(seed, arity)));
    }

    /** One pending timer as the model sees it. */
    private record Entry(String id, long sequence, long createdAt, long wallMillis) {
    }

    @ParameterizedTest(name = "seed {0}, arity {1}")
    @MethodSource("seedsAndArities")
    void randomChurnOnCollidingIds_keepsIndexOldestAndWallSecondsRight(long seed, int arity) {
        Random random = new Random(seed);
        // 2^8 ids with one hashCode, and as many plain ones: most lookups and removals walk a shared probe run.
        List<String> ids = new ArrayList<>(IdIndexTest.collidingIds("k", 8));
        for (int i = 0; i < 256; i++) {
            ids.add("p" + i);
        }
        IndexedTimerHeap heap = new IndexedTimerHeap(arity);
        Map<String, Entry> pending = new HashMap<>();
        TreeMap<Long, Entry> bySequence = new TreeMap<>();
        long sequence = 0;
        long now = 0;

        for (int step = 0; step < 6000; step++) {
            String context = "seed " + seed + " arity " + arity + " step " + step;
            String id = ids.get(random.nextInt(ids.size()));
            int choice = random.nextInt(10);
            if (choice < 5 && !pending.containsKey(id)) {
                long wall = 1_600_000_000_000L + random.nextInt(1_000_000);
                heap.insert(id, now + random.nextInt(50), random.nextInt(3), ++sequence, 1, now, wall, null);
                Entry entry = new Entry(id, sequence, now, wall);
                pending.put(id, entry);
                bySequence.put(sequence, entry);
            } else if (choice < 7 && pending.containsKey(id)) {
                heap.remove(heap.find(id));
                bySequence.remove(pending.remove(id).sequence());
            } else if (choice < 8 && pending.containsKey(id)) {
                heap.update(heap.find(id), now + random.nextInt(50), random.nextInt(3));
            } else if (heap.size() > 0) {
                Timer root = heap.timerAt(heap.peek());
                heap.removeRoot();
                bySequence.remove(pending.remove(root.id()).sequence());
            }
            now += random.nextInt(2);

            assertThat(heap.size()).as(context).isEqualTo(pending.size());
            for (String probe : List.of(id, ids.get(random.nextInt(ids.size())))) {
                int handle = heap.find(probe);
                assertThat(handle != IndexedTimerHeap.NONE).as("%s: %s pending", context, probe)
                        .isEqualTo(pending.containsKey(probe));
                if (handle != IndexedTimerHeap.NONE) {
                    assertThat(heap.timerAt(handle).id()).as(context).isEqualTo(probe);
                }
            }
            if (bySequence.isEmpty()) {
                assertThat(heap.records().oldest()).as(context).isEqualTo(IndexedTimerHeap.NONE);
            } else {
                // Earliest creation time; among equal ones, the earliest wall-clock second.
                Entry oldest = bySequence.values().stream().min(Comparator.comparingLong(Entry::createdAt)
                        .thenComparingLong(entry -> entry.wallMillis() / 1000)).orElseThrow();
                int handle = heap.records().oldest();
                assertThat(pending).as("%s: oldest is pending", context).containsKey(heap.timerAt(handle).id());
                assertThat(heap.records().createdAt(handle)).as(context).isEqualTo(oldest.createdAt());
                assertThat(heap.records().createdAtWallMillis(handle)).as("%s: wall time in whole seconds", context)
                        .isEqualTo(oldest.wallMillis() / 1000 * 1000);
            }
            InvariantReport report = HeapInvariants.check(heap, 0);
            assertThat(report.ok()).as("%s: %s", context, report.firstFailure()).isTrue();
        }
    }

    @Test
    void cachedHash_thatIsNotTheIdsHash_isReportedByTheIndexCheck() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        for (int i = 0; i < 5; i++) {
            heap.insert("t" + i, 10 + i, 0, i, 1, 0, 0, null);
        }
        HeapCorruption.corruptCachedHash(heap, heap.find("t3"));

        InvariantReport report = HeapInvariants.check(heap, 0);

        assertThat(report.ok()).isFalse();
        assertThat(report.firstFailure().name()).isEqualTo(InvariantReport.INDEX_MATCHES_HEAP);
        assertThat(report.firstFailure().detail()).contains("t3", "cached hash");
    }

    @Test
    void wallSeconds_roundsDownAndClampsToUnsigned32Bits() {
        assertThat(TimerRecords.toWallSeconds(0)).isZero();
        assertThat(TimerRecords.toWallSeconds(999)).isZero();
        assertThat(TimerRecords.toWallSeconds(1000)).isEqualTo(1);
        assertThat(TimerRecords.toWallSeconds(-1)).as("before 1970: clamped").isZero();
        assertThat(Integer.toUnsignedLong(TimerRecords.toWallSeconds(4_294_967_295_999L))).isEqualTo(0xFFFF_FFFFL);
        assertThat(Integer.toUnsignedLong(TimerRecords.toWallSeconds(Long.MAX_VALUE))).as("after 2106: clamped")
                .isEqualTo(0xFFFF_FFFFL);
        assertThat(Integer.toUnsignedLong(TimerRecords.toWallSeconds(3_000_000_000_123L)))
                .as("past 2038 needs the sign bit").isEqualTo(3_000_000_000L);
    }

    @Test
    void newTimerTyingTheOldest_leavesTheReportedOldest_andAnEarlierOneTakesOver() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        heap.insert("a", 10, 0, 1, 1, 5, 7_000, null);
        heap.insert("b", 10, 0, 2, 1, 5, 7_000, null);
        heap.remove(heap.find("a"));
        assertThat(heap.records().oldest()).isEqualTo(heap.find("b"));

        heap.insert("c", 10, 0, 3, 1, 5, 7_999, null); // same clock, same wall second, a's lower handle
        assertThat(heap.find("c")).as("reuses the freed lower handle").isLessThan(heap.find("b"));
        assertThat(heap.records().oldest()).as("an exact tie does not move the oldest").isEqualTo(heap.find("b"));
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();

        heap.insert("d", 10, 0, 4, 1, 4, 9_000, null); // an earlier virtual creation time wins over any wall second
        assertThat(heap.records().oldest()).isEqualTo(heap.find("d"));
        heap.remove(heap.find("d"));
        heap.remove(heap.find("b"));
        assertThat(heap.records().oldest()).isEqualTo(heap.find("c"));
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
    }

    @ParameterizedTest(name = "seed {0}, arity {1}")
    @MethodSource("seedsAndArities")
    void untracedRootPop_leavesTheSameLayoutAndLevelsAsTheTracedOne(long seed, int arity) {
        Random random = new Random(seed);
        IndexedTimerHeap traced = new IndexedTimerHeap(arity);
        IndexedTimerHeap untraced = new IndexedTimerHeap(arity);
        traced.listen(new TraceRecorder(traced, step -> { }));
        long sequence = 0;
        for (int round = 0; round < 40; round++) {
            for (int i = random.nextInt(60); i > 0; i--) {
                long fireTime = random.nextInt(30); // few distinct fireTimes and priorities: many ties
                int priority = random.nextInt(3);
                sequence++;
                traced.insert("t" + sequence, fireTime, priority, sequence, 1, 0, 0, null);
                untraced.insert("t" + sequence, fireTime, priority, sequence, 1, 0, 0, null);
            }
            for (int i = random.nextInt(50); i > 0 && untraced.size() > 0; i--) {
                traced.removeRoot();
                untraced.removeRoot();
                String context = "seed " + seed + " arity " + arity + " round " + round;
                assertThat(untraced.takeLevelsMoved()).as(context).isEqualTo(traced.takeLevelsMoved());
                assertThat(cells(untraced)).as(context).isEqualTo(cells(traced));
                assertThat(HeapInvariants.check(untraced, 0).ok()).as(context).isTrue();
            }
        }
    }

    private static List<HeapView.Cell> cells(IndexedTimerHeap heap) {
        List<HeapView.Cell> cells = new ArrayList<>();
        for (int slot = 0; slot < heap.size(); slot++) {
            cells.add(heap.cell(slot));
        }
        return cells;
    }
}
