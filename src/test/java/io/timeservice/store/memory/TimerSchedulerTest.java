package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.assertInvariantsHold;
import static io.timeservice.store.memory.CoreTestSupport.ids;
import static io.timeservice.store.memory.CoreTestSupport.layout;
import static io.timeservice.store.memory.CoreTestSupport.pending;
import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.Due;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Seed 000's firing semantics through the public API: tie-break, edit, delay 0, invariants after every call. */
class TimerSchedulerTest {

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void add_equalDelays_fireInInsertionOrder(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        scheduler.add("A", 5, 0, null, Trace.NONE);
        scheduler.add("B", 5, 0, null, Trace.NONE);
        scheduler.add("C", 5, 0, null, Trace.NONE);

        assertThat(scheduler.advance(4, Trace.NONE).fired()).isEmpty();
        AdvanceResult result = scheduler.advance(1, Trace.NONE);

        assertThat(result.now()).isEqualTo(5);
        assertThat(ids(result.fired())).containsExactly("A", "B", "C");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void add_equalDeadlinesInReverseAlphabeticalOrder_fireInInsertionOrderNotByName(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        for (String id : List.of("C", "B", "A", "Z", "M")) {
            scheduler.add(id, 5, 0, null, Trace.NONE);
        }

        assertThat(ids(scheduler.advance(5, Trace.NONE).fired())).containsExactly("C", "B", "A", "Z", "M");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void add_sameFireTimeReachedFromDifferentNows_earlierAddFiresFirst(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        scheduler.add("late-added-first", 9, 0, null, Trace.NONE);
        scheduler.advance(4, Trace.NONE);
        scheduler.add("second", 5, 0, null, Trace.NONE);

        assertThat(ids(scheduler.advance(5, Trace.NONE).fired())).containsExactly("late-added-first", "second");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void add_equalFireTimes_lowerPriorityNumberFiresFirstThenSequence(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        scheduler.add("p2-first", 3, 2, null, Trace.NONE);
        scheduler.add("p1", 3, 1, null, Trace.NONE);
        scheduler.add("p2-second", 3, 2, null, Trace.NONE);
        scheduler.add("earlier", 2, 9, null, Trace.NONE);

        assertThat(ids(scheduler.advance(3, Trace.NONE).fired())).containsExactly("earlier", "p1", "p2-first",
                "p2-second");
    }

    @Test
    void edit_laterDeadline_timerLeavesRootAndNewRootIsTrueMinimum() {
        TimerScheduler scheduler = scheduler(2);
        for (int i = 1; i <= 7; i++) {
            scheduler.add("t" + i, i, 0, null, Trace.NONE);
        }
        assertThat(layout(scheduler).get(0)).isEqualTo("t1");

        scheduler.edit("t1", 10L, null, Precondition.NONE, Trace.NONE);

        List<String> after = layout(scheduler);
        assertThat(after.get(0)).isEqualTo("t2");
        assertThat(after.indexOf("t1")).isPositive();
        assertRootIsTrueMinimum(scheduler);
        assertInvariantsHold(scheduler, "edit down");
        assertThat(ids(scheduler.advance(10, Trace.NONE).fired()))
                .containsExactly("t2", "t3", "t4", "t5", "t6", "t7", "t1");
    }

    @Test
    void edit_earlierDeadline_timerLeavesLastSlotAndBecomesRoot() {
        TimerScheduler scheduler = scheduler(2);
        for (int i = 1; i <= 7; i++) {
            scheduler.add("t" + i, i + 1, 0, null, Trace.NONE);
        }
        List<String> before = layout(scheduler);
        assertThat(before.get(6)).isEqualTo("t7");

        scheduler.edit("t7", 1L, null, Precondition.NONE, Trace.NONE);

        List<String> after = layout(scheduler);
        assertThat(after.get(0)).isEqualTo("t7");
        assertThat(after.get(6)).isNotEqualTo("t7");
        assertThat(scheduler.peek().id()).isEqualTo("t7");
        assertRootIsTrueMinimum(scheduler);
        assertInvariantsHold(scheduler, "edit up");
        assertThat(ids(scheduler.advance(8, Trace.NONE).fired()))
                .containsExactly("t7", "t1", "t2", "t3", "t4", "t5", "t6");
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void edit_upAndDownAcrossInnerSlots_rootAlwaysTrueMinimum(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        for (int i = 0; i < 40; i++) {
            scheduler.add("t" + i, 100 + (i * 37) % 50, i % 3, null, Trace.NONE);
        }
        for (int i = 0; i < 40; i++) {
            String id = "t" + ((i * 13) % 40);
            int slotBefore = layout(scheduler).indexOf(id);
            long newDelay = i % 2 == 0 ? 1 + i : 200 + i;
            scheduler.edit(id, newDelay, null, Precondition.NONE, Trace.NONE);

            assertThat(scheduler.get(id).fireTime()).isEqualTo(newDelay);
            assertRootIsTrueMinimum(scheduler);
            assertInvariantsHold(scheduler, "edit " + id + " from slot " + slotBefore);
        }
    }

    @Test
    void edit_priorityOnly_keepsFireTimeAndReordersTies() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("A", 5, 1, null, Trace.NONE);
        scheduler.add("B", 5, 1, null, Trace.NONE);

        Timer edited = scheduler.edit("B", (Due) null, 0, Precondition.NONE, Trace.NONE);

        assertThat(edited.fireTime()).isEqualTo(5);
        assertThat(edited.priority()).isZero();
        assertThat(ids(scheduler.advance(5, Trace.NONE).fired())).containsExactly("B", "A");
    }

    @Test
    void edit_sameKey_keepsSlotAndCountsAVersion() {
        TimerScheduler scheduler = scheduler(2);
        for (int i = 1; i <= 5; i++) {
            scheduler.add("t" + i, i, 0, null, Trace.NONE);
        }
        List<String> before = layout(scheduler);

        Timer edited = scheduler.edit("t3", 3L, 0, Precondition.NONE, Trace.NONE);

        assertThat(layout(scheduler)).isEqualTo(before);
        assertThat(edited.version()).isEqualTo(2);
    }

    @Test
    void edit_atVirtualTime4WithDelay2_firesAt6EvenIfItWasDueAt10() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("A", 10, 0, null, Trace.NONE);
        scheduler.advance(4, Trace.NONE);

        Timer edited = scheduler.edit("A", 2L, null, Precondition.NONE, Trace.NONE);

        assertThat(edited.fireTime()).isEqualTo(6);
        assertThat(scheduler.get("A").fireTime()).isEqualTo(6);
        assertThat(scheduler.advance(1, Trace.NONE).fired()).isEmpty();
        AdvanceResult at6 = scheduler.advance(1, Trace.NONE);
        assertThat(at6.now()).isEqualTo(6);
        assertThat(ids(at6.fired())).containsExactly("A");
    }

    @Test
    void edit_newDelayCountsFromNowNotFromOldFireTime_evenWhenThatIsLater() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("A", 5, 0, null, Trace.NONE);
        scheduler.advance(4, Trace.NONE);

        assertThat(scheduler.edit("A", 3L, null, Precondition.NONE, Trace.NONE).fireTime()).isEqualTo(7);
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void add_delayZero_isDueNowAndFiresOnAdvanceZero(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        scheduler.advance(3, Trace.NONE);
        scheduler.add("later", 1, 0, null, Trace.NONE);

        Timer zero = scheduler.add("zero", 0, 0, null, Trace.NONE);

        assertThat(zero.fireTime()).isEqualTo(3);
        assertThat(scheduler.status().nextFireTime()).isEqualTo(3L);
        assertInvariantsHold(scheduler, "add with delay 0");
        AdvanceResult result = scheduler.advance(0, Trace.NONE);
        assertThat(result.now()).isEqualTo(3);
        assertThat(ids(result.fired())).containsExactly("zero");
        assertThat(scheduler.get("later").fireTime()).isEqualTo(4);
    }

    @Test
    void edit_delayZero_isDueNowAndFiresOnAdvanceZero() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("A", 50, 0, null, Trace.NONE);
        scheduler.advance(7, Trace.NONE);

        assertThat(scheduler.edit("A", 0L, null, Precondition.NONE, Trace.NONE).fireTime()).isEqualTo(7);

        assertThat(ids(scheduler.advance(0, Trace.NONE).fired())).containsExactly("A");
    }

    @Test
    void advance_firesEverythingAtOrBeforeNewNowAndNothingLater() {
        TimerScheduler scheduler = scheduler(4);
        scheduler.add("at5", 5, 0, null, Trace.NONE);
        scheduler.add("at6", 6, 0, null, Trace.NONE);
        scheduler.add("at4", 4, 0, null, Trace.NONE);

        AdvanceResult result = scheduler.advance(5, Trace.NONE);

        assertThat(ids(result.fired())).containsExactly("at4", "at5");
        assertThat(scheduler.status().size()).isEqualTo(1);
        assertThat(scheduler.peek().id()).isEqualTo("at6");
    }

    @Test
    void peek_returnsRootWithoutRemovingIt() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("B", 2, 0, null, Trace.NONE);
        scheduler.add("A", 1, 0, null, Trace.NONE);

        assertThat(scheduler.peek().id()).isEqualTo("A");
        assertThat(scheduler.peek().id()).isEqualTo("A");
        assertThat(scheduler.status().size()).isEqualTo(2);
    }

