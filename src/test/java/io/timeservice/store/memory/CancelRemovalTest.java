package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.assertInvariantsHold;
import static io.timeservice.store.memory.CoreTestSupport.ids;
import static io.timeservice.store.memory.CoreTestSupport.layout;
import static io.timeservice.store.memory.CoreTestSupport.pending;
import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import io.timeservice.model.HeapView;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.model.TraceStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * removeAt on the root, a middle slot and the last slot, reached through cancel. The middle case is where a wrong
 * index patch shows: afterwards every remaining id must still lead to its own timer.
 */
class CancelRemovalTest {

    /** Seven timers t1..t7 due at 1..7, inserted ascending: in a binary heap, t_k sits in slot k-1. */
    private static TimerScheduler ascendingBinaryHeap() {
        TimerScheduler scheduler = scheduler(2);
        for (int i = 1; i <= 7; i++) {
            scheduler.add("t" + i, i, 0, null, Trace.NONE);
        }
        assertThat(layout(scheduler)).containsExactly("t1", "t2", "t3", "t4", "t5", "t6", "t7");
        return scheduler;
    }

    @Test
    void cancel_root_lastEntryFillsTheRootAndNextTrueMinimumRises() {
        TimerScheduler scheduler = ascendingBinaryHeap();

        Timer cancelled = scheduler.cancel("t1", Precondition.NONE, Trace.NONE);

        assertThat(cancelled.id()).isEqualTo("t1");
        assertThat(scheduler.peek().id()).isEqualTo("t2");
        assertInvariantsHold(scheduler, "cancel root");
        assertEveryIdFindsItsOwnTimer(scheduler);
        assertThat(ids(scheduler.advance(10, Trace.NONE).fired())).containsExactly("t2", "t3", "t4", "t5", "t6", "t7");
    }

    @Test
    void cancel_middleSlot_keepsIndexConsistent() {
        TimerScheduler scheduler = ascendingBinaryHeap();
        List<TraceStep> trace = new ArrayList<>();

        scheduler.cancel("t2", Precondition.NONE, Trace.into(trace));

        // t7 (the last entry) filled slot 1 and sank below the smaller of t4/t5.
        assertThat(trace).extracting(TraceStep::op, TraceStep::id).contains(
                org.assertj.core.groups.Tuple.tuple("remove", "t2"), org.assertj.core.groups.Tuple.tuple("lift", "t7"));
        assertThat(layout(scheduler)).containsExactly("t1", "t4", "t3", "t7", "t5", "t6");
        assertInvariantsHold(scheduler, "cancel middle");
        assertEveryIdFindsItsOwnTimer(scheduler);
        // The moved timers must be reachable by id: cancel them and see exactly them come out.
        assertThat(scheduler.cancel("t7", Precondition.NONE, Trace.NONE).fireTime()).isEqualTo(7);
        assertThat(scheduler.cancel("t4", Precondition.NONE, Trace.NONE).fireTime()).isEqualTo(4);
        assertInvariantsHold(scheduler, "cancel moved timers");
        assertThat(ids(scheduler.advance(10, Trace.NONE).fired())).containsExactly("t1", "t3", "t5", "t6");
    }

    @Test
    void cancel_lastSlot_movesNothingElse() {
        TimerScheduler scheduler = ascendingBinaryHeap();
        List<TraceStep> trace = new ArrayList<>();

        scheduler.cancel("t7", Precondition.NONE, Trace.into(trace));

        assertThat(trace).extracting(TraceStep::op).containsExactly("remove");
        assertThat(layout(scheduler)).containsExactly("t1", "t2", "t3", "t4", "t5", "t6");
        assertInvariantsHold(scheduler, "cancel last");
    }

