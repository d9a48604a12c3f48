package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.model.TraceStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every mutation is all or nothing against its journal (issue 13, items 3 and 4): a failed append changes nothing; a
 * failure after the append stops the scheduler (fail-stop), and a restart from the log then serves what the
 * journal holds; a log that failed stops every call, reads included, but never turns a durable change into a 503.
 */
class AllOrNothingMutationTest {

    private static final int ARITY = 4;

    private final RecordingLog log = new RecordingLog();
    private final TimerScheduler scheduler = CoreTestSupport.scheduler(ARITY);

    /** One kind of mutation, run against the queue that {@link #populate} builds. */
    enum Change {
        ADD(s -> s.add("new", 3, 0, "{\"p\":1}", Trace.NONE), (s, trace) -> s.add("new", 3, 0, null,
                Trace.into(trace))),
        CANCEL(s -> s.cancel("t5", Precondition.NONE, Trace.NONE), (s, trace) -> s.cancel("t5", Precondition.NONE,
                Trace.into(trace))),
        EDIT(s -> s.edit("t0", 100L, 7, Precondition.NONE, Trace.NONE), (s, trace) -> s.edit("t0", 100L, 7,
                Precondition.NONE, Trace.into(trace))),
        ADVANCE(s -> s.advance(4, Trace.NONE), (s, trace) -> s.advance(4, Trace.into(trace))),
        RESET(s -> s.reset(new VirtualClock(0)), null);

        final Consumer<TimerScheduler> plain;
        final java.util.function.BiConsumer<TimerScheduler, List<TraceStep>> traced;

        Change(Consumer<TimerScheduler> plain, java.util.function.BiConsumer<TimerScheduler, List<TraceStep>> traced) {
            this.plain = plain;
            this.traced = traced;
        }
    }

    @ParameterizedTest
    @EnumSource(Change.class)
    void appendThatThrows_leavesMemoryAndLogAsTheyWere_andTheSchedulerServesOn(Change change) {
        populate();
        Served before = Served.of(scheduler);
        int records = log.records().size();

        log.failNextAppend(new IllegalStateException("test: the journal refuses this record"));
        assertThatThrownBy(() -> change.plain.accept(scheduler))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("refuses this record");

        assertThat(Served.of(scheduler)).isEqualTo(before);
        assertThat(log.records()).hasSize(records);
        assertThat(Served.of(log.recover(ARITY))).isEqualTo(before);
        CoreTestSupport.assertInvariantsHold(scheduler, "a refused append");

        change.plain.accept(scheduler);   // the same change goes through once the log takes it
        assertThat(Served.of(log.recover(ARITY))).isEqualTo(Served.of(scheduler));
    }

