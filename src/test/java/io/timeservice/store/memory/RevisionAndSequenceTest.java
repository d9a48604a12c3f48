package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.pending;
import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/** Sequence numbers, versions and the If-Match style revision preconditions on cancel and edit. */
class RevisionAndSequenceTest {

    @Test
    void add_sequenceStrictlyIncreasesWithEveryAcceptedAdd() {
        TimerScheduler scheduler = scheduler(4);
        List<Long> sequences = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sequences.add(scheduler.add("s" + i, i % 4, 0, null, Trace.NONE).sequence());
            if (i % 10 == 9) {
                scheduler.advance(2, Trace.NONE);
            }
        }

        for (int i = 1; i < sequences.size(); i++) {
            assertThat(sequences.get(i)).as("sequence of add %d", i).isGreaterThan(sequences.get(i - 1));
        }
    }

    @Test
    void rejectedAdds_doNotConsumeASequence() {
        TimerScheduler scheduler = scheduler(2);
        Timer first = scheduler.add("a", 1, 0, null, Trace.NONE);

        catchThrowableOfType(ProblemException.class, () -> scheduler.add("a", 1, 0, null, Trace.NONE));
        catchThrowableOfType(ProblemException.class, () -> scheduler.add("", 1, 0, null, Trace.NONE));
        catchThrowableOfType(ProblemException.class, () -> scheduler.add("b", -1, 0, null, Trace.NONE));
        Timer second = scheduler.add("b", 1, 0, null, Trace.NONE);

        assertThat(second.sequence()).isEqualTo(first.sequence() + 1);
    }

    @Test
    void edit_keepsSequenceAndCountsVersionsFromOne() {
        TimerScheduler scheduler = scheduler(2);
        Timer added = scheduler.add("a", 5, 0, null, Trace.NONE);
        scheduler.add("b", 5, 0, null, Trace.NONE);

        Timer once = scheduler.edit("a", 9L, null, Precondition.NONE, Trace.NONE);
        Timer twice = scheduler.edit("a", (Due) null, 3, Precondition.NONE, Trace.NONE);

        assertThat(added.version()).isEqualTo(1);
        assertThat(once.version()).isEqualTo(2);
        assertThat(twice.version()).isEqualTo(3);
        assertThat(twice.sequence()).isEqualTo(added.sequence());
        assertThat(scheduler.get("a").revision()).isEqualTo(new Revision(added.sequence(), 3));
        assertThat(scheduler.get("b").version()).isEqualTo(1);
    }

    @Test
    void edit_keptSequenceStillBreaksTiesByArrival() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("first", 9, 0, null, Trace.NONE);
        scheduler.add("second", 5, 0, null, Trace.NONE);

        scheduler.edit("first", 5L, null, Precondition.NONE, Trace.NONE); // now both due at 5; "first" arrived first

        assertThat(scheduler.advance(5, Trace.NONE).fired()).extracting(Timer::id).containsExactly("first", "second");
    }

    @Test
    void cancel_withCurrentRevision_cancels() {
        TimerScheduler scheduler = scheduler(2);
        Timer timer = scheduler.edit(scheduler.add("a", 5, 0, null, Trace.NONE).id(), 6L, null, Precondition.NONE,
                Trace.NONE);

        Timer cancelled = scheduler.cancel("a", Precondition.ifMatch(timer.revision()), Trace.NONE);

        assertThat(cancelled).isEqualTo(timer);
        assertThat(scheduler.status().size()).isZero();
    }

    @Test
    void cancel_withRevisionBeforeAnEdit_preconditionFailedAndTimerUnchanged() {
        TimerScheduler scheduler = scheduler(2);
        Timer original = scheduler.add("a", 5, 0, null, Trace.NONE);
        Timer edited = scheduler.edit("a", 6L, null, Precondition.NONE, Trace.NONE);

        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> scheduler.cancel("a", Precondition.ifMatch(original.revision()), Trace.NONE));

        assertThat(refused.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThat(scheduler.get("a")).isEqualTo(edited);
        assertThat(pending(scheduler)).containsExactly(edited);
    }

    @Test
    void edit_withStaleRevision_preconditionFailedAndTimerUnchanged() {
        TimerScheduler scheduler = scheduler(2);
        Timer original = scheduler.add("a", 5, 0, null, Trace.NONE);
        scheduler.add("b", 7, 0, null, Trace.NONE);
        Timer edited = scheduler.edit("a", 8L, null, Precondition.ifMatch(original.revision()), Trace.NONE);

        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> scheduler.edit("a", 1L, 0, Precondition.ifMatch(original.revision()), Trace.NONE));

        assertThat(refused.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThat(refused.getMessage()).contains("revision " + edited.sequence() + "-2");
        assertThat(scheduler.get("a")).isEqualTo(edited);
        assertThat(scheduler.peek().id()).isEqualTo("b");
        assertThat(scheduler.edit("a", 1L, null, Precondition.ifMatch(edited.revision()), Trace.NONE).version())
                .isEqualTo(3);
    }

    @Test
    void idReusedAfterCancel_getsNewSequenceSoTheOldRevisionFails() {
        TimerScheduler scheduler = scheduler(2);
        Timer old = scheduler.add("job", 5, 0, null, Trace.NONE);
        scheduler.add("other", 5, 0, null, Trace.NONE);
        scheduler.cancel("job", Precondition.ifMatch(old.revision()), Trace.NONE);

        Timer reused = scheduler.add("job", 5, 0, null, Trace.NONE);

        assertThat(reused.sequence()).isGreaterThan(old.sequence());
        assertThat(reused.version()).isEqualTo(1);
        assertThat(reused.revision()).isNotEqualTo(old.revision());
        assertThat(catchThrowableOfType(ProblemException.class, () -> scheduler.cancel("job",
                Precondition.ifMatch(old.revision()), Trace.NONE))
                .code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThat(catchThrowableOfType(ProblemException.class,
                () -> scheduler.edit("job", 1L, null, Precondition.ifMatch(old.revision()), Trace.NONE)).code())
                .isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThat(scheduler.get("job")).isEqualTo(reused);
        // Same deadline as "other", but a newer generation: fires after it.
        assertThat(scheduler.advance(5, Trace.NONE).fired()).extracting(Timer::id).containsExactly("other", "job");
    }

    @Test
    void idReusedAfterFiring_getsNewSequence() {
        TimerScheduler scheduler = scheduler(2);
        Timer old = scheduler.add("job", 1, 0, null, Trace.NONE);
        scheduler.advance(1, Trace.NONE);

        Timer reused = scheduler.add("job", 1, 0, null, Trace.NONE);

        assertThat(reused.sequence()).isGreaterThan(old.sequence());
        assertThat(catchThrowableOfType(ProblemException.class, () -> scheduler.cancel("job",
                Precondition.ifMatch(old.revision()), Trace.NONE))
                .code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
    }

    @Test
    void edit_countsUpToTheMaximumVersion_thenIsRefusedAsVersionLimitReached_andChangesNothing() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.recover(new RecoveredSnapshot(0, 2, List.of(
                new Mutation.Added(new Timer("old", 5, 0, 1, Timer.MAX_VERSION - 1, 0, null), 0),
                new Mutation.Added(new Timer("other", 7, 0, 2, 1, 0, null), 0))), List.of());

        Timer last = scheduler.edit("old", 9L, null, Precondition.NONE, Trace.NONE);
        assertThat(last.version()).isEqualTo(Timer.MAX_VERSION).isEqualTo(Integer.MAX_VALUE);
        List<Timer> before = pending(scheduler);

        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> scheduler.edit("old", 3L, 1, Precondition.ifMatch(last.revision()), Trace.NONE));

        assertThat(refused.code()).isEqualTo(ErrorCode.VERSION_LIMIT_REACHED);
        assertThat(refused.getMessage()).contains("old", String.valueOf(Timer.MAX_VERSION));
        assertThat(pending(scheduler)).isEqualTo(before);
        assertThat(scheduler.get("old").revision()).isEqualTo(last.revision());
        // the way on: cancel and add again, which starts a new generation at version 1
        scheduler.cancel("old", Precondition.ifMatch(last.revision()), Trace.NONE);
        assertThat(scheduler.add("old", 1, 0, null, Trace.NONE).version()).isEqualTo(1);
    }

    @Test
    void aTimerBeyondTheMaximumVersion_cannotBeBuilt_soNoJournalCanLoadOne() {
        assertThatThrownBy(() -> new Timer("x", 1, 0, 1, Timer.MAX_VERSION + 1, 0, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x").hasMessageContaining(String.valueOf(Timer.MAX_VERSION));
    }

    @Test
    void revisionPrecondition_onUnknownId_isNotFoundRatherThanPreconditionFailed() {
        TimerScheduler scheduler = scheduler(2);

        assertThat(catchThrowableOfType(ProblemException.class,
                () -> scheduler.cancel("ghost", Precondition.ifMatch(new Revision(1, 1)),
                        Trace.NONE)).code()).isEqualTo(ErrorCode.TIMER_NOT_FOUND);
    }
}
