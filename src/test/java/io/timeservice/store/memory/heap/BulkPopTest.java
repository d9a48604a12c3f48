package io.timeservice.store.memory.heap;

import static io.timeservice.store.memory.heap.HeapTestSupport.arrayLength;
import static io.timeservice.store.memory.heap.HeapTestSupport.field;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.timeservice.model.Timer;
import io.timeservice.model.TraceStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link IndexedTimerHeap#popDue} against what it replaces, a loop of {@link IndexedTimerHeap#removeRoot}: the same
 * timers in the same order, the same timers left behind, the four invariants after it, steps that replay strictly to
 * the new array, and every fired timer released only after it was reported.
 */
class BulkPopTest {

    static Stream<Arguments> aritiesAndLimits() {
        int chunk = IndexedTimerHeap.POP_CHUNK;
        return Stream.of(2, 4, 8).flatMap(arity -> Stream.of(0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 7,
                Integer.MAX_VALUE).map(limit -> Arguments.of(arity, limit)));
    }

    @ParameterizedTest(name = "arity {0}, limit {1}")
    @MethodSource("aritiesAndLimits")
    void popDue_firesWhatRootPopsFire_andItsStepsReplayToTheNewArray(int arity, int limit) {
        IndexedTimerHeap bulk = messyHeap(arity, 3000, 7);
        IndexedTimerHeap single = messyHeap(arity, 3000, 7);
        List<TraceStep> bulkSteps = new ArrayList<>();
        List<String> before = ids(bulk);
        bulk.listen(new TraceRecorder(bulk, bulkSteps::add));
        long now = 400; // fireTimes run 0..999: about 40% are due

        List<String> bulkFired = new ArrayList<>();
        int count = bulk.popDue(now, limit, (handle, fireTime, priority, sequence, levels) -> {
            assertThat(bulk.slotOf(handle)).as("out of the heap when reported").isEqualTo(IndexedTimerHeap.NONE);
            Timer timer = bulk.records().timer(handle, fireTime, priority, sequence);
            assertThat(bulk.find(timer.id())).as("still readable and indexed when reported").isEqualTo(handle);
            assertThat(levels).isBetween(0, 20);
            bulkFired.add(describe(timer));
        });
        List<String> singleFired = new ArrayList<>();
        while (singleFired.size() < limit && single.size() > 0 && single.fireTime(single.peek()) <= now) {
            Timer timer = single.timerAt(single.peek());
            single.removeRoot();
            singleFired.add(describe(timer));
        }

        assertThat(count).isEqualTo(bulkFired.size());
        assertThat(bulkFired).isEqualTo(singleFired);
        assertThat(sorted(cells(bulk))).isEqualTo(sorted(cells(single)));
        assertThat(HeapInvariants.check(bulk, 0).ok()).isTrue();
        assertThat(HeapTraceReplay.replay(before, bulkSteps, "arity " + arity + ", limit " + limit))
                .isEqualTo(ids(bulk));
        assertThat(bulkSteps.stream().filter(step -> step.op().equals("remove")).map(TraceStep::id).toList())
                .as("fired timers leave in firing order").isEqualTo(bulkFired.stream()
                        .map(fired -> fired.substring(0, fired.indexOf(' '))).toList());
        for (String fired : bulkFired) {
            assertThat(bulk.find(fired.substring(0, fired.indexOf(' ')))).isEqualTo(IndexedTimerHeap.NONE);
        }
        if (limit == Integer.MAX_VALUE) {
            assertThat(bulk.fireTime(bulk.peek())).isGreaterThan(now);
        }
        // The released handles are reused, and the heap keeps working.
        for (int i = 0; i < 100; i++) {
            bulk.insert("again-" + i, now + i, 0, 10_000 + i, 1, 0, 0, null);
        }
        assertThat(HeapInvariants.check(bulk, 0).ok()).isTrue();
    }

