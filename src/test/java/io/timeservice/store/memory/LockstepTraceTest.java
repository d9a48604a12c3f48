package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.recordedSlot;
import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import io.timeservice.model.FiringOrder;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Precondition;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.model.TraceStep;
import io.timeservice.store.memory.heap.HeapInvariants;
import io.timeservice.store.memory.heap.HeapListener;
import io.timeservice.store.memory.heap.IndexedTimerHeap;
import io.timeservice.store.memory.heap.TraceRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lockstep rule, watched step by step through the trace that the heap's single write helper records.
 *
 * <p>{@link LockstepProbe} is the trace list itself: the heap appends a step just before performing it, so when
 * the next step arrives (or the operation returns) the previous one has happened, and the probe checks it against
 * the live heap: after every move or place, the array cell holds the id and the handle's recorded slot is that
 * cell. Independently, replaying each operation's steps on a copy of the array must reproduce the array the heap
 * ends with, every move must go into a hole, and every compare must state the true order of the two keys.
 */
class LockstepTraceTest {

    /** A trace list that checks each completed step against the live heap. */
    private static final class LockstepProbe extends ArrayList<TraceStep> {

        private final IndexedTimerHeap heap;
        private final String context;
        private TraceStep performed;
        int writesChecked;

        LockstepProbe(IndexedTimerHeap heap, String context) {
            this.heap = heap;
            this.context = context;
        }

        @Override
        public boolean add(TraceStep step) {
            checkPerformed();
            performed = step;
            return super.add(step);
        }

        /** Checks the last step once the operation has returned. */
        void finish() {
            checkPerformed();
        }

        private void checkPerformed() {
            TraceStep step = performed;
            performed = null;
            if (step == null) {
                return;
            }
            switch (step.op()) {
                case "move", "place" -> {
                    int handle = heap.find(step.id());
                    assertThat(heap.cell(step.to()).id()).as("%s: cell %d after %s", context, step.to(), step)
                            .isEqualTo(step.id());
                    assertThat(recordedSlot(heap, handle)).as("%s: recorded slot of %s after %s", context,
                            step.id(), step).isEqualTo(step.to());
                    writesChecked++;
                }
                case "lift", "remove" -> {
                    int handle = heap.find(step.id());
                    // A removed timer's handle may already be released (and its id unindexed) by now.
                    if (handle != IndexedTimerHeap.NONE || step.op().equals("lift")) {
                        assertThat(recordedSlot(heap, handle))
                                .as("%s: recorded slot of %s after %s", context, step.id(), step)
                                .isEqualTo(IndexedTimerHeap.NONE);
                    }
                }
                case "compare" -> assertThat(heap.cell(step.to()).id()).as("%s: %s", context, step)
                        .isEqualTo(step.otherId());
                default -> throw new AssertionError(context + ": unknown trace op " + step);
            }
        }
    }

    private record Key(long fireTime, int priority, long sequence) {
        static Key of(Timer timer) {
            return new Key(timer.fireTime(), timer.priority(), timer.sequence());
        }

        int compareTo(Key other) {
            return FiringOrder.compare(fireTime, priority, sequence, other.fireTime, other.priority, other.sequence);
        }
    }

    /**
     * Replays {@code steps} on {@code before} (ids by slot) under the documented meaning of each step and returns
     * the resulting array. {@code keys} holds every involved timer's key as it is during the operation.
     */
    private static List<String> replay(List<String> before, List<TraceStep> steps, Map<String, Key> keys,
                                       String context) {
        List<String> cells = new ArrayList<>(before);
        for (TraceStep step : steps) {
            java.util.function.Supplier<String> where = () -> context + ": " + step + " in " + steps;
            switch (step.op()) {
                case "remove", "lift" -> {
                    assertThat(cellAt(cells, step.from())).as(where).isEqualTo(step.id());
                    cells.set(step.from(), null);
                }
                case "move" -> {
                    assertThat(cellAt(cells, step.from()))
                            .as(() -> "moved id sits in its from-slot: " + where.get())
                            .isEqualTo(step.id());
                    assertThat(cellAt(cells, step.to())).as(() -> "move target is a hole: " + where.get())
                            .isNull();
                    setCell(cells, step.to(), step.id());
                    cells.set(step.from(), null);
                }
                case "place" -> {
                    assertThat(cellAt(cells, step.to())).as(() -> "place target is a hole: " + where.get())
                            .isNull();
                    assertThat(cells).as(() -> "placed id is nowhere else: " + where.get())
                            .doesNotContain(step.id());
                    setCell(cells, step.to(), step.id());
                }
                case "compare" -> {
                    assertThat(cellAt(cells, step.from())).as(() -> "sifting id is in the hole: " + where.get())
                            .isNull();
                    assertThat(cellAt(cells, step.to())).as(where).isEqualTo(step.otherId());
                    boolean precedes = keys.get(step.id()).compareTo(keys.get(step.otherId())) < 0;
                    assertThat(step.precedes()).as(() -> "compare states the true order: " + where.get())
                            .isEqualTo(precedes);
                    assertThat(step.decidedBy()).as(where).isEqualTo(decidingKey(keys.get(step.id()),
                            keys.get(step.otherId())));
                }
                default -> throw new AssertionError("unknown op " + where.get());
            }
        }
        while (!cells.isEmpty() && cells.get(cells.size() - 1) == null) {
            cells.remove(cells.size() - 1);
        }
        assertThat(cells).as("no hole left after %s: %s", context, steps).doesNotContainNull();
        return cells;
    }

