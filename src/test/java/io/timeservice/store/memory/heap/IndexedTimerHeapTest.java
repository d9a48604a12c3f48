package io.timeservice.store.memory.heap;

import static io.timeservice.store.memory.heap.HeapTestSupport.arrayLength;
import static io.timeservice.store.memory.heap.HeapTestSupport.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.timeservice.model.InvariantReport;
import io.timeservice.model.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The heap on its own: seed 004's worked scheduler example (priorities A3 B1 C2 D1 E4 at one fireTime), bulk
 * loading, array growth and release, and the copy that invariant checks run on.
 */
class IndexedTimerHeapTest {

    private static final long SAME_FIRE_TIME = 100;

    /** Seed 004's five jobs, pushed in order A..E with sequences 0..4, all due at the same time. */
    private static IndexedTimerHeap workedExample(int arity) {
        IndexedTimerHeap heap = new IndexedTimerHeap(arity);
        String[] ids = {"A", "B", "C", "D", "E"};
        int[] priorities = {3, 1, 2, 1, 4};
        for (int i = 0; i < ids.length; i++) {
            heap.insert(ids[i], SAME_FIRE_TIME, priorities[i], i, 1, 0, 0, null);
        }
        return heap;
    }

    private static String pop(IndexedTimerHeap heap) {
        String id = heap.timerAt(heap.peek()).id();
        heap.removeRoot();
        return id;
    }

    private static List<String> popAll(IndexedTimerHeap heap) {
        List<String> popped = new ArrayList<>();
        while (heap.size() > 0) {
            popped.add(pop(heap));
            assertThat(HeapInvariants.check(heap, 0).ok()).as("invariants after popping %s", popped).isTrue();
        }
        return popped;
    }