    @ParameterizedTest(name = "arity {0}, limit {1}")
    @MethodSource("aritiesAndLimits")
    void popDue_untraced_leavesTheArrayItLeavesTraced(int arity, int limit) {
        // Untraced, holes of one level sift in lockstep; traced, one after another: the same array either way.
        IndexedTimerHeap untraced = messyHeap(arity, 3000, 11);
        IndexedTimerHeap traced = messyHeap(arity, 3000, 11);
        traced.listen(new TraceRecorder(traced, step -> { }));
        List<Integer> untracedLevels = new ArrayList<>();
        List<Integer> tracedLevels = new ArrayList<>();

        untraced.popDue(500, limit, (handle, fireTime, priority, sequence, levels) -> untracedLevels.add(levels));
        traced.popDue(500, limit, (handle, fireTime, priority, sequence, levels) -> tracedLevels.add(levels));

        assertThat(cells(untraced)).isEqualTo(cells(traced));
        assertThat(untracedLevels).isEqualTo(tracedLevels);
        assertThat(HeapInvariants.check(untraced, 0).ok()).isTrue();
    }

    @Test
    void popDue_nothingDue_firesNothingAndChangesNothing() {
        IndexedTimerHeap heap = messyHeap(4, 500, 3);
        List<String> before = cells(heap);
        long changes = heap.changes();

        int count = heap.popDue(-1, Integer.MAX_VALUE, (handle, fireTime, priority, sequence, levels) -> {
            throw new AssertionError("nothing is due");
        });

        assertThat(count).isZero();
        assertThat(cells(heap)).isEqualTo(before);
        assertThat(heap.changes()).isEqualTo(changes);
    }

    @Test
    void popDue_drainsABurstPast4096_thenReleasesTheArrays() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        int initialSlots = heap.slotCapacity();
        for (int i = 0; i < 5000; i++) {
            heap.insert("burst-" + i, i % 50, i % 3, i, 1, i, 0, null);
        }
        List<Long> fireTimes = new ArrayList<>();

        int count = heap.popDue(Long.MAX_VALUE, Integer.MAX_VALUE,
                (handle, fireTime, priority, sequence, levels) -> fireTimes.add(fireTime));

        assertThat(count).isEqualTo(5000);
        assertThat(fireTimes).isSorted();
        assertThat(heap.size()).isZero();
        assertThat(heap.slotCapacity()).isEqualTo(initialSlots);
        assertThat(heap.records().capacity()).isEqualTo(initialSlots);
        assertThat(arrayLength(field(heap.records(), "index"), "buckets")).isEqualTo(16);
        assertThat(heap.records().oldest()).isEqualTo(IndexedTimerHeap.NONE);
    }

    /** {@code count} timers with fireTimes 0..999 (many ties), some cancelled and edited, so slots are reused. */
    private static IndexedTimerHeap messyHeap(int arity, int count, long seed) {
        Random random = new Random(seed);
        IndexedTimerHeap heap = new IndexedTimerHeap(arity);
        for (int i = 0; i < count; i++) {
            heap.insert("t" + i, random.nextInt(1000), random.nextInt(3), i, 1, random.nextInt(100), 0, null);
        }
        for (int i = 0; i < count / 5; i++) {
            int handle = heap.find("t" + random.nextInt(count));
            if (handle == IndexedTimerHeap.NONE) {
                continue;
            }
            if (random.nextBoolean()) {
                heap.remove(handle);
            } else {
                heap.update(handle, random.nextInt(1000), random.nextInt(3));
            }
        }
        heap.takeLevelsMoved();
        return heap;
    }

    private static String describe(Timer timer) {
        return timer.id() + " " + timer.fireTime() + "/" + timer.priority() + "/" + timer.sequence() + " v"
                + timer.version();
    }

    private static List<String> ids(IndexedTimerHeap heap) {
        List<String> ids = new ArrayList<>();
        for (int slot = 0; slot < heap.size(); slot++) {
            ids.add(heap.cell(slot).id());
        }
        return ids;
    }

    private static List<String> sorted(List<String> cells) {
        return cells.stream().map(cell -> cell.replaceFirst("index=\\d+, ", "")).sorted().toList();
    }

    private static List<String> cells(IndexedTimerHeap heap) {
        List<String> cells = new ArrayList<>();
        for (int slot = 0; slot < heap.size(); slot++) {
            cells.add(heap.cell(slot).toString());
        }
        return cells;
    }
}