    private static String decidingKey(Key a, Key b) {
        if (a.fireTime() != b.fireTime()) {
            return "fireTime";
        }
        return a.priority() != b.priority() ? "priority" : "sequence";
    }

    private static String cellAt(List<String> cells, int slot) {
        return slot < cells.size() ? cells.get(slot) : null;
    }

    private static void setCell(List<String> cells, int slot, String id) {
        while (cells.size() <= slot) {
            cells.add(null);
        }
        cells.set(slot, id);
    }

    private static List<String> arrayOrder(IndexedTimerHeap heap) {
        List<String> ids = new ArrayList<>(heap.size());
        for (int slot = 0; slot < heap.size(); slot++) {
            ids.add(heap.cell(slot).id());
        }
        return ids;
    }

    private static IndexedTimerHeap heapOf(MemoryClock scheduler) {
        IndexedTimerHeap[] heap = new IndexedTimerHeap[1];
        CoreTestSupport.onHeap(scheduler, h -> heap[0] = h); // read-only: only captures the reference
        return heap[0];
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void everyTracedWrite_keepsArrayCellAndRecordedSlotInLockstep_andReplayReproducesTheArray(int arity) {
        long seed = 4242L + arity;
        Random random = new Random(seed);
        MemoryClock scheduler = scheduler(arity);
        IndexedTimerHeap heap = heapOf(scheduler);
        Set<String> pending = new HashSet<>();
        Set<String> seenOps = new HashSet<>();
        int writesChecked = 0;

        for (int step = 0; step < 2000; step++) {
            List<String> ids = new ArrayList<>(pending);
            ids.sort(null);
            Map<String, Key> keys = new HashMap<>();
            for (String id : ids) {
                keys.put(id, Key.of(scheduler.get(id)));
            }
            List<String> before = arrayOrder(heap);
            int choice = pending.size() < 5 ? 0 : random.nextInt(10);
            String context = "seed " + seed + " arity " + arity + " step " + step;
            LockstepProbe probe = new LockstepProbe(heap, context);

            if (choice < 4) {
                String id = "k" + step;
                Timer added = scheduler.add(id, random.nextInt(8), random.nextInt(3), null, Trace.into(probe));
                keys.put(id, Key.of(added));
                pending.add(id);
            } else if (choice < 6) {
                String id = pickBySlot(random, before);
                scheduler.cancel(id, Precondition.NONE, Trace.into(probe));
                pending.remove(id);
            } else if (choice < 9) {
                String id = pickBySlot(random, before);
                Timer edited = scheduler.edit(id, (long) random.nextInt(8), random.nextInt(3), Precondition.NONE,
                        Trace.into(probe));
                keys.put(id, Key.of(edited));
            } else {
                for (Timer fired : scheduler.advance(random.nextInt(3), Trace.into(probe)).fired()) {
                    pending.remove(fired.id());
                }
            }
            probe.finish();
            writesChecked += probe.writesChecked;
            probe.forEach(traced -> seenOps.add(traced.op()));

            assertThat(replay(before, probe, keys, context)).as(context).isEqualTo(arrayOrder(heap));
            InvariantReport report = scheduler.checkInvariants();
            assertThat(report.ok()).as("%s: %s", context, report.firstFailure()).isTrue();
        }
        assertThat(seenOps).containsExactlyInAnyOrder("remove", "lift", "compare", "move", "place");
        assertThat(writesChecked).isGreaterThan(2000);
    }

    /** Root, last slot or an inner slot, each about a third of the time. */
    private static String pickBySlot(Random random, List<String> layout) {
        return switch (random.nextInt(3)) {
            case 0 -> layout.get(0);
            case 1 -> layout.get(layout.size() - 1);
            default -> layout.get(random.nextInt(layout.size()));
        };
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void bulkLoad_tracedWrites_keepLockstepAndReplayToTheFinalLayout(int arity) {
        Random random = new Random(arity);
        List<Timer> timers = new ArrayList<>();
        Map<String, Key> keys = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            Timer timer = new Timer("b" + i, random.nextInt(5), random.nextInt(3), i, 1, 0, null);
            timers.add(timer);
            keys.put(timer.id(), Key.of(timer));
        }
        IndexedTimerHeap heap = new IndexedTimerHeap(arity);
        LockstepProbe probe = new LockstepProbe(heap, "bulkLoad arity " + arity);

        heap.listen(new TraceRecorder(heap, probe::add));
        heap.bulkLoad(timers, timer -> 0L);
        heap.listen(HeapListener.NONE);
        probe.finish();

        assertThat(probe.writesChecked).isGreaterThanOrEqualTo(300);
        assertThat(replay(List.of(), probe, keys, "bulkLoad")).isEqualTo(arrayOrder(heap));
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
    }

    @Test
    void cancelMiddle_traceShowsLastEntryMovingIntoTheHole() {
        MemoryClock scheduler = scheduler(2);
        for (int i = 1; i <= 7; i++) {
            scheduler.add("t" + i, i, 0, null, Trace.NONE);
        }
        List<TraceStep> trace = new ArrayList<>();

        scheduler.cancel("t2", Precondition.NONE, Trace.into(trace));

        assertThat(trace.get(0)).isEqualTo(new TraceStep("remove", "t2", 1, -1, null, null, null));
        assertThat(trace.get(1)).isEqualTo(new TraceStep("lift", "t7", 6, -1, null, null, null));
        assertThat(trace).contains(new TraceStep("move", "t4", 3, 1, null, null, null));
        assertThat(trace.get(trace.size() - 1).id()).isEqualTo("t7");
        assertThat(trace.get(trace.size() - 1).to()).isEqualTo(3);
    }

    /**
     * Regression: removeAt used to place the replacement into the hole and then let sift-up move a parent onto
     * that occupied cell without lifting the replacement first. Replaying such a trace the plain way (a move
     * empties its from-slot and fills its to-slot) lost the parent when the replacement had to rise. (When it
     * stayed put, the same path recorded a self-move "from s to s" and a compare from a non-hole, which the strict
     * replay in the random test above rejects.) Checked here for a replacement that rises, one that stays put and
     * one that sinks from the root.
     */
    @Test
    void cancel_replacementStaysPutOrRises_plainReplayOfTraceGivesTheFinalArray() {
        MemoryClock staysPut = scheduler(2);
        for (int i = 1; i <= 7; i++) {
            staysPut.add("t" + i, i, 0, null, Trace.NONE);
        }
        MemoryClock rises = scheduler(2);
        for (int fireTime : new int[] {1, 10, 2, 11, 12, 3, 4}) {
            rises.add("f" + fireTime, fireTime, 0, null, Trace.NONE);
        }

        assertPlainReplayMatches(staysPut, "t4"); // t7 fills slot 3 under t2 and stays
        assertPlainReplayMatches(rises, "f11"); // f4 fills slot 3 under f10 and must rise
        assertPlainReplayMatches(staysPut, "t1"); // root: t7 fills the root and sinks
    }

    private static void assertPlainReplayMatches(MemoryClock scheduler, String cancelledId) {
        List<String> cells = new ArrayList<>(CoreTestSupport.layout(scheduler));
        List<TraceStep> trace = new ArrayList<>();

        scheduler.cancel(cancelledId, Precondition.NONE, Trace.into(trace));

        for (TraceStep step : trace) {
            switch (step.op()) {
                case "remove", "lift" -> cells.set(step.from(), null);
                case "move" -> {
                    cells.set(step.from(), null);
                    cells.set(step.to(), step.id());
                }
                case "place" -> cells.set(step.to(), step.id());
                default -> {
                }
            }
        }
        assertThat(cells.remove(cells.size() - 1)).as("the vacated last cell of %s", trace).isNull();
        assertThat(cells).as("plain replay of %s", trace).isEqualTo(CoreTestSupport.layout(scheduler));
    }

    @Test
    void untracedOperations_recordNothingIntoAnEarlierTrace() {
        MemoryClock scheduler = scheduler(2);
        List<TraceStep> trace = new ArrayList<>();
        scheduler.add("a", 5, 0, null, Trace.into(trace));
        int recorded = trace.size();

        scheduler.add("b", 1, 0, null, Trace.NONE);
        scheduler.advance(10, Trace.NONE);

        assertThat(recorded).isPositive();
        assertThat(trace).hasSize(recorded);
    }

    /**
     * A traced root pop runs the bottom-up pop that production runs: the earliest child moves up level by level to
     * a leaf without being compared with the entry in hand, which then sifts up from there. (Traced pops used to run
     * the top-down sift instead, so the heap view replayed another algorithm.)
     */
    @Test
    void tracedRootPop_isTheBottomUpPop() {
        IndexedTimerHeap heap = new IndexedTimerHeap(2);
        for (int i = 1; i <= 7; i++) {
            heap.insert("t" + i, i, 0, i, 1, 0, 0, null); // in order: t1..t7 in slots 0..6
        }
        List<TraceStep> trace = new ArrayList<>();
        heap.listen(new TraceRecorder(heap, trace::add));
        heap.removeRoot();
        heap.listen(HeapListener.NONE);

        assertThat(trace).containsExactly(
                new TraceStep("remove", "t1", 0, -1, null, null, null),
                new TraceStep("lift", "t7", 6, -1, null, null, null),
                new TraceStep("move", "t2", 1, 0, null, null, null),
                new TraceStep("move", "t4", 3, 1, null, null, null),
                new TraceStep("compare", "t7", 3, 1, "t4", false, "fireTime"),
                new TraceStep("place", "t7", -1, 3, null, null, null));
        assertThat(heap.takeLevelsMoved()).as("net levels, as the top-down sift counts them").isEqualTo(2);
    }
}