    private static List<String> arrayOrder(IndexedTimerHeap heap) {
        List<String> ids = new ArrayList<>();
        for (int slot = 0; slot < heap.size(); slot++) {
            ids.add(heap.cell(slot).id());
        }
        return ids;
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 3, 4, 8})
    void workedExample_popsBThenDThenCThenAThenE(int arity) {
        IndexedTimerHeap heap = workedExample(arity);

        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
        assertThat(popAll(heap)).containsExactly("B", "D", "C", "A", "E");
    }

    @Test
    void workedExample_binaryLayoutsMatchTheArticle() {
        IndexedTimerHeap heap = workedExample(2);

        assertThat(arrayOrder(heap)).containsExactly("B", "D", "C", "A", "E");
        assertThat(pop(heap)).isEqualTo("B");
        assertThat(arrayOrder(heap)).containsExactly("D", "A", "C", "E");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void workedExample_updatingEToPriority0_makesItNext(int arity) {
        IndexedTimerHeap heap = workedExample(arity);
        int e = heap.find("E");

        heap.update(e, SAME_FIRE_TIME, 0);

        Timer updated = heap.timerAt(heap.peek());
        assertThat(updated.id()).isEqualTo("E");
        assertThat(updated.sequence()).isEqualTo(4);
        assertThat(updated.version()).isEqualTo(2);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
        assertThat(popAll(heap)).containsExactly("E", "B", "D", "C", "A");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void workedExample_cancellingC_removesItFromHeapAndIndex(int arity) {
        IndexedTimerHeap heap = workedExample(arity);

        heap.remove(heap.find("C"));

        assertThat(heap.find("C")).isEqualTo(IndexedTimerHeap.NONE);
        assertThat(heap.size()).isEqualTo(4);
        assertThat(arrayOrder(heap)).doesNotContain("C");
        InvariantReport report = HeapInvariants.check(heap, 0);
        assertThat(report.ok()).as("%s", report.firstFailure()).isTrue();
        assertThat(popAll(heap)).containsExactly("B", "D", "A", "E");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void bulkLoad_workedExample_popsSameSequenceAsRepeatedInserts(int arity) {
        List<Timer> jobs = List.of(
                new Timer("A", SAME_FIRE_TIME, 3, 0, 1, 0, null),
                new Timer("B", SAME_FIRE_TIME, 1, 1, 1, 0, null),
                new Timer("C", SAME_FIRE_TIME, 2, 2, 1, 0, null),
                new Timer("D", SAME_FIRE_TIME, 1, 3, 1, 0, null),
                new Timer("E", SAME_FIRE_TIME, 4, 4, 1, 0, null));
        IndexedTimerHeap bulk = new IndexedTimerHeap(arity);

        bulk.bulkLoad(jobs, timer -> 0L);

        assertThat(popAll(bulk)).isEqualTo(popAll(workedExample(arity)))
                .containsExactly("B", "D", "C", "A", "E");
    }

    static Stream<Arguments> aritiesAndSizes() {
        return Stream.of(2, 4, 8).flatMap(arity -> Stream.of(0, 1, 2, 3, arity, arity + 1, 17, 100, 1000)
                .map(size -> Arguments.of(arity, size)));
    }

    @ParameterizedTest(name = "arity {0}, {1} timers")
    @MethodSource("aritiesAndSizes")
    void bulkLoad_randomTimers_indexCorrectAndPopsMatchRepeatedInsertsAndASort(int arity, int count) {
        Random random = new Random(1000L * arity + count);
        List<Timer> timers = randomTimers(random, count);
        List<Timer> shuffled = new ArrayList<>(timers);
        Collections.shuffle(shuffled, random);

        IndexedTimerHeap bulk = new IndexedTimerHeap(arity);
        bulk.bulkLoad(shuffled, timer -> timer.createdAt() * 1000 + 5999);

        assertThat(bulk.size()).isEqualTo(count);
        InvariantReport report = HeapInvariants.check(bulk, 0);
        assertThat(report.ok()).as("%s", report.firstFailure()).isTrue();
        for (Timer timer : timers) {
            int handle = bulk.find(timer.id());
            assertThat(handle).as("handle of %s", timer.id()).isNotEqualTo(IndexedTimerHeap.NONE);
            assertThat(bulk.timerAt(handle)).isEqualTo(timer);
            assertThat(bulk.records().createdAtWallMillis(handle)).as("whole seconds, rounded down")
                    .isEqualTo(timer.createdAt() * 1000 + 5000);
        }
        assertThat(bulk.find("absent")).isEqualTo(IndexedTimerHeap.NONE);
        if (count > 0) {
            // Creation order is sequence order; the oldest is the smallest sequence whatever the input order.
            assertThat(bulk.timerAt(bulk.records().oldest()).sequence()).isZero();
        }

        IndexedTimerHeap inserted = new IndexedTimerHeap(arity);
        for (Timer timer : timers) { // ascending sequence, as insert requires
            inserted.insert(timer.id(), timer.fireTime(), timer.priority(), timer.sequence(),
                    (int) timer.version(), timer.createdAt(), 0, timer.payload());
        }
        List<Timer> sorted = new ArrayList<>(timers);
        sorted.sort(Comparator.comparingLong(Timer::fireTime).thenComparingInt(Timer::priority)
                .thenComparingLong(Timer::sequence));

        List<String> bulkPops = popAll(bulk);
        assertThat(bulkPops).isEqualTo(popAll(inserted));
        assertThat(bulkPops).isEqualTo(sorted.stream().map(Timer::id).toList());
    }

    @Test
    void bulkLoad_thenMutations_keepWorkingFromTheLoadedLayout() {
        Random random = new Random(99);
        List<Timer> timers = randomTimers(random, 200);
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        heap.bulkLoad(timers, timer -> 0L);

        for (int i = 0; i < 200; i += 3) {
            heap.remove(heap.find("b" + i));
        }
        for (int i = 1; i < 200; i += 3) {
            heap.update(heap.find("b" + i), random.nextInt(6), random.nextInt(3));
        }
        heap.insert("late", 0, -1, 10_000, 1, 0, 0, null);

        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
        assertThat(pop(heap)).isEqualTo("late");
    }

    @Test
    void bulkLoad_duplicateId_refusedAndHeapLeftEmpty() {
        IndexedTimerHeap heap = new IndexedTimerHeap(2);
        List<Timer> timers = List.of(new Timer("x", 1, 0, 0, 1, 0, null), new Timer("y", 1, 0, 1, 1, 0, null),
                new Timer("x", 2, 0, 2, 1, 0, null));

        assertThatThrownBy(() -> heap.bulkLoad(timers, timer -> 0L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x");
        assertThat(heap.size()).isZero();
        assertThat(heap.find("y")).isEqualTo(IndexedTimerHeap.NONE);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
    }

    @Test
    void bulkLoad_intoNonEmptyHeap_refused() {
        IndexedTimerHeap heap = new IndexedTimerHeap(2);
        heap.insert("a", 1, 0, 0, 1, 0, 0, null);

        assertThatThrownBy(() -> heap.bulkLoad(List.of(new Timer("b", 1, 0, 1, 1, 0, null)), timer -> 0L))
                .isInstanceOf(IllegalStateException.class);
        assertThat(heap.size()).isEqualTo(1);
    }

    @Test
    void constructor_arityBelowTwo_refused() {
        assertThatThrownBy(() -> new IndexedTimerHeap(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void burstPast4096_growsArraysThenReleasesThemWhenDrainedEmpty(int arity) {
        IndexedTimerHeap heap = new IndexedTimerHeap(arity);
        int initialSlots = heap.slotCapacity();
        int initialBuckets = arrayLength(field(heap.records(), "index"), "buckets");
        Random random = new Random(arity);
        int count = 7000; // past 8,192 index buckets at the index's 75% load too, so the index shrinks as well
        for (int i = 0; i < count; i++) {
            heap.insert("burst-" + i, random.nextInt(50), random.nextInt(3), i, 1, i, 0, null);
        }
        assertThat(heap.slotCapacity()).isGreaterThanOrEqualTo(count);
        assertThat(heap.records().capacity()).isGreaterThanOrEqualTo(count);
        assertThat(arrayLength(field(heap.records(), "index"), "buckets")).isGreaterThan(2 * 4096);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();

        Timer previous = null;
        while (heap.size() > 0) {
            Timer next = heap.timerAt(heap.peek());
            if (previous != null) {
                assertThat(Timer.compareFiringOrder(previous, next)).isNegative();
            }
            heap.removeRoot();
            previous = next;
        }

        assertThat(heap.slotCapacity()).isEqualTo(initialSlots);
        assertThat(heap.records().capacity()).isEqualTo(initialSlots);
        assertThat(arrayLength(field(heap.records(), "index"), "buckets")).isEqualTo(initialBuckets);
        assertThat(heap.peek()).isEqualTo(IndexedTimerHeap.NONE);
        assertThat(heap.records().oldest()).isEqualTo(IndexedTimerHeap.NONE);
        assertThat(heap.find("burst-0")).isEqualTo(IndexedTimerHeap.NONE);
        // Reusable after the release.
        heap.insert("burst-0", 1, 0, count, 1, 0, 0, null);
        heap.insert("again", 0, 0, count + 1, 1, 0, 0, null);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
        assertThat(popAll(heap)).containsExactly("again", "burst-0");
    }

    @Test
    void burstPast4096_drainedByRemovingInRandomOrder_releasesArrays() {
        IndexedTimerHeap heap = new IndexedTimerHeap(2);
        int count = 4500;
        for (int i = 0; i < count; i++) {
            heap.insert("r" + i, i % 7, 0, i, 1, i, 0, null);
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(5));
        for (int n = 0; n < order.size(); n++) {
            heap.remove(heap.find("r" + order.get(n)));
            if (n % 500 == 0) {
                assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
            }
        }

        assertThat(heap.size()).isZero();
        assertThat(heap.records().capacity()).isEqualTo(16);
        assertThat(arrayLength(field(heap.records(), "index"), "buckets")).isEqualTo(16);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void copy_isTheSameHeapAtThatInstant_andGoesItsOwnWayAfterwards(int arity) {
        Random random = new Random(31);
        IndexedTimerHeap heap = new IndexedTimerHeap(arity);
        List<Timer> timers = randomTimers(random, 600);
        for (Timer timer : timers) {
            heap.insert(timer.id(), timer.fireTime(), timer.priority(), timer.sequence(), (int) timer.version(),
                    timer.createdAt(), 1_000L * timer.sequence(), timer.payload());
        }
        for (int i = 0; i < 200; i++) { // holes in the handle range: the free list and the tree's rescans matter
            int handle = heap.find("b" + random.nextInt(timers.size()));
            if (handle != IndexedTimerHeap.NONE) {
                heap.remove(handle);
            }
        }

        IndexedTimerHeap copy = heap.copy();

        assertThat(arrayOrder(copy)).isEqualTo(arrayOrder(heap));
        for (Timer timer : timers) {
            int handle = heap.find(timer.id());
            assertThat(copy.find(timer.id())).as(timer.id()).isEqualTo(handle);
            if (handle != IndexedTimerHeap.NONE) {
                assertThat(copy.timerAt(handle)).isEqualTo(heap.timerAt(handle));
            }
        }
        assertThat(copy.records().oldest()).isEqualTo(heap.records().oldest());
        assertThat(HeapInvariants.check(copy, 0)).isEqualTo(HeapInvariants.check(heap, 0));

        List<String> copiedOrder = arrayOrder(copy);
        List<String> expectedPops = popAll(heap.copy());
        popAll(heap);
        heap.insert("later", 1, 0, 10_000, 1, 0, 0, null);
        assertThat(arrayOrder(copy)).as("the original moved on, the copy did not").isEqualTo(copiedOrder);
        assertThat(copy.find("later")).isEqualTo(IndexedTimerHeap.NONE);
        copy.insert("added-to-copy", -1, 0, 10_001, 1, 0, 0, null); // a working heap: grows past its copied size
        assertThat(pop(copy)).isEqualTo("added-to-copy");
        assertThat(popAll(copy)).isEqualTo(expectedPops);
        assertThat(heap.find("added-to-copy")).isEqualTo(IndexedTimerHeap.NONE);
    }

    @Test
    void copy_ofAHeapWithABrokenIndex_reportsTheSameFailure() {
        IndexedTimerHeap heap = workedExample(2);
        HeapCorruption.swapCellsWithoutIndex(heap, 1, 2);
        InvariantReport broken = HeapInvariants.check(heap, 0);
        assertThat(broken.ok()).isFalse();

        assertThat(HeapInvariants.check(heap.copy(), 0)).isEqualTo(broken);
    }

    /** Ids b0..b(n-1) with unique sequences 0..n-1, and few distinct fireTimes and priorities (many ties). */
    private static List<Timer> randomTimers(Random random, int count) {
        List<Timer> timers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            timers.add(new Timer("b" + i, random.nextInt(6), random.nextInt(3), i, 1 + random.nextInt(3),
                    10L * i, random.nextBoolean() ? null : "payload-" + i));
        }
        return timers;
    }
}
