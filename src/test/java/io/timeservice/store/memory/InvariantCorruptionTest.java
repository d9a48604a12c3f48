package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.heap.HeapCorruption;
import io.timeservice.store.memory.time.TimeSource;
import org.junit.jupiter.api.Test;

/**
 * The invariant checks notice a broken heap and name the rule that broke. The heap is broken on purpose through
 * the test hook that swaps two array cells without telling the index, as a buggy sift would.
 */
class InvariantCorruptionTest {

    private static Map<String, InvariantReport.Check> byName(InvariantReport report) {
        return report.checks().stream().collect(Collectors.toMap(InvariantReport.Check::name, Function.identity()));
    }

    /** Binary heap t1..t7 due at 1..7: t_k in slot k-1. */
    private static MemoryClock ascending() {
        MemoryClock scheduler = scheduler(2);
        for (int i = 1; i <= 7; i++) {
            scheduler.add("t" + i, i, 0, null, Trace.NONE);
        }
        assertThat(scheduler.checkInvariants().ok()).isTrue();
        return scheduler;
    }

    @Test
    void swapRootWithChild_reportsIndexMismatchHeapOrderAndRoot() {
        MemoryClock scheduler = ascending();

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 0, 1));

        InvariantReport report = scheduler.checkInvariants();
        Map<String, InvariantReport.Check> checks = byName(report);
        assertThat(report.ok()).isFalse();
        assertThat(checks.get(InvariantReport.INDEX_MATCHES_HEAP).ok()).isFalse();
        assertThat(checks.get(InvariantReport.INDEX_MATCHES_HEAP).detail()).contains("slot");
        assertThat(checks.get(InvariantReport.HEAP_ORDER).ok()).isFalse();
        assertThat(checks.get(InvariantReport.HEAP_ORDER).detail()).contains("t1").contains("t2");
        assertThat(checks.get(InvariantReport.ROOT_IS_EARLIEST).ok()).isFalse();
        assertThat(checks.get(InvariantReport.NO_OVERDUE).ok()).isTrue();
        assertThat(report.firstFailure().name()).isEqualTo(InvariantReport.ROOT_IS_EARLIEST);
    }

    @Test
    void swapSiblings_reportsOnlyTheIndexMismatch() {
        MemoryClock scheduler = ascending();

        // t2 <-> t3, both under t1
        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 1, 2));

        InvariantReport report = scheduler.checkInvariants();
        Map<String, InvariantReport.Check> checks = byName(report);
        assertThat(checks.get(InvariantReport.INDEX_MATCHES_HEAP).ok()).isFalse();
        assertThat(checks.get(InvariantReport.INDEX_MATCHES_HEAP).detail()).containsAnyOf("t2", "t3");
        // Slot 1 now holds t3 above t4/t5, slot 2 holds t2 above t6/t7: still ordered along every edge.
        assertThat(checks.get(InvariantReport.HEAP_ORDER).ok()).isTrue();
        assertThat(checks.get(InvariantReport.ROOT_IS_EARLIEST).ok()).isTrue();
        assertThat(report.firstFailure().name()).isEqualTo(InvariantReport.INDEX_MATCHES_HEAP);
    }

    @Test
    void swapParentAndChildWithEqualFireTimes_reportsHeapOrderBrokenOnTheTieBreak() {
        MemoryClock scheduler = scheduler(2);
        for (int i = 0; i < 7; i++) {
            scheduler.add("s" + i, 5, 0, null, Trace.NONE); // equal fireTime and priority: order is by sequence alone
        }

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 1, 3)); // s1 <-> s3

        Map<String, InvariantReport.Check> checks = byName(scheduler.checkInvariants());
        assertThat(checks.get(InvariantReport.HEAP_ORDER).ok()).isFalse();
        assertThat(checks.get(InvariantReport.HEAP_ORDER).detail()).contains("s1@3").contains("s3@1");
        assertThat(checks.get(InvariantReport.ROOT_IS_EARLIEST).ok()).isTrue();
        assertThat(checks.get(InvariantReport.INDEX_MATCHES_HEAP).ok()).isFalse();
    }

    @Test
    void corruptedHeap_isReportedByTheHeapViewToo() {
        MemoryClock scheduler = ascending();

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 2, 6));

        HeapView view = scheduler.heapView(7);
        assertThat(view.invariants().ok()).isFalse();
        assertThat(byName(view.invariants()).get(InvariantReport.HEAP_ORDER).ok()).isFalse();
        assertThat(view.slots().get(2).id()).isEqualTo("t7");
    }

    /**
     * The view's id → slot entries are looked up in the id index, not read off the array (which would always agree
     * with itself): cells swapped behind the index's back show each id at one slot and indexed at another.
     */
    @Test
    void corruptedIndex_showsInTheHeapViewsIndex() {
        MemoryClock scheduler = ascending();

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 2, 6));

        HeapView view = scheduler.heapView(7);
        assertThat(view.slots().get(2).id()).isEqualTo("t7");
        assertThat(view.slots().get(6).id()).isEqualTo("t3");
        assertThat(view.index()).containsEntry("t7", 6).containsEntry("t3", 2).containsEntry("t1", 0);
    }

    @Test
    void idMissingFromTheIndex_showsAsNullInTheHeapViewsIndex() {
        MemoryClock scheduler = ascending();

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.dropIndexEntry(heap, "t5"));

        HeapView view = scheduler.heapView(7);
        assertThat(view.slots().get(4).id()).isEqualTo("t5");
        assertThat(view.index()).containsEntry("t5", null).containsEntry("t4", 3);
        assertThat(byName(view.invariants()).get(InvariantReport.INDEX_MATCHES_HEAP).ok()).isFalse();
    }

    @Test
    void swapThenSwapBack_reportsHealthyAgain() {
        MemoryClock scheduler = ascending();

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 3, 5));
        assertThat(scheduler.checkInvariants().ok()).isFalse();
        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 3, 5));

        assertThat(scheduler.checkInvariants().ok()).isTrue();
    }

    /** A clock that jumps without an advance, leaving a timer behind it: what "overdue" would look like. */
    @Test
    void clockMovedPastAPendingTimerWithoutFiring_reportsNoOverdueBroken() {
        long[] now = {0};
        TimeSource jumpingClock = new TimeSource() {
            @Override
            public long now() {
                return now[0];
            }

            @Override
            public void advanceTo(long time) {
                now[0] = time;
            }

            @Override
            public void passTo(long time) {
                now[0] = time;
            }
        };
        MemoryClock scheduler = new MemoryClock(jumpingClock, 4, 10, () -> 0L, StoreMetrics.NONE);
        scheduler.add("due-at-3", 3, 0, null, Trace.NONE);
        assertThat(scheduler.checkInvariants().ok()).isTrue();

        now[0] = 4;

        InvariantReport report = scheduler.checkInvariants();
        assertThat(report.firstFailure().name()).isEqualTo(InvariantReport.NO_OVERDUE);
        assertThat(report.firstFailure().detail()).contains("due-at-3").contains("now=4");
        assertThat(ids(scheduler.advance(0, Trace.NONE))).containsExactly("due-at-3");
        assertThat(scheduler.checkInvariants().ok()).isTrue();
    }

    private static java.util.List<String> ids(AdvanceResult result) {
        return result.fired().stream().map(Timer::id).toList();
    }
}