    @Test
    void everyPublicOperation_leavesTheFourInvariantsHolding() {
        TimerScheduler scheduler = scheduler(2);
        assertThat(scheduler.checkInvariants().checks()).extracting(InvariantReport.Check::name)
                .containsExactly(InvariantReport.ROOT_IS_EARLIEST, InvariantReport.INDEX_MATCHES_HEAP,
                        InvariantReport.HEAP_ORDER, InvariantReport.NO_OVERDUE);

        List<Runnable> operations = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = "t" + i;
            long delay = (i * 5) % 7;
            names.add("add " + id);
            operations.add(() -> scheduler.add(id, delay, 0, "p", Trace.NONE));
        }
        names.add("peek");
        operations.add(scheduler::peek);
        names.add("get");
        operations.add(() -> scheduler.get("t3"));
        names.add("firstN");
        operations.add(() -> scheduler.firstN(5));
        names.add("status");
        operations.add(scheduler::status);
        names.add("heapView");
        operations.add(() -> scheduler.heapView(4));
        names.add("edit delay up");
        operations.add(() -> scheduler.edit("t0", 6L, null, Precondition.NONE, Trace.NONE));
        names.add("edit delay down");
        operations.add(() -> scheduler.edit("t11", 0L, null, Precondition.NONE, Trace.NONE));
        names.add("edit priority");
        operations.add(() -> scheduler.edit("t4", (Due) null, -3, Precondition.NONE, Trace.NONE));
        names.add("cancel root");
        operations.add(() -> scheduler.cancel(scheduler.peek().id(), Precondition.NONE, Trace.NONE));
        names.add("cancel middle");
        operations.add(() -> scheduler.cancel(layout(scheduler).get(2), Precondition.NONE, Trace.NONE));
        names.add("cancel last");
        operations.add(() -> scheduler.cancel(layout(scheduler).get(layout(scheduler).size() - 1), Precondition.NONE,
                Trace.NONE));
        names.add("advance 0");
        operations.add(() -> scheduler.advance(0, Trace.NONE));
        names.add("advance 3");
        operations.add(() -> scheduler.advance(3, Trace.NONE));
        names.add("rejected add");
        operations.add(() -> assertThatThrownBy(() -> scheduler.add("t5", -1, 0, null, Trace.NONE))
                .isInstanceOf(ProblemException.class));
        names.add("rejected cancel");
        operations.add(() -> assertThatThrownBy(() -> scheduler.cancel("missing", Precondition.NONE, Trace.NONE))
                .isInstanceOf(ProblemException.class));
        names.add("advance to drain");
        operations.add(() -> scheduler.advance(100, Trace.NONE));

        for (int i = 0; i < operations.size(); i++) {
            operations.get(i).run();
            assertInvariantsHold(scheduler, names.get(i));
        }
        assertThat(scheduler.status().size()).isZero();
    }

    /** Nothing pending fires before the root: compares peek against a sort of every pending timer. */
    private static void assertRootIsTrueMinimum(TimerScheduler scheduler) {
        List<Timer> all = new ArrayList<>();
        for (String id : layout(scheduler)) {
            all.add(scheduler.get(id));
        }
        Timer minimum = all.stream().min(Comparator.comparingLong(Timer::fireTime)
                .thenComparingInt(Timer::priority).thenComparingLong(Timer::sequence)).orElseThrow();
        assertThat(scheduler.peek()).isEqualTo(minimum);
        assertThat(pending(scheduler).get(0)).isEqualTo(minimum);
    }
}
