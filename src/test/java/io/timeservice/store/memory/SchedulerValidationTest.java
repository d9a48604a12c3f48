package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.assertInvariantsHold;
import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Refused calls: each is refused with the documented code, names the offending value, and changes nothing (status,
 * layout, pending timers, invariants and the sequence the next accepted add receives all stay as they were).
 */
class SchedulerValidationTest {

    private static final long MAX_DELAY = Limits.MAX_DELAY;

    /** Three pending timers and a clock at 2, so that "unchanged" has something to compare. */
    private static TimerScheduler populated() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("keep-a", 10, 1, "pa", Trace.NONE);
        scheduler.add("keep-b", 5, 0, "pb", Trace.NONE);
        scheduler.add("keep-c", 7, 2, null, Trace.NONE);
        scheduler.advance(2, Trace.NONE);
        return scheduler;
    }

    /** Everything observable about the scheduler, for before/after comparison. */
    private record Snapshot(QueueStatus status, List<String> layout, List<Timer> pending, long now) {
        static Snapshot of(TimerScheduler scheduler) {
            return new Snapshot(scheduler.status(), CoreTestSupport.layout(scheduler),
                    CoreTestSupport.pending(scheduler),
                    scheduler.now());
        }
    }

    static Stream<Arguments> refusedCalls() {
        String tooLong = "x".repeat(Limits.MAX_ID_LENGTH + 1);
        return Stream.of(
                refused("add empty id", ErrorCode.INVALID_ID, s -> s.add("", 1, 0, null, Trace.NONE)),
                refused("add null id", ErrorCode.INVALID_ID, s -> s.add(null, 1, 0, null, Trace.NONE)),
                refused("add 129-char id", ErrorCode.INVALID_ID, s -> s.add(tooLong, 1, 0, null, Trace.NONE)),
                refused("add id with space", ErrorCode.INVALID_ID, s -> s.add("a b", 1, 0, null, Trace.NONE)),
                refused("add id with slash", ErrorCode.INVALID_ID, s -> s.add("a/b", 1, 0, null, Trace.NONE)),
                refused("add id with non-ASCII", ErrorCode.INVALID_ID, s -> s.add("caf\u00e9", 1, 0, null, Trace.NONE)),
                refused("add id with newline", ErrorCode.INVALID_ID, s -> s.add("a\nb", 1, 0, null, Trace.NONE)),
                refused("add id \".\"", ErrorCode.INVALID_ID, s -> s.add(".", 1, 0, null, Trace.NONE)),
                refused("add id \"..\"", ErrorCode.INVALID_ID, s -> s.add("..", 1, 0, null, Trace.NONE)),
                refused("add duplicate id", ErrorCode.DUPLICATE_ID, s -> s.add("keep-b", 1, 9, "new", Trace.NONE)),
                refused("add negative delay", ErrorCode.INVALID_DELAY, s -> s.add("n", -1, 0, null, Trace.NONE)),
                refused("add Long.MIN_VALUE delay", ErrorCode.INVALID_DELAY, s -> s.add("n", Long.MIN_VALUE, 0, null,
                        Trace.NONE)),
                refused("add delay 10^15 + 1", ErrorCode.INVALID_DELAY, s -> s.add("n", MAX_DELAY + 1, 0, null,
                        Trace.NONE)),
                refused("edit negative delay", ErrorCode.INVALID_DELAY, s -> s.edit("keep-a", -1L, null,
                        Precondition.NONE, Trace.NONE)),
                refused("edit delay 10^15 + 1", ErrorCode.INVALID_DELAY,
                        s -> s.edit("keep-a", MAX_DELAY + 1, null, Precondition.NONE, Trace.NONE)),
                refused("edit nothing", ErrorCode.INVALID_REQUEST, s -> s.edit("keep-a", (Due) null, null,
                        Precondition.NONE, Trace.NONE)),
                refused("edit unknown id", ErrorCode.TIMER_NOT_FOUND, s -> s.edit("nope", 1L, null, Precondition.NONE,
                        Trace.NONE)),
                refused("edit stale revision", ErrorCode.PRECONDITION_FAILED,
                        s -> s.edit("keep-a", 1L, 0, Precondition.ifMatch(new Revision(1, 2)), Trace.NONE)),
                refused("cancel unknown id", ErrorCode.TIMER_NOT_FOUND, s -> s.cancel("nope", Precondition.NONE,
                        Trace.NONE)),
                refused("cancel null id", ErrorCode.TIMER_NOT_FOUND, s -> s.cancel(null, Precondition.NONE,
                        Trace.NONE)),
                refused("cancel stale revision", ErrorCode.PRECONDITION_FAILED,
                        s -> s.cancel("keep-a", Precondition.ifMatch(new Revision(99, 1)), Trace.NONE)),
                refused("get unknown id", ErrorCode.TIMER_NOT_FOUND, s -> s.get("nope")),
                refused("advance negative", ErrorCode.INVALID_ADVANCE, s -> s.advance(-1, Trace.NONE)),
                refused("advance 10^15 + 1", ErrorCode.INVALID_ADVANCE, s -> s.advance(MAX_DELAY + 1, Trace.NONE)),
                refused("firstN 0", ErrorCode.INVALID_LIMIT, s -> s.firstN(0)),
                refused("firstN negative", ErrorCode.INVALID_LIMIT, s -> s.firstN(-5)),
                refused("heapView 0", ErrorCode.INVALID_LIMIT, s -> s.heapView(0)));
    }

    private static Arguments refused(String name, ErrorCode code, Consumer<TimerScheduler> call) {
        return Arguments.of(name, code, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedCalls")
    void refusedCall_throwsItsCodeAndMutatesNothing(String name, ErrorCode code, Consumer<TimerScheduler> call) {
        TimerScheduler scheduler = populated();
        Snapshot before = Snapshot.of(scheduler);
        long lastSequence = before.pending().stream().mapToLong(Timer::sequence).max().orElseThrow();

        ProblemException refused = catchThrowableOfType(ProblemException.class, () -> call.accept(scheduler));

        assertThat(refused).as(name).isNotNull();
        assertThat(refused.code()).as(name).isEqualTo(code);
        assertThat(refused.getMessage()).as(name).isNotBlank();
        assertThat(Snapshot.of(scheduler)).as(name).isEqualTo(before);
        assertInvariantsHold(scheduler, name);
        assertThat(scheduler.add("next", 1, 0, null, Trace.NONE).sequence()).as(name).isEqualTo(lastSequence + 1);
    }

    @Test
    void add_idOf128AllowedCharacters_isAccepted() {
        TimerScheduler scheduler = scheduler(2);
        String allowed = "azAZ09._-~:";
        String id = (allowed.repeat(12) + "x".repeat(128)).substring(0, 128);

        assertThat(scheduler.add(id, 1, 0, null, Trace.NONE).id()).isEqualTo(id);
        assertThat(scheduler.add(allowed, 1, 0, null, Trace.NONE).id()).isEqualTo(allowed);
        assertThat(scheduler.add("q", 1, 0, null, Trace.NONE).id()).isEqualTo("q");
    }

    @Test
    void add_idsWithDotsThatAreNotDotSegments_areAccepted() {
        TimerScheduler scheduler = scheduler(2);

        for (String id : List.of("...", ".a", "a.", "..a", "a..", ".~", "-.")) {
            assertThat(scheduler.add(id, 1, 0, null, Trace.NONE).id()).isEqualTo(id);
        }
    }

    @ParameterizedTest(name = "id \"{0}\"")
    @ValueSource(strings = {"a#", "a?b", "a%20", "a+b", "a*", "[a]", "a\tb", "a,b", "a;b", "\u00fc", "a@b"})
    void add_idWithIllegalCharacter_rejectedNamingThePosition(String id) {
        TimerScheduler scheduler = scheduler(2);

        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> scheduler.add(id, 1, 0, null, Trace.NONE));

        assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ID);
        int position = firstIllegal(id);
        assertThat(refused.getMessage()).contains("at position " + position);
        assertThat(scheduler.status().size()).isZero();
    }

    @Test
    void add_idTooLong_messageCarriesTheLength() {
        TimerScheduler scheduler = scheduler(2);

        assertThatThrownBy(() -> scheduler.add("y".repeat(129), 1, 0, null, Trace.NONE))
                .isInstanceOf(ProblemException.class).hasMessageContaining("129");
    }

    @Test
    void add_negativeDelay_messageCarriesTheValue() {
        TimerScheduler scheduler = scheduler(2);

        assertThatThrownBy(() -> scheduler.add("a", -42, 0, null, Trace.NONE))
                .isInstanceOf(ProblemException.class).hasMessageContaining("-42");
    }

    @Test
    void add_duplicateId_leavesOriginalUntouched() {
        TimerScheduler scheduler = populated();
        Timer original = scheduler.get("keep-c");

        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> scheduler.add("keep-c", 1, -5, "replacement", Trace.NONE));

        assertThat(refused.code()).isEqualTo(ErrorCode.DUPLICATE_ID);
        assertThat(scheduler.get("keep-c")).isEqualTo(original);
        assertThat(scheduler.status().size()).isEqualTo(3);
    }

    @Test
    void add_delayExactly10To15_isAcceptedAndOneMoreIsNot() {
        TimerScheduler scheduler = scheduler(2);

        assertThat(scheduler.add("max", MAX_DELAY, 0, null, Trace.NONE).fireTime()).isEqualTo(MAX_DELAY);
        assertThat(catchThrowableOfType(ProblemException.class,
                () -> scheduler.add("over", MAX_DELAY + 1, 0, null,
                        Trace.NONE)).code()).isEqualTo(ErrorCode.INVALID_DELAY);
        assertThat(scheduler.advance(MAX_DELAY, Trace.NONE).fired()).extracting(Timer::id).containsExactly("max");
    }

    /** Near the end of time (Limits.MAX_TIME): a fireTime past it is refused, as one past 2^63 - 1 once was. */
    @Test
    void add_nowPlusDelayPastTheEndOfTime_rejectedAndNothingChanges() {
        long start = Limits.MAX_TIME - 10;
        TimerScheduler scheduler = new TimerScheduler(new VirtualClock(start), 2, 100, () -> 0L,
                SchedulerMetrics.NONE);

        Timer lastRepresentable = scheduler.add("edge", 10, 0, null, Trace.NONE);
        ProblemException overflow = catchThrowableOfType(ProblemException.class,
                () -> scheduler.add("over", 11, 0, null, Trace.NONE));
        ProblemException editOverflow = catchThrowableOfType(ProblemException.class,
                () -> scheduler.edit("edge", 11L, null, Precondition.NONE, Trace.NONE));

        assertThat(lastRepresentable.fireTime()).isEqualTo(Limits.MAX_TIME);
        assertThat(overflow.code()).isEqualTo(ErrorCode.INVALID_DELAY);
        assertThat(editOverflow.code()).isEqualTo(ErrorCode.INVALID_DELAY);
        assertThat(scheduler.get("edge")).isEqualTo(lastRepresentable);
        assertThat(scheduler.status().size()).isEqualTo(1);
        assertThat(scheduler.add("ok", 0, 0, null, Trace.NONE).sequence()).isEqualTo(lastRepresentable.sequence() + 1);
    }

    @Test
    void advance_pastTheEndOfTime_rejectedAndClockUnchanged_butReachingItExactlyFires() {
        long start = Limits.MAX_TIME - 10;
        TimerScheduler scheduler = new TimerScheduler(new VirtualClock(start), 4, 100, () -> 0L,
                SchedulerMetrics.NONE);
        scheduler.add("last", 10, 0, null, Trace.NONE);

        ProblemException overflow = catchThrowableOfType(ProblemException.class, () -> scheduler.advance(11,
                Trace.NONE));

        assertThat(overflow.code()).isEqualTo(ErrorCode.INVALID_ADVANCE);
        assertThat(scheduler.now()).isEqualTo(start);
        assertThat(scheduler.status().size()).isEqualTo(1);
        AdvanceResult result = scheduler.advance(10, Trace.NONE);
        assertThat(result.now()).isEqualTo(Limits.MAX_TIME);
        assertThat(result.fired()).extracting(Timer::id).containsExactly("last");
        assertThat(catchThrowableOfType(ProblemException.class, () -> scheduler.advance(1, Trace.NONE)).code())
                .isEqualTo(ErrorCode.INVALID_ADVANCE);
        assertThat(scheduler.advance(0, Trace.NONE).now()).isEqualTo(Limits.MAX_TIME);
    }

    @Test
    void advance_exactly10To15_isAccepted() {
        TimerScheduler scheduler = scheduler(2);

        assertThat(scheduler.advance(MAX_DELAY, Trace.NONE).now()).isEqualTo(MAX_DELAY);
        assertThat(scheduler.advance(1, Trace.NONE).now()).isEqualTo(MAX_DELAY + 1);
    }

    @Test
    void peek_onEmptyQueue_refusedAsQueueEmpty() {
        TimerScheduler scheduler = scheduler(8);

        assertThat(catchThrowableOfType(ProblemException.class, scheduler::peek).code())
                .isEqualTo(ErrorCode.QUEUE_EMPTY);
    }

    @Test
    void add_beyondCapacity_refusedWithoutConsumingASequence() {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(2, 3);
        scheduler.add("a", 1, 0, null, Trace.NONE);
        scheduler.add("b", 1, 0, null, Trace.NONE);
        Timer c = scheduler.add("c", 1, 0, null, Trace.NONE);

        ProblemException full = catchThrowableOfType(ProblemException.class,
                () -> scheduler.add("d", 1, 0, null, Trace.NONE));

        assertThat(full.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED);
        assertThat(scheduler.status().size()).isEqualTo(3);
        scheduler.cancel("a", Precondition.NONE, Trace.NONE);
        assertThat(scheduler.add("d", 1, 0, null, Trace.NONE).sequence()).isEqualTo(c.sequence() + 1);
    }

    @Test
    void constructor_unsupportedArityOrCapacity_rejected() {
        List<Executable> invalid = List.of(
                () -> TimerScheduler.withVirtualClock(3, 10),
                () -> TimerScheduler.withVirtualClock(1, 10),
                () -> TimerScheduler.withVirtualClock(16, 10),
                () -> TimerScheduler.withVirtualClock(2, 0));
        for (Executable call : invalid) {
            assertThatThrownBy(call::execute).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> new VirtualClock(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int firstIllegal(String id) {
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && ".-_~:".indexOf(c) < 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("no illegal character in " + id);
    }
}