    /**
     * A binary heap [1, 10, 2, 11, 12, 3, 4]: removing 11 (slot 3, under 10) moves the last entry 4 into slot 3,
     * where it precedes its new parent 10 and must sift UP. Sifting only down would leave 4 below 10.
     */
    @Test
    void cancel_middleSlotWhoseReplacementPrecedesItsNewParent_siftsReplacementUp() {
        TimerScheduler scheduler = scheduler(2);
        for (int fireTime : new int[] {1, 10, 2, 11, 12, 3, 4}) {
            scheduler.add("f" + fireTime, fireTime, 0, null, Trace.NONE);
        }
        assertThat(layout(scheduler)).containsExactly("f1", "f10", "f2", "f11", "f12", "f3", "f4");

        scheduler.cancel("f11", Precondition.NONE, Trace.NONE);

        assertThat(layout(scheduler)).containsExactly("f1", "f4", "f2", "f10", "f12", "f3");
        assertInvariantsHold(scheduler, "cancel f11");
        assertEveryIdFindsItsOwnTimer(scheduler);
        assertThat(ids(scheduler.advance(20, Trace.NONE).fired())).containsExactly("f1", "f2", "f3", "f4", "f10",
                "f12");
    }

    static Stream<Arguments> aritiesAndPositions() {
        return Stream.of(2, 4, 8).flatMap(arity -> Stream.of("root", "middle", "last", "every")
                .map(position -> Arguments.of(arity, position)));
    }

    @ParameterizedTest(name = "arity {0}, {1}")
    @MethodSource("aritiesAndPositions")
    void cancel_anySlotOfShuffledHeap_remainingTimersFireInSortedOrder(int arity, String position) {
        Random random = new Random(arity * 31L + position.hashCode());
        TimerScheduler scheduler = scheduler(arity);
        List<Integer> fireTimes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            fireTimes.add(1 + random.nextInt(15)); // many ties
        }
        Map<String, Timer> added = new HashMap<>();
        for (int i = 0; i < fireTimes.size(); i++) {
            Timer timer = scheduler.add("x" + i, fireTimes.get(i), random.nextInt(3), null, Trace.NONE);
            added.put(timer.id(), timer);
        }

        List<String> slotsToCancel = new ArrayList<>();
        int rounds = position.equals("every") ? 30 : 10;
        for (int round = 0; round < rounds; round++) {
            List<String> current = layout(scheduler);
            String victim = switch (position) {
                case "root" -> current.get(0);
                case "last" -> current.get(current.size() - 1);
                case "middle" -> current.get(current.size() / 2);
                default -> current.get(random.nextInt(current.size()));
            };
            slotsToCancel.add(victim);
            Timer cancelled = scheduler.cancel(victim, Precondition.NONE, Trace.NONE);

            assertThat(cancelled).isEqualTo(added.remove(victim));
            assertThatThrownBy(() -> scheduler.get(victim)).isInstanceOf(ProblemException.class);
            assertInvariantsHold(scheduler, "cancel " + victim + " (" + position + ")");
            assertEveryIdFindsItsOwnTimer(scheduler);
        }

        List<Timer> expected = new ArrayList<>(added.values());
        expected.sort(Timer::compareFiringOrder);
        assertThat(pending(scheduler)).isEqualTo(expected);
        assertThat(scheduler.advance(100, Trace.NONE).fired()).isEqualTo(expected);
        assertThat(Collections.disjoint(slotsToCancel, ids(expected))).isTrue();
    }

    /** Every id in the heap view leads, by get, to a timer that sits in that very slot. */
    private static void assertEveryIdFindsItsOwnTimer(TimerScheduler scheduler) {
        int size = scheduler.status().size();
        for (HeapView.Cell cell : scheduler.heapView(Math.max(size, 1)).slots()) {
            Timer timer = scheduler.get(cell.id());
            assertThat(timer.id()).isEqualTo(cell.id());
            assertThat(timer.fireTime()).as("fireTime of %s", cell.id()).isEqualTo(cell.fireTime());
            assertThat(timer.sequence()).as("sequence of %s", cell.id()).isEqualTo(cell.sequence());
        }
    }
}
