package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Precondition;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.heap.HeapCorruption;
import io.timeservice.store.memory.time.VirtualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The invariant report is reused while the queue does not change, and a large queue is walked at most once per
 * interval by {@link MemoryClock#invariants()} and {@link MemoryClock#heapView}. A walk copies the whole heap
 * under the lock (~80 MB at 1,000,000 timers), so "no walk" is observed as the very same report instance coming
 * back. Time is an injected nano clock; the wall clock counts its reads, so each walk has its own checkedAt.
 */
class InvariantReportReuseTest {

    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final int RATE_LIMITED_ABOVE = 10;

    private final long[] nanos = {1_000_000_000L};
    private final long[] wallReads = {0};
    private final MemoryClock scheduler = new MemoryClock(new VirtualClock(0), 4, 1000,
            () -> 1_700_000_000_000L + ++wallReads[0], StoreMetrics.NONE);

    private void addTimers(int count) {
        int from = scheduler.status().size();
        for (int i = from; i < from + count; i++) {
            scheduler.add("t" + i, 100 + i, 0, null, Trace.NONE);
        }
    }

    @Test
    void unchangedQueue_returnsTheSameReport_withoutAWalk() {
        addTimers(5);
        InvariantReport first = scheduler.checkInvariants();

        assertThat(scheduler.checkInvariants()).isSameAs(first);
        assertThat(scheduler.invariants()).isSameAs(first);
        assertThat(scheduler.heapView(3).invariants()).isSameAs(first);
        assertThat(first.current()).isTrue();
        assertThat(first.checkedAt()).isGreaterThan(1_700_000_000_000L);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"add", "cancel", "edit", "advance without firing", "advance firing", "corruption"})
    void anyChange_makesTheNextReportANewWalk(String change) {
        addTimers(5);
        InvariantReport before = scheduler.checkInvariants();

        changes().get(change).accept(scheduler);

        InvariantReport after = scheduler.checkInvariants();
        assertThat(after).isNotSameAs(before);
        assertThat(after.checkedAt()).isGreaterThan(before.checkedAt());
        assertThat(after.current()).isTrue();
    }

    private static java.util.Map<String, Consumer<MemoryClock>> changes() {
        return java.util.Map.of(
                "add", s -> s.add("new", 5, 0, null, Trace.NONE),
                "cancel", s -> s.cancel("t3", Precondition.NONE, Trace.NONE),
                "edit", s -> s.edit("t3", 1L, null, Precondition.NONE, Trace.NONE),
                "advance without firing", s -> s.advance(1, Trace.NONE),
                "advance firing", s -> s.advance(101, Trace.NONE),
                "corruption", s -> CoreTestSupport.onHeap(s, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 0, 1)));
    }

    @Test
    void corruptionAfterAReport_isReportedAtTheNextCall() {
        addTimers(7);
        assertThat(scheduler.invariants().ok()).isTrue();

        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 0, 1));

        assertThat(scheduler.invariants().ok()).isFalse();
    }

    @Test
    void largeQueue_isWalkedAtMostOncePerInterval_callersInBetweenGetTheLastReportMarkedNotCurrent() {
        scheduler.limitInvariantChecks(INTERVAL, RATE_LIMITED_ABOVE, () -> nanos[0]);
        addTimers(RATE_LIMITED_ABOVE + 1);
        InvariantReport walked = scheduler.invariants();
        assertThat(walked.current()).isTrue();

        scheduler.add("later", 7, 0, null, Trace.NONE);
        nanos[0] += INTERVAL.toNanos() - 1;
        InvariantReport held = scheduler.invariants();

        assertThat(held.current()).as("the queue changed since the walk").isFalse();
        assertThat(held.checkedAt()).isEqualTo(walked.checkedAt());
        assertThat(held.checks()).isEqualTo(walked.checks());

        nanos[0] += 1;
        InvariantReport next = scheduler.invariants();

        assertThat(next.current()).isTrue();
        assertThat(next.checkedAt()).isGreaterThan(walked.checkedAt());
        assertThat(scheduler.invariants()).as("unchanged since: reused").isSameAs(next);
    }

    @Test
    void rateBound_measuresFromTheStartOfTheLastWalk_evenWhenTheQueueIsIdle() {
        scheduler.limitInvariantChecks(INTERVAL, RATE_LIMITED_ABOVE, () -> nanos[0]);
        addTimers(RATE_LIMITED_ABOVE + 1);
        InvariantReport walked = scheduler.invariants();
        nanos[0] += 10 * INTERVAL.toNanos();

        assertThat(scheduler.invariants()).as("idle polling reuses the report, however late").isSameAs(walked);
        scheduler.cancel("t0", Precondition.NONE, Trace.NONE);
        assertThat(scheduler.invariants().current()).as("the interval has long passed").isTrue();
    }

    @Test
    void queueAtOrBelowTheBound_isWalkedAtEveryChange() {
        scheduler.limitInvariantChecks(INTERVAL, RATE_LIMITED_ABOVE, () -> nanos[0]);
        addTimers(RATE_LIMITED_ABOVE - 1);
        InvariantReport walked = scheduler.invariants();

        scheduler.add("tenth", 7, 0, null, Trace.NONE);

        InvariantReport next = scheduler.invariants();
        assertThat(next).isNotSameAs(walked);
        assertThat(next.current()).isTrue();
    }

    @Test
    void checkInvariants_isNeverRateBounded() {
        scheduler.limitInvariantChecks(INTERVAL, RATE_LIMITED_ABOVE, () -> nanos[0]);
        addTimers(RATE_LIMITED_ABOVE + 1);
        InvariantReport walked = scheduler.invariants();
        CoreTestSupport.onHeap(scheduler, heap -> HeapCorruption.swapCellsWithoutIndex(heap, 0, 1));

        assertThat(scheduler.invariants().ok()).as("held back by the bound").isTrue();
        InvariantReport exact = scheduler.checkInvariants();
        assertThat(exact.current()).isTrue();
        assertThat(exact.ok()).isFalse();
        assertThat(exact.checkedAt()).isGreaterThan(walked.checkedAt());
    }

    @Test
    void heapView_withinTheBound_showsTheCurrentCellsWithTheLastReport() {
        scheduler.limitInvariantChecks(INTERVAL, RATE_LIMITED_ABOVE, () -> nanos[0]);
        addTimers(RATE_LIMITED_ABOVE + 1);
        InvariantReport walked = scheduler.invariants();

        scheduler.add("first", 1, 0, null, Trace.NONE); // due before every other timer: the new root

        HeapView view = scheduler.heapView(3);
        assertThat(view.slots().get(0).id()).isEqualTo("first");
        assertThat(view.index()).containsEntry("first", 0);
        assertThat(view.size()).isEqualTo(RATE_LIMITED_ABOVE + 2);
        assertThat(view.invariants().current()).isFalse();
        assertThat(view.invariants().checkedAt()).isEqualTo(walked.checkedAt());

        nanos[0] += INTERVAL.toNanos();
        HeapView later = scheduler.heapView(3);
        assertThat(later.invariants().current()).isTrue();
        assertThat(later.invariants().checkedAt()).isGreaterThan(walked.checkedAt());
        assertThat(scheduler.invariants()).as("the view's walk is reused").isSameAs(later.invariants());
    }

    @Test
    void limit_refusesNegativeValues() {
        assertThatThrownBy(() -> scheduler.limitInvariantChecks(Duration.ofSeconds(-1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> scheduler.limitInvariantChecks(INTERVAL, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void reportsOfTheSameState_fromDifferentPaths_agree() {
        addTimers(20);
        List<InvariantReport.Check> viaView = scheduler.heapView(1).invariants().checks();

        assertThat(scheduler.checkInvariants().checks()).isEqualTo(viaView);
    }
}