    @ParameterizedTest
    @EnumSource(value = Change.class, names = {"ADD", "CANCEL", "EDIT", "ADVANCE"})
    void failureWhileApplying_afterTheRecord_stopsTheScheduler_andARestartServesWhatTheLogHolds(Change change) {
        populate();
        // The same queue built the same way (a restart would jump sequences past their reservation), where the
        // change goes through.
        TimerScheduler reference = CoreTestSupport.scheduler(ARITY);
        populate(reference, new RecordingLog());
        change.traced.accept(reference, null);

        // The trace runs out of memory in the middle of the heap's work: the heap is left half-changed.
        assertThatThrownBy(() -> change.traced.accept(scheduler, new TraceThatRunsOutOfMemory(1)))
                .isInstanceOf(ProblemException.class)
                .satisfies(e -> assertThat(((ProblemException) e).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining("outcome of this change is known only after a restart");

        assertEveryCallIsRefused(scheduler);
        assertThat(scheduler.stoppedBecause()).contains("failed after its journal record was written");
        TimerScheduler restarted = log.recover(ARITY);
        assertThat(Served.of(restarted)).isEqualTo(Served.of(reference));
        CoreTestSupport.assertInvariantsHold(restarted, "recovery after a failed apply");
    }

    @Test
    void snapshotTriggerThatThrows_doesNotFailTheChange_whichIsRecordedAndApplied() {
        populate();
        log.failSnapshots();
        Timer added = scheduler.add("late", 5, 0, null, Trace.NONE);
        assertThat(scheduler.get("late")).isEqualTo(added);
        assertThat(log.records()).last().extracting(r -> ((Mutation.Added) r).timer()).isEqualTo(added);
        assertThat(scheduler.stoppedBecause()).isNull();
        assertThat(Served.of(log.recover(ARITY))).isEqualTo(Served.of(scheduler));
    }

    @Test
    void snapshotTriggerThatThrowsAnyError_doesNotFailTheChange_whichIsRecordedAndApplied() {
        populate();
        log.failSnapshots(new StackOverflowError("test: the snapshot start ran out of stack"));
        Timer added = scheduler.add("late", 5, 0, null, Trace.NONE);
        assertThat(scheduler.get("late")).isEqualTo(added);
        assertThat(log.records()).last().extracting(r -> ((Mutation.Added) r).timer()).isEqualTo(added);
        assertThat(scheduler.stoppedBecause()).isNull();
    }

    @Test
    void afterTheLogFails_everyCallIsRefused_readsIncluded() {
        populate();
        log.fail();
        assertEveryCallIsRefused(scheduler);
        assertThat(scheduler.stoppedBecause()).isEqualTo("the journal failed");
    }

    @Test
    void changeWhoseRecordIsDurable_isAnswered_evenIfTheLogFailsRightAfter() {
        populate();
        log.whileAwaitingDurable(log::fail);   // this record reached the disk; a later write failed
        Timer added = scheduler.add("durable", 9, 0, null, Trace.NONE);
        assertThat(added.id()).isEqualTo("durable");
        assertThat(log.records()).last().extracting(r -> ((Mutation.Added) r).timer()).isEqualTo(added);
        assertEveryCallIsRefused(scheduler);
    }

    @Test
    void tracedAdvanceBeyondTheTraceLimit_isRefusedBeforeAnythingChanges() {
        scheduler.attachLog(log);
        int limit = Limits.MAX_TRACED_FIRES;
        for (int i = 0; i <= limit; i++) {
            scheduler.add("t" + i, i == limit ? 2 : 1, 0, null, Trace.NONE);   // limit due at 1, one more at 2
        }
        Served before = Served.of(scheduler);
        int records = log.records().size();

        assertThatThrownBy(() -> scheduler.advance(2, Trace.into(new ArrayList<>())))
                .isInstanceOf(ProblemException.class)
                .hasMessageContaining("at most " + limit)
                .satisfies(e -> assertThat(((ProblemException) e).code()).isEqualTo(ErrorCode.INVALID_ADVANCE));
        assertThat(Served.of(scheduler)).isEqualTo(before);
        assertThat(log.records()).hasSize(records);

        List<TraceStep> trace = new ArrayList<>();
        assertThat(scheduler.advance(1, Trace.into(trace)).fired()).hasSize(limit);   // exactly the limit: traced
        assertThat(trace).isNotEmpty();
        assertThat(scheduler.advance(1, Trace.NONE).fired()).hasSize(1);
    }

    // ---- helpers ----

    /** Ten timers t0..t9 due at 1..10, journaled into {@link #log}. */
    private void populate() {
        populate(scheduler, log);
    }

    private static void populate(TimerScheduler target, RecordingLog targetLog) {
        target.attachLog(targetLog);
        for (int i = 0; i < 10; i++) {
            target.add("t" + i, i + 1, i % 3, i % 2 == 0 ? null : "{\"n\":" + i + "}", Trace.NONE);
        }
    }

    private static void assertEveryCallIsRefused(TimerScheduler stopped) {
        List<Runnable> calls = List.of(
                () -> stopped.get("t1"), stopped::peek, () -> stopped.firstN(10), stopped::status, stopped::now,
                stopped::checkInvariants, () -> stopped.heapView(10), stopped::pendingBytes,
                () -> stopped.add("x", 1, 0, null, Trace.NONE), () -> stopped.cancel("t1", Precondition.NONE,
                        Trace.NONE),
                () -> stopped.edit("t1", 1L, null, Precondition.NONE, Trace.NONE), () -> stopped.advance(1, Trace.NONE),
                () -> stopped.reset(new VirtualClock(0)));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(ProblemException.class)
                    .satisfies(e -> assertThat(((ProblemException) e).code())
                            .isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
        }
    }

    /** What a scheduler serves: every pending timer in firing order, the status and the next sequence. */
    private record Served(List<Timer> pending, QueueStatus status, long pendingBytes) {

        static Served of(TimerScheduler scheduler) {
            return new Served(CoreTestSupport.pending(scheduler), scheduler.status(), scheduler.pendingBytes());
        }
    }

    /** A trace that runs out of memory after {@code steps} steps, in the middle of the heap's work. */
    private static final class TraceThatRunsOutOfMemory extends AbstractList<TraceStep> {

        private int left;

        TraceThatRunsOutOfMemory(int steps) {
            this.left = steps;
        }

        @Override
        public boolean add(TraceStep step) {
            if (left-- <= 0) {
                throw new OutOfMemoryError("test: no memory for the trace");
            }
            return true;
        }

        @Override
        public TraceStep get(int index) {
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public int size() {
            return 0;
        }
    }
}
