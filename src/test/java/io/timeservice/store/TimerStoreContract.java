package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.MemoryContractStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract of {@link TimerStore}, run against every store: adds, reads, edits, cancels, batches, advances, the
 * firing order and its tie-breaks, advancing to the next event (timers, lease ends, retries), preconditions and the
 * capacity, each refusal with its code and its text. The last case runs seeded random operations against a memory
 * store as the reference.
 */
public abstract class TimerStoreContract extends StoreContract {

    @Test
    void add_answersTheTimerDueAtNowPlusDelay_andGetReadsItBack() {
        timers().advance(null, 4L, null, 100, Trace.NONE);
        Timer added = timers().add(null, "a", 10, 2, "{\"p\":1}", Trace.NONE);

        assertThat(added.id()).isEqualTo("a");
        assertThat(added.fireTime()).isEqualTo(14);
        assertThat(added.priority()).isEqualTo(2);
        assertThat(added.version()).isEqualTo(1);
        assertThat(added.createdAt()).isEqualTo(4);
        assertThat(added.payload()).isEqualTo("{\"p\":1}");
        assertThat(added.schedule()).isNull();
        assertThat(timers().get(null, "a")).isEqualTo(added);
        assertThat(timers().add(null, "past", Due.at(1), 0, null, Trace.NONE).fireTime())
                .as("a time before now is raised to now").isEqualTo(4);
        assertThat(timers().add(null, "later", Due.at(1_000), 0, null, Trace.NONE).fireTime()).isEqualTo(1_000);
    }

    @Test
    void add_isRefused_forABadId_aBadDelay_aDuplicateId_andAMissingClock_changingNothing() {
        timers().add(null, "a", 5, 0, null, Trace.NONE);

        assertRefused(() -> timers().add(null, "", 1, 0, null, Trace.NONE), ErrorCode.INVALID_ID,
                "id must be 1 to " + Limits.MAX_ID_LENGTH + " characters long, got 0");
        assertRefused(() -> timers().add(null, "a b", 1, 0, null, Trace.NONE), ErrorCode.INVALID_ID,
                "id may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertRefused(() -> timers().add(null, "b", -1, 0, null, Trace.NONE), ErrorCode.INVALID_DELAY,
                "delay must be between 0 and " + Limits.MAX_DELAY + ": -1");
        assertRefused(() -> timers().add(null, "b", Limits.MAX_DELAY + 1, 0, null, Trace.NONE),
                ErrorCode.INVALID_DELAY, "delay must be between 0 and " + Limits.MAX_DELAY + ": "
                        + (Limits.MAX_DELAY + 1));
        assertRefused(() -> timers().add(null, "a", 1, 0, null, Trace.NONE), ErrorCode.DUPLICATE_ID,
                "a pending timer already has id a");
        assertRefused(() -> timers().add("nowhere", "b", 1, 0, null, Trace.NONE), ErrorCode.CLOCK_NOT_FOUND,
                "no clock is named nowhere");
        assertRefused(() -> timers().get(null, "b"), ErrorCode.TIMER_NOT_FOUND, "no pending timer has id b");
        assertThat(timers().status(null).size()).isEqualTo(1);
    }

    @Test
    void edit_countsANewDelayFromNow_keepsTheSequence_andCountsAVersion() {
        Timer added = timers().add(null, "a", 10, 0, null, Trace.NONE);
        timers().advance(null, 4L, null, 100, Trace.NONE);

        Timer edited = timers().edit(null, "a", 2L, null, Precondition.NONE, Trace.NONE);
        assertThat(edited.fireTime()).as("now 4 + 2, not the old fireTime minus anything").isEqualTo(6);
        assertThat(edited.sequence()).isEqualTo(added.sequence());
        assertThat(edited.version()).isEqualTo(2);
        assertThat(edited.priority()).isZero();

        Timer reprioritized = timers().edit(null, "a", (Due) null, 7, Precondition.NONE, Trace.NONE);
        assertThat(reprioritized.fireTime()).isEqualTo(6);
        assertThat(reprioritized.priority()).isEqualTo(7);
        assertThat(reprioritized.version()).isEqualTo(3);
        assertThat(timers().edit(null, "a", Due.at(50), null, Precondition.NONE, Trace.NONE).fireTime())
                .isEqualTo(50);
        assertThat(timers().get(null, "a").version()).isEqualTo(4);
    }

    @Test
    void edit_isRefused_forNothingToChange_aBadDelay_aMissingTimer_andAStaleRevision() {
        Timer added = timers().add(null, "a", 10, 0, null, Trace.NONE);
        Revision stale = new Revision(added.sequence(), 2);

        assertRefused(() -> timers().edit(null, "a", (Due) null, null, Precondition.NONE, Trace.NONE),
                ErrorCode.INVALID_REQUEST, "an edit needs a delay or an at, a priority, or both");
        assertRefused(() -> timers().edit(null, "a", -5L, null, Precondition.NONE, Trace.NONE),
                ErrorCode.INVALID_DELAY, "delay must be between 0 and " + Limits.MAX_DELAY + ": -5");
        assertRefused(() -> timers().edit(null, "b", 5L, null, Precondition.NONE, Trace.NONE),
                ErrorCode.TIMER_NOT_FOUND, "no pending timer has id b");
        assertRefused(() -> timers().edit(null, "a", 5L, null, Precondition.ifMatch(stale), Trace.NONE),
                ErrorCode.PRECONDITION_FAILED, "timer a is at revision " + added.sequence()
                        + "-1, which the precondition does not name");
        assertThat(timers().get(null, "a")).isEqualTo(added);
        assertThat(timers().edit(null, "a", 5L, null, Precondition.ifMatch(added.revision()), Trace.NONE)
                .version()).isEqualTo(2);
    }

    @Test
    void cancel_answersTheTimerAsItWas_ifThePreconditionNamesIt() {
        Timer added = timers().add(null, "a", 10, 0, "\"x\"", Trace.NONE);
        Revision stale = new Revision(added.sequence(), 9);

        assertRefused(() -> timers().cancel(null, "a", Precondition.ifMatch(stale), Trace.NONE),
                ErrorCode.PRECONDITION_FAILED, "timer a is at revision " + added.sequence()
                        + "-1, which the precondition does not name");
        assertThat(timers().cancel(null, "a", Precondition.ifMatch(added.revision()), Trace.NONE))
                .isEqualTo(added);
        assertRefused(() -> timers().cancel(null, "a", Precondition.NONE, Trace.NONE), ErrorCode.TIMER_NOT_FOUND,
                "no pending timer has id a");
        assertThat(timers().status(null).size()).isZero();
        assertThat(timers().add(null, "a", 1, 0, null, Trace.NONE).version()).as("a new timer of the id").isEqualTo(1);
    }

    @Test
    void advance_firesByFireTime_thenPriority_thenSequence() {
        timers().add(null, "c", 5, 0, null, Trace.NONE);
        timers().add(null, "a", 5, 0, null, Trace.NONE);
        timers().add(null, "b", 5, 0, null, Trace.NONE);
        timers().add(null, "urgent", 5, -1, null, Trace.NONE);
        timers().add(null, "early", 4, 9, null, Trace.NONE);
        timers().add(null, "late", 6, -9, null, Trace.NONE);

        AdvanceResult result = timers().advance(null, 5L, null, Integer.MAX_VALUE, Trace.NONE);

        assertThat(result.now()).isEqualTo(5);
        assertThat(result.complete()).isTrue();
        assertThat(result.fired()).extracting(Timer::id).containsExactly("early", "urgent", "c", "a", "b");
        assertThat(timers().firstN(null, 10).timers()).extracting(Timer::id).containsExactly("late");
    }

    @Test
    void aBoundedAdvance_stopsAtTheLastTimerItFired() {
        for (String id : List.of("a", "b", "c")) {
            timers().add(null, id, 3, 0, null, Trace.NONE);
        }
        timers().add(null, "d", 7, 0, null, Trace.NONE);

        AdvanceResult first = timers().advance(null, null, 10L, 2, Trace.NONE);
        assertThat(first.fired()).extracting(Timer::id).containsExactly("a", "b");
        assertThat(first.now()).isEqualTo(3);
        assertThat(first.complete()).isFalse();

        AdvanceResult rest = timers().advance(null, null, 10L, 5, Trace.NONE);
        assertThat(rest.fired()).extracting(Timer::id).containsExactly("c", "d");
        assertThat(rest.now()).isEqualTo(10);
        assertThat(rest.complete()).isTrue();
        assertThat(timers().advance(null, 0L, null, 5, Trace.NONE).fired()).isEmpty();
    }

    @Test
    void advance_isRefused_backwards_tooFar_andOnAClockThatFiresByItself() {
        timers().advance(null, 10L, null, 1, Trace.NONE);
        clocks().create("wall", 0, ClockSettings.SYSTEM);

        assertRefused(() -> timers().advance(null, null, 9L, 1, Trace.NONE), ErrorCode.INVALID_ADVANCE,
                "to (9) is before now (10); the clock never goes back");
        assertRefused(() -> timers().advance(null, null, 11 + Limits.MAX_DELAY, 1, Trace.NONE),
                ErrorCode.INVALID_ADVANCE, "to (" + (11 + Limits.MAX_DELAY) + ") is more than " + Limits.MAX_DELAY
                        + " ms after now (10)");
        assertRefused(() -> timers().advance(null, -1L, null, 1, Trace.NONE), ErrorCode.INVALID_ADVANCE,
                "by must be between 0 and " + Limits.MAX_DELAY + ": -1");
        assertRefused(() -> timers().advance("wall", 1L, null, 1, Trace.NONE), ErrorCode.CLOCK_NOT_VIRTUAL,
                "this clock runs on the system clock and fires by itself; only a virtual clock can be advanced");
        assertRefused(() -> timers().advanceToNext("wall", 1, Trace.NONE), ErrorCode.CLOCK_NOT_VIRTUAL,
                "this clock runs on the system clock and fires by itself; only a virtual clock can be advanced");
        assertThat(timers().status(null).now()).isEqualTo(10);
    }

    @Test
    void advanceToNext_movesToTheEarliestTimer_orStaysWithNothingPending() {
        NextAdvance nothing = timers().advanceToNext(null, 10, Trace.NONE);
        assertThat(nothing.event()).isNull();
        assertThat(nothing.result().now()).isZero();
        assertThat(nothing.result().fired()).isEmpty();

        timers().add(null, "later", 30, 0, null, Trace.NONE);
        timers().add(null, "b", 20, 1, null, Trace.NONE);
        timers().add(null, "a", 20, 0, null, Trace.NONE);
        NextAdvance next = timers().advanceToNext(null, 10, Trace.NONE);

        assertThat(next.event()).isNotNull();
        assertThat(next.result().now()).isEqualTo(20);
        assertThat(next.result().fired()).extracting(Timer::id).containsExactly("a", "b");
        assertThat(timers().status(null).now()).isEqualTo(20);
        assertRefused(() -> timers().advanceToNext(null, 0, Trace.NONE), ErrorCode.INVALID_LIMIT,
                "limit must be >= 1: 0");
    }

    /** Three attempts, 100 ms then 200 ms backoff, no jitter: retry times are exact. */
    private static final ClockSettings NEXT_QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 100, 2.0, 1_000, 0.0));

    private NextAdvance next(String clock) {
        return timers().advanceToNext(clock, 1000, Trace.NONE);
    }

    private static void assertStep(NextAdvance step, NextEvent.Kind kind, long now, String... fired) {
        assertThat(step.event() == null ? null : step.event().kind()).as("event").isEqualTo(kind);
        assertThat(step.result().now()).as("now").isEqualTo(now);
        assertThat(step.result().fired()).extracting(Timer::id).as("fired").containsExactly(fired);
    }

    @Test
    void advanceToNext_stepsThroughTimersLeaseEndsAndRetries_inTimeOrder() {
        clocks().create("q", 1_000, NEXT_QUEUE);

        assertStep(next("q"), null, 1_000);                                   // nothing pending: the clock stays
        timers().add("q", "a", 50, 0, null, Trace.NONE);
        timers().add("q", "b", 50, -1, null, Trace.NONE);
        timers().add("q", "c", 2_000, 0, null, Trace.NONE);

        assertStep(next("q"), NextEvent.Kind.TIMER, 1_050, "b", "a");
        Delivery b = deliveries().claim("q", 1, 1_000, 0).get(0);
        assertThat(b.id()).isEqualTo("b");

        assertStep(next("q"), NextEvent.Kind.LEASE, 2_050);                    // b's lease ends before c is due
        assertThat(deliveries().counts("q").waiting()).isEqualTo(1);          // b waits for 2_050 + 100

        assertStep(next("q"), NextEvent.Kind.RETRY, 2_150);
        assertThat(deliveries().counts("q").ready()).isEqualTo(2);            // a, and b again

        assertStep(next("q"), NextEvent.Kind.TIMER, 3_000, "c");
        List<Delivery> claimed = deliveries().claim("q", 3, 1_000, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("a", "b", "c");
        deliveries().ack("q", "a", claimed.get(0).claim());

        timers().add("q", "d", 1_000, 0, null, Trace.NONE);                   // due exactly when b's and c's leases end
        assertStep(next("q"), NextEvent.Kind.TIMER, 4_000, "d");               // a tie: the timer is named
        assertThat(deliveries().counts("q").inFlight()).isZero();
        assertThat(deliveries().counts("q").waiting()).isEqualTo(2);
        ackAll(1);                                                            // d

        assertStep(next("q"), NextEvent.Kind.RETRY, 4_100);                    // c's second attempt: 100 ms later
        ackAll(1);
        assertStep(next("q"), NextEvent.Kind.RETRY, 4_200);                    // b's third attempt: 200 ms later
        ackAll(1);
        assertStep(next("q"), null, 4_200);
        assertThat(timers().status("q").now()).isEqualTo(4_200);
    }

    private void ackAll(int expected) {
        List<Delivery> claimed = deliveries().claim("q", 10, 1_000, 0);
        assertThat(claimed).hasSize(expected);
        for (Delivery delivery : claimed) {
            deliveries().ack("q", delivery.id(), delivery.claim());
        }
    }

    @Test
    void advanceToNext_onAResponseClock_firesOnlyTheEarliestTime_boundedByTheLimit() {
        clocks().create("r", 0, ClockSettings.VIRTUAL);
        timers().add("r", "x", 10, 0, null, Trace.NONE);
        timers().add("r", "y", 10, 0, null, Trace.NONE);
        timers().add("r", "z", 10, 0, null, Trace.NONE);
        timers().add("r", "later", 11, 0, null, Trace.NONE);

        NextAdvance bounded = timers().advanceToNext("r", 2, Trace.NONE);

        assertStep(bounded, NextEvent.Kind.TIMER, 10, "x", "y");
        assertThat(bounded.result().complete()).isFalse();
        assertStep(next("r"), NextEvent.Kind.TIMER, 10, "z");                  // the rest due at the same time
        assertStep(next("r"), NextEvent.Kind.TIMER, 11, "later");
        AdvanceResult nothing = next("r").result();
        assertThat(nothing.fired()).isEmpty();
        assertThat(nothing.now()).isEqualTo(11);
        assertRefused(() -> next("nope"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named nope");
    }

    @Test
    void reads_listInFiringOrder_andPeekRefusesAnEmptyQueue() {
        assertRefused(() -> timers().peek(null), ErrorCode.QUEUE_EMPTY, "no timer is pending");
        QueueStatus empty = timers().status(null);
        assertThat(empty.size()).isZero();
        assertThat(empty.nextFireTime()).isNull();

        timers().add(null, "c", 9, 0, null, Trace.NONE);
        timers().add(null, "a", 3, 0, null, Trace.NONE);
        timers().add(null, "b", 3, 1, null, Trace.NONE);

        assertThat(timers().peek(null).id()).isEqualTo("a");
        QueueListing first = timers().firstN(null, 2);
        assertThat(first.size()).isEqualTo(3);
        assertThat(first.timers()).extracting(Timer::id).containsExactly("a", "b");
        assertThat(timers().dueBy(null, 3, 10).timers()).extracting(Timer::id).containsExactly("a", "b");
        assertThat(timers().dueBy(null, 9, 2).timers()).extracting(Timer::id).containsExactly("a", "b");
        QueueStatus status = timers().status(null);
        assertThat(status.size()).isEqualTo(3);
        assertThat(status.nextFireTime()).isEqualTo(3);
        assertThat(status.oldestCreatedAt()).isZero();
    }

    @Test
    void batch_appliesInOrder_eachDecidedOnTheStateBeforeIt() {
        Timer a = timers().add(null, "a", 10, 0, null, Trace.NONE);

        List<Timer> results = timers().batch(null, List.of(
                new BatchOp.Add("b", Due.after(5), 0, "\"b\""),
                new BatchOp.Edit("b", Due.after(7), 3, Precondition.NONE),
                new BatchOp.Cancel("a", Precondition.ifMatch(a.revision())),
                new BatchOp.Add("a", Due.after(1), 0, null),
                new BatchOp.Edit("b", null, -3, ANY_REVISION)));

        assertThat(results).extracting(Timer::id).containsExactly("b", "b", "a", "a", "b");
        assertThat(results.get(0).version()).isEqualTo(1);
        assertThat(results.get(0).payload()).isEqualTo("\"b\"");
        assertThat(results.get(1).fireTime()).isEqualTo(7);
        assertThat(results.get(1).version()).isEqualTo(2);
        assertThat(results.get(1).sequence()).isEqualTo(results.get(0).sequence());
        assertThat(results.get(2)).isEqualTo(a);
        assertThat(results.get(3).sequence()).as("the batch's second add takes the next sequence")
                .isEqualTo(results.get(0).sequence() + 1);
        assertThat(results.get(4).priority()).isEqualTo(-3);
        assertThat(results.get(4).version()).isEqualTo(3);
        assertThat(timers().firstN(null, 10).timers()).extracting(Timer::id, Timer::fireTime, Timer::priority)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 1L, 0),
                        org.assertj.core.groups.Tuple.tuple("b", 7L, -3));
        assertThat(timers().get(null, "b").payload()).isEqualTo("\"b\"");
    }

    @Test
    void batch_isAllOrNothing_andNamesTheRefusedOperation() {
        timers().add(null, "a", 10, 0, null, Trace.NONE);

        ProblemException refused = assertRefused(() -> timers().batch(null, List.of(
                        new BatchOp.Add("b", Due.after(5), 0, null),
                        new BatchOp.Cancel("a", Precondition.NONE),
                        new BatchOp.Cancel("a", Precondition.NONE))),
                ErrorCode.TIMER_NOT_FOUND, "operation 2: no pending timer has id a");
        assertThat(refused.opIndex()).isEqualTo(2);
        assertThat(timers().firstN(null, 10).timers()).extracting(Timer::id).containsExactly("a");

        assertRefused(() -> timers().batch(null, List.of()), ErrorCode.INVALID_REQUEST,
                "a batch holds 1 to " + Limits.MAX_BATCH_OPS + " operations, got 0");
        List<BatchOp> tooMany = new ArrayList<>();
        for (int i = 0; i <= Limits.MAX_BATCH_OPS; i++) {
            tooMany.add(new BatchOp.Add("t" + i, Due.after(1), 0, null));
        }
        assertRefused(() -> timers().batch(null, tooMany), ErrorCode.INVALID_REQUEST,
                "a batch holds 1 to " + Limits.MAX_BATCH_OPS + " operations, got " + (Limits.MAX_BATCH_OPS + 1));
        assertThat(timers().status(null).size()).isEqualTo(1);
    }

    @Test
    void theCapacity_refusesATimerTooMany_andPayloadBytesTooMany() {
        reopen(Stores.Limits.ROOMY.withCapacity(2, 10));
        timers().add(null, "a", 1, 0, null, Trace.NONE);
        timers().add(null, "b", 1, 0, null, Trace.NONE);

        assertRefused(() -> timers().add(null, "c", 1, 0, null, Trace.NONE), ErrorCode.CAPACITY_EXCEEDED,
                "the queue holds its capacity of 2 pending timers");
        timers().cancel(null, "b", Precondition.NONE, Trace.NONE);
        assertRefused(() -> timers().add(null, "c", 1, 0, "\"1234567\"", Trace.NONE), ErrorCode.CAPACITY_EXCEEDED,
                "the pending timers hold 1 of the queue's 10 payload bytes (capacity-bytes: id and payload"
                        + " characters); this timer needs 10");
        ProblemException inBatch = assertRefused(() -> timers().batch(null, List.of(
                        new BatchOp.Add("c", Due.after(1), 0, null), new BatchOp.Add("d", Due.after(1), 0, null))),
                ErrorCode.CAPACITY_EXCEEDED, "operation 1: the queue holds its capacity of 2 pending timers");
        assertThat(inBatch.opIndex()).isEqualTo(1);
        assertThat(timers().status(null).size()).isEqualTo(1);
    }

    /**
     * A batch beyond the payload bytes is refused with the batch's text on both stores, whether the operation that
     * goes beyond adds a timer to the running peak (once "this timer needs" on the memory store) or only bytes (once
     * without "more" on PostgreSQL).
     */
    @Test
    void aBatchBeyondThePayloadBytes_isRefusedWithOneText_atTheOperationThatGoesBeyond() {
        reopen(Stores.Limits.ROOMY.withCapacity(3, 10));
        timers().add(null, "a", 1, 0, null, Trace.NONE);
        String sevenDigits = "\"1234567\"";

        assertRefused(() -> timers().batch(null, List.of(new BatchOp.Add("c", Due.after(1), 0, sevenDigits))),
                ErrorCode.CAPACITY_EXCEEDED, "operation 0: the pending timers hold 1 of the queue's 10 payload bytes"
                        + " (capacity-bytes: id and payload characters); the batch needs 10 more");
        assertRefused(() -> timers().batch(null, List.of(new BatchOp.Add("x", Due.after(1), 0, null),
                        new BatchOp.Cancel("x", Precondition.NONE), new BatchOp.Add("y", Due.after(1), 0, sevenDigits))),
                ErrorCode.CAPACITY_EXCEEDED, "operation 2: the pending timers hold 2 of the queue's 10 payload bytes"
                        + " (capacity-bytes: id and payload characters); the batch needs 9 more");
        assertThat(timers().firstN(null, 10).timers()).extracting(Timer::id).containsExactly("a");
    }

    @Test
    void anAdvanceWithoutExactlyOneOfByAndTo_andLimitsBelowOne_areRefusedWithOneText() {
        timers().add(null, "a", 1, 0, null, Trace.NONE);

        assertRefused(() -> timers().advance(null, null, null, 1, Trace.NONE), ErrorCode.INVALID_REQUEST,
                "an advance needs exactly one of by and to");
        assertRefused(() -> timers().advance(null, 1L, 1L, 1, Trace.NONE), ErrorCode.INVALID_REQUEST,
                "an advance needs exactly one of by and to");
        assertRefused(() -> timers().advance(null, 1L, null, 0, Trace.NONE), ErrorCode.INVALID_LIMIT,
                "limit must be >= 1: 0");
        assertRefused(() -> timers().dueBy(null, 5, 0), ErrorCode.INVALID_LIMIT, "limit must be >= 1: 0");
        assertThat(timers().status(null).now()).isZero();
        assertThat(timers().firstN(null, 10).timers()).extracting(Timer::id).containsExactly("a");
    }

    @Test
    void reset_emptiesTheDefaultClock_andRestartsItAtZero() {
        timers().add(null, "a", 10, 0, null, Trace.NONE);
        timers().advance(null, 5L, null, 10, Trace.NONE);

        timers().reset();

        assertThat(timers().status(null).now()).isZero();
        assertThat(timers().status(null).size()).isZero();
        assertThat(timers().add(null, "a", 1, 0, null, Trace.NONE).fireTime()).isEqualTo(1);
    }

    // ---- batches: every refusal at its operation, the largest batch, named clocks ----

    /** What {@code If-Match: *} asks: any current revision. */
    private static final Precondition ANY_REVISION = revision -> true;
    /** What an {@code If-Match} of weak or malformed tags asks: a revision no timer has. */
    private static final Precondition NO_REVISION = revision -> false;

    /** One refused batch: its operations (given A, B and C pending), the refusal and its index and text. */
    private record RefusedBatch(List<BatchOp> ops, ErrorCode code, int index, String text) {
    }

    @Test
    void batch_isRefusedAtItsFirstRefusedOperation_withThatOperationsText_andChangesNothing() {
        Timer a = timers().add(null, "A", 5, 0, null, Trace.NONE);
        timers().add(null, "B", 3, 1, null, Trace.NONE);
        timers().add(null, "C", 8, 0, null, Trace.NONE);
        timers().advance(null, 1L, null, 10, Trace.NONE);
        BatchOp addN = new BatchOp.Add("N", Due.after(1), 0, null);
        String stale = "timer A is at revision " + a.sequence() + "-1, which the precondition does not name";
        List<RefusedBatch> cases = List.of(
                new RefusedBatch(List.of(addN, new BatchOp.Add("N", Due.after(2), 0, null)), ErrorCode.DUPLICATE_ID,
                        1, "a pending timer already has id N"),
                new RefusedBatch(List.of(new BatchOp.Cancel("A", Precondition.NONE),
                        new BatchOp.Add("B", Due.after(2), 0, null)), ErrorCode.DUPLICATE_ID, 1,
                        "a pending timer already has id B"),
                new RefusedBatch(List.of(new BatchOp.Cancel("A", Precondition.NONE),
                        new BatchOp.Edit("A", Due.after(2), null, Precondition.NONE)), ErrorCode.TIMER_NOT_FOUND, 1,
                        "no pending timer has id A"),
                new RefusedBatch(List.of(addN, new BatchOp.Cancel("zz", Precondition.NONE)),
                        ErrorCode.TIMER_NOT_FOUND, 1, "no pending timer has id zz"),
                new RefusedBatch(List.of(new BatchOp.Cancel("A", Precondition.ifMatch(
                        new Revision(a.sequence(), 9)))), ErrorCode.PRECONDITION_FAILED, 0, stale),
                new RefusedBatch(List.of(new BatchOp.Edit("B", null, 2, Precondition.NONE),
                        new BatchOp.Edit("A", Due.after(1), null, NO_REVISION)), ErrorCode.PRECONDITION_FAILED, 1,
                        stale),
                new RefusedBatch(List.of(addN, new BatchOp.Add("M", Due.after(-1), 0, null)),
                        ErrorCode.INVALID_DELAY, 1, "delay must be between 0 and " + Limits.MAX_DELAY + ": -1"),
                new RefusedBatch(List.of(new BatchOp.Edit("A", Due.after(Limits.MAX_DELAY + 1), null,
                        Precondition.NONE)), ErrorCode.INVALID_DELAY, 0, "delay must be between 0 and "
                        + Limits.MAX_DELAY + ": " + (Limits.MAX_DELAY + 1)),
                new RefusedBatch(List.of(addN, new BatchOp.Edit("A", Due.at(2 + Limits.MAX_DELAY), null,
                        Precondition.NONE)), ErrorCode.INVALID_DELAY, 1, "at (" + (2 + Limits.MAX_DELAY)
                        + ") is more than " + Limits.MAX_DELAY + " ms after now (1)"),
                new RefusedBatch(List.of(addN, new BatchOp.Edit("A", null, null, Precondition.NONE)),
                        ErrorCode.INVALID_REQUEST, 1, "an edit needs a delay or an at, a priority, or both"),
                new RefusedBatch(List.of(addN, new BatchOp.Add("a b", Due.after(1), 0, null)), ErrorCode.INVALID_ID,
                        1, "id may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1"));
        List<Timer> before = timers().firstN(null, 10).timers();

        for (RefusedBatch refused : cases) {
            ProblemException refusal = assertRefused(() -> timers().batch(null, refused.ops()), refused.code(),
                    "operation " + refused.index() + ": " + refused.text());
            assertThat(refusal.opIndex()).as(refused.text()).isEqualTo(refused.index());
            assertThat(timers().firstN(null, 10).timers()).as("after " + refused.text()).isEqualTo(before);
        }
        assertThat(timers().status(null).now()).isEqualTo(1);
        Timer n = timers().batch(null, List.of(addN)).get(0);
        assertThat(timers().add(null, "after", 1, 0, null, Trace.NONE).sequence()).as("the next add, the next sequence")
                .isEqualTo(n.sequence() + 1);
    }

    @Test
    void batch_ofTheMostOperations_isOneBatch() {
        List<BatchOp> ops = new ArrayList<>();
        for (int i = 0; i < Limits.MAX_BATCH_OPS; i++) {
            ops.add(new BatchOp.Add("t" + i, Due.after(i), 0, null));
        }

        assertThat(timers().batch(null, ops)).hasSize(Limits.MAX_BATCH_OPS);

        assertThat(timers().status(null).size()).isEqualTo(Limits.MAX_BATCH_OPS);
        assertThat(timers().peek(null).id()).isEqualTo("t0");
    }

    @Test
    void batch_onANamedClock_changesOnlyThatClock() {
        timers().add(null, "A", 5, 0, null, Trace.NONE);
        clocks().create("other", 0, ClockSettings.VIRTUAL);

        List<Timer> results = timers().batch("other", List.of(new BatchOp.Add("A", Due.after(1), 0, null),
                new BatchOp.Add("X", Due.after(2), 0, null)));

        assertThat(results).extracting(Timer::id).containsExactly("A", "X");
        assertThat(timers().status("other").size()).isEqualTo(2);
        assertThat(timers().firstN(null, 10).timers()).extracting(Timer::id).containsExactly("A");
        assertRefused(() -> timers().get(null, "X"), ErrorCode.TIMER_NOT_FOUND, "no pending timer has id X");
        assertRefused(() -> timers().batch("nowhere", List.of(new BatchOp.Cancel("A", Precondition.NONE))),
                ErrorCode.CLOCK_NOT_FOUND, "no clock is named nowhere");
    }

    @Test
    void theCapacity_countsABatchsAddsAsAWhole_anEarlierCancelMakingRoomForALaterAdd() {
        reopen(Stores.Limits.ROOMY.withCapacity(5, 10_000));
        for (int i = 0; i < 4; i++) {
            timers().add(null, "t" + i, 1, 0, null, Trace.NONE);
        }
        List<Timer> before = timers().firstN(null, 10).timers();

        ProblemException refused = assertRefused(() -> timers().batch(null, List.of(
                        new BatchOp.Add("a", Due.after(1), 0, null),
                        new BatchOp.Edit("t0", Due.after(9), null, Precondition.NONE),
                        new BatchOp.Add("b", Due.after(1), 0, null))),
                ErrorCode.CAPACITY_EXCEEDED, "operation 2: the queue holds its capacity of 5 pending timers");
        assertThat(refused.opIndex()).isEqualTo(2);
        assertThat(timers().firstN(null, 10).timers()).isEqualTo(before);

        assertThat(timers().batch(null, List.of(new BatchOp.Add("a", Due.after(1), 0, null),
                new BatchOp.Cancel("t0", Precondition.NONE), new BatchOp.Add("b", Due.after(1), 0, null))))
                .hasSize(3);
        assertThat(timers().status(null).size()).isEqualTo(5);
    }

    @Test
    void theByteBudget_countsIdAndPayloadCharacters_andACancelGivesThemBack() {
        reopen(Stores.Limits.ROOMY.withCapacity(100, 2_000));
        String payload = "\"" + "x".repeat(898) + "\"";   // 900 characters; each timer counts 901 with its id
        timers().add(null, "a", 5, 0, payload, Trace.NONE);
        timers().add(null, "b", 5, 0, payload, Trace.NONE);
        List<Timer> before = timers().firstN(null, 10).timers();

        assertRefused(() -> timers().add(null, "c", 5, 0, payload, Trace.NONE), ErrorCode.CAPACITY_EXCEEDED,
                "the pending timers hold 1802 of the queue's 2000 payload bytes (capacity-bytes: id and payload"
                        + " characters); this timer needs 901");
        assertThat(timers().firstN(null, 10).timers()).isEqualTo(before);
        assertThat(timers().add(null, "small", 5, 0, "1", Trace.NONE).payload()).as("room for a small one")
                .isEqualTo("1");
        timers().cancel(null, "a", Precondition.NONE, Trace.NONE);
        assertThat(timers().add(null, "c", 5, 0, payload, Trace.NONE).payload()).isEqualTo(payload);
    }

    // ---- revisions: one timer of an id, never the next one ----

    @Test
    void aRevision_namesOneTimerOfItsId_neverTheNextTimerOfTheId() {
        Timer cancelled = timers().add(null, "A", 5, 0, null, Trace.NONE);
        timers().cancel(null, "A", Precondition.NONE, Trace.NONE);
        Timer again = timers().add(null, "A", 5, 0, null, Trace.NONE);
        Timer fired = timers().add(null, "F", 1, 0, null, Trace.NONE);
        timers().advance(null, 1L, null, 10, Trace.NONE);
        timers().add(null, "F", 5, 0, null, Trace.NONE);

        assertThat(again.revision()).isNotEqualTo(cancelled.revision());
        String namesNot = "timer A is at revision " + again.sequence() + "-1, which the precondition does not name";
        assertRefused(() -> timers().edit(null, "A", 1L, null, Precondition.ifMatch(cancelled.revision()),
                Trace.NONE), ErrorCode.PRECONDITION_FAILED, namesNot);
        assertRefused(() -> timers().cancel(null, "A", Precondition.ifMatch(cancelled.revision()), Trace.NONE),
                ErrorCode.PRECONDITION_FAILED, namesNot);
        assertThat(timers().get(null, "A")).isEqualTo(again);
        assertThat(catchRefusal(() -> timers().cancel(null, "F", Precondition.ifMatch(fired.revision()),
                Trace.NONE))).isEqualTo(ErrorCode.PRECONDITION_FAILED);

        Timer beforeReset = timers().get(null, "A");
        timers().reset();
        timers().add(null, "A", 1, 0, null, Trace.NONE);
        assertThat(catchRefusal(() -> timers().cancel(null, "A", Precondition.ifMatch(beforeReset.revision()),
                Trace.NONE))).as("sequences keep counting over a reset").isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThat(timers().status(null).size()).isEqualTo(1);
    }

    @Test
    void aPrecondition_acceptsAnyOfTheRevisionsItNames_andOnAMissingTimerTheTimerIsNotFound() {
        Timer added = timers().add(null, "A", 5, 0, null, Trace.NONE);
        Revision stale = new Revision(added.sequence() + 1_000, 1);
        assertThat(timers().peek(null)).as("every read of the timer names one revision").isEqualTo(added);

        Timer edited = timers().edit(null, "A", 7L, null, java.util.Set.of(stale, added.revision())::contains,
                Trace.NONE);
        assertThat(edited.version()).isEqualTo(2);
        assertThat(timers().edit(null, "A", 8L, null, ANY_REVISION, Trace.NONE).version()).isEqualTo(3);

        for (Precondition precondition : List.of(ANY_REVISION, NO_REVISION, Precondition.ifMatch(stale))) {
            assertRefused(() -> timers().edit(null, "nope", 1L, null, precondition, Trace.NONE),
                    ErrorCode.TIMER_NOT_FOUND, "no pending timer has id nope");
            assertRefused(() -> timers().cancel(null, "nope", precondition, Trace.NONE), ErrorCode.TIMER_NOT_FOUND,
                    "no pending timer has id nope");
        }
        assertThat(timers().cancel(null, "A", ANY_REVISION, Trace.NONE).version()).isEqualTo(3);
    }

    private static ErrorCode catchRefusal(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        ProblemException refused = org.assertj.core.api.Assertions.catchThrowableOfType(ProblemException.class,
                call);
        return refused == null ? null : refused.code();
    }

    // ---- absolute times (Due.at) ----

    @Test
    void add_atAClockTime_isDueThen_atOrBeforeNowIsDueNow_andMoreThanTheLongestDelayAheadIsRefused() {
        timers().advance(null, 50L, null, 10, Trace.NONE);

        Timer later = timers().add(null, "later", Due.at(70), -1, null, Trace.NONE);
        assertThat(later.fireTime()).isEqualTo(70);
        assertThat(later.createdAt()).isEqualTo(50);
        assertThat(later.priority()).isEqualTo(-1);
        for (long at : new long[] {10, -1, Long.MIN_VALUE, 50}) {
            assertThat(timers().add(null, "at" + (at == Long.MIN_VALUE ? "min" : at), Due.at(at), 0, null,
                    Trace.NONE).fireTime()).as("at %d", at).isEqualTo(50);
        }
        assertThat(timers().add(null, "last", Due.at(50 + Limits.MAX_DELAY), 0, null, Trace.NONE).fireTime())
                .isEqualTo(50 + Limits.MAX_DELAY);
        assertRefused(() -> timers().add(null, "over", Due.at(51 + Limits.MAX_DELAY), 0, null, Trace.NONE),
                ErrorCode.INVALID_DELAY, "at (" + (51 + Limits.MAX_DELAY) + ") is more than " + Limits.MAX_DELAY
                        + " ms after now (50)");

        assertThat(timers().advance(null, 0L, null, 10, Trace.NONE).fired()).extracting(Timer::id)
                .containsExactly("at10", "at-1", "atmin", "at50");
        assertThat(timers().advance(null, 20L, null, 10, Trace.NONE).fired()).extracting(Timer::id)
                .containsExactly("later");
    }

    @Test
    void edit_toAClockTime_keepsTheSequence_countsAVersion_andBeforeNowIsNow() {
        Timer added = timers().add(null, "A", 5, 0, null, Trace.NONE);
        timers().advance(null, 2L, null, 10, Trace.NONE);

        Timer edited = timers().edit(null, "A", Due.at(40), null, Precondition.NONE, Trace.NONE);
        assertThat(edited.fireTime()).isEqualTo(40);
        assertThat(edited.sequence()).isEqualTo(added.sequence());
        assertThat(edited.version()).isEqualTo(2);
        Timer early = timers().edit(null, "A", Due.at(0), 3, Precondition.NONE, Trace.NONE);
        assertThat(early.fireTime()).isEqualTo(2);
        assertThat(early.priority()).isEqualTo(3);
        assertThat(early.version()).isEqualTo(3);
    }

    @Test
    void clockTimes_areReadOnTheClockNamed_virtualOrSystem_andInABatch() {
        clocks().create("c", 1_000, ClockSettings.VIRTUAL);
        assertThat(timers().add("c", "A", Due.at(1_500), 0, null, Trace.NONE).fireTime()).isEqualTo(1_500);
        assertThat(timers().edit("c", "A", Due.at(10), null, Precondition.NONE, Trace.NONE).fireTime())
                .isEqualTo(1_000);
        assertRefused(() -> timers().get(null, "A"), ErrorCode.TIMER_NOT_FOUND, "no pending timer has id A");

        clocks().create("wall", 0, ClockSettings.SYSTEM);
        long y2099 = java.time.Instant.parse("2099-01-01T00:00:00Z").toEpochMilli();
        assertThat(timers().add("wall", "y2099", Due.at(y2099), 0, null, Trace.NONE).fireTime()).isEqualTo(y2099);
        Timer past = timers().add("wall", "past", Due.at(-1), 0, null, Trace.NONE);
        assertThat(past.fireTime()).as("a time before the wall clock's now is due now").isEqualTo(past.createdAt());

        timers().add(null, "A", 5, 0, null, Trace.NONE);
        timers().advance(null, 1L, null, 10, Trace.NONE);
        assertThat(timers().batch(null, List.of(new BatchOp.Add("B", Due.at(30), 0, null),
                new BatchOp.Edit("A", Due.at(0), null, Precondition.NONE), new BatchOp.Add("C", Due.at(9), 0, null))))
                .extracting(Timer::id, Timer::fireTime).containsExactly(org.assertj.core.groups.Tuple.tuple("B", 30L),
                        org.assertj.core.groups.Tuple.tuple("A", 1L), org.assertj.core.groups.Tuple.tuple("C", 9L));
    }

    // ---- the random walk against the memory store as reference ----

    private static final int MODEL_CAPACITY = 12;
    private static final long MODEL_CAPACITY_BYTES = 120;

    /**
     * Seeded random adds and edits (due after a delay or at a time), gets, conditional edits and cancels, bounded
     * advances, previews and batches, from tiny ranges of ids, times and priorities so that they collide and tie
     * constantly, on a small capacity that refuses often: the store answers as a memory store does, step by step
     * (the same timers in the same order, sequences by order only since PostgreSQL also spends them on refused
     * adds; or the same refusal, code, text and batch index). Replay a failure with the seed in its name.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void randomOperations_answerAsTheMemoryStoreDoes(long seed) {
        Stores.Limits limits = Stores.Limits.ROOMY.withCapacity(MODEL_CAPACITY, MODEL_CAPACITY_BYTES);
        reopen(limits);
        try (Stores reference = MemoryContractStores.open(limits)) {
            TimerStore memory = reference.timers();
            TimerStore store = timers();
            reference.clocks().create("model", 1_000, ClockSettings.VIRTUAL);
            clocks().create("model", 1_000, ClockSettings.VIRTUAL);
            String clock = "model";
            Random random = new Random(seed);
            for (int step = 0; step < 400; step++) {
                String id = "t" + random.nextInt(16);
                String what = "seed " + seed + " step " + step;
                long now = memory.status(clock).now();
                switch (random.nextInt(9)) {
                    case 0, 1 -> {
                        Due due = due(random, now);
                        int priority = random.nextInt(3) - 1;
                        String payload = payload(random);
                        same(what + " add " + id + " " + due,
                                () -> List.of(memory.add(clock, id, due, priority, payload, Trace.NONE)),
                                () -> List.of(store.add(clock, id, due, priority, payload, Trace.NONE)));
                    }
                    case 2 -> same(what + " get " + id, () -> List.of(memory.get(clock, id)),
                            () -> List.of(store.get(clock, id)));
                    case 3 -> {
                        int choice = random.nextInt(3);
                        same(what + " cancel " + id,
                                () -> List.of(memory.cancel(clock, id, precondition(choice,
                                        () -> memory.get(clock, id)), Trace.NONE)),
                                () -> List.of(store.cancel(clock, id, precondition(choice,
                                        () -> store.get(clock, id)), Trace.NONE)));
                    }
                    case 4 -> {
                        Due due = random.nextInt(4) == 0 ? null : due(random, now);
                        Integer priority = random.nextBoolean() ? null : random.nextInt(3) - 1;
                        int choice = random.nextInt(3);
                        same(what + " edit " + id + " " + due,
                                () -> List.of(memory.edit(clock, id, due, priority,
                                        precondition(choice, () -> memory.get(clock, id)), Trace.NONE)),
                                () -> List.of(store.edit(clock, id, due, priority,
                                        precondition(choice, () -> store.get(clock, id)), Trace.NONE)));
                    }
                    case 5 -> {
                        boolean byGiven = random.nextBoolean();
                        long amount = random.nextInt(8) - (random.nextInt(10) == 0 ? 3 : 0);
                        Long by = byGiven ? amount : null;
                        Long to = byGiven ? null : now + amount;
                        int limit = random.nextInt(5) == 0 ? Integer.MAX_VALUE : random.nextInt(4);
                        same(what + " advance by " + by + " to " + to + " limit " + limit,
                                () -> advanced(memory.advance(clock, by, to, limit, Trace.NONE)),
                                () -> advanced(store.advance(clock, by, to, limit, Trace.NONE)));
                        assertThat(store.status(clock).now()).as(what).isEqualTo(memory.status(clock).now());
                    }
                    case 6 -> {
                        long dueBy = now + random.nextInt(10);
                        int limit = random.nextInt(5);
                        same(what + " dueBy " + dueBy + " limit " + limit,
                                () -> listed(memory.dueBy(clock, dueBy, limit)),
                                () -> listed(store.dueBy(clock, dueBy, limit)));
                    }
                    default -> {
                        List<BatchOp> memoryOps = new ArrayList<>();
                        List<BatchOp> storeOps = new ArrayList<>();
                        int size = random.nextInt(5);
                        for (int i = 0; i < size; i++) {
                            String opId = "t" + random.nextInt(16);
                            int kind = random.nextInt(3);
                            Due due = due(random, now);
                            int priority = random.nextInt(3) - 1;
                            String payload = payload(random);
                            int choice = random.nextInt(2); // none or the current revision (decided before the batch)
                            memoryOps.add(op(kind, opId, due, priority, payload,
                                    precondition(choice, () -> memory.get(clock, opId))));
                            storeOps.add(op(kind, opId, due, priority, payload,
                                    precondition(choice, () -> store.get(clock, opId))));
                        }
                        same(what + " batch " + memoryOps, () -> memory.batch(clock, memoryOps),
                                () -> store.batch(clock, storeOps));
                    }
                }
            }
            same("seed " + seed + " at the end", () -> listed(memory.firstN(clock, 100)),
                    () -> listed(store.firstN(clock, 100)));
        }
    }

    /** A delay (two in three), else an absolute time: before now, at it, after it, or too far after it. */
    private static Due due(Random random, long now) {
        if (random.nextInt(3) > 0) {
            return Due.after(switch (random.nextInt(12)) {
                case 0 -> -1;
                case 1 -> Limits.MAX_DELAY + 1;
                default -> random.nextInt(10);
            });
        }
        return Due.at(switch (random.nextInt(12)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> now + Limits.MAX_DELAY + 1;
            case 2 -> now + Limits.MAX_DELAY;
            default -> now - 4 + random.nextInt(14);
        });
    }

    private static String payload(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "{\"n\":" + random.nextInt(1000) + "}";
            case 2 -> "\"" + "p".repeat(random.nextInt(40)) + "\"";
            default -> "[]";
        };
    }

    private static BatchOp op(int kind, String id, Due due, int priority, String payload, Precondition precondition) {
        return switch (kind) {
            case 0 -> new BatchOp.Add(id, due, priority, payload);
            case 1 -> new BatchOp.Edit(id, due, priority, precondition);
            default -> new BatchOp.Cancel(id, precondition);
        };
    }

    /** 0: unconditional; 1: the store's current revision (or none if absent); 2: a stale revision. */
    private static Precondition precondition(int choice, Supplier<Timer> current) {
        if (choice == 0) {
            return Precondition.NONE;
        }
        Revision revision;
        try {
            revision = current.get().revision();
        } catch (ProblemException absent) {
            return Precondition.NONE;
        }
        return Precondition.ifMatch(choice == 1 ? revision
                : new Revision(revision.sequence(), revision.version() + 1));
    }

    private static List<Timer> advanced(AdvanceResult result) {
        List<Timer> timers = new ArrayList<>(result.fired());
        timers.add(new Timer("now=" + result.now() + " complete=" + result.complete(), 0, 0, 0, 1, 0, null));
        return timers;
    }

    private static List<Timer> listed(QueueListing listing) {
        List<Timer> timers = new ArrayList<>(listing.timers());
        timers.add(new Timer("now=" + listing.now() + " size=" + listing.size(), 0, 0, 0, 1, 0, null));
        return timers;
    }

    /** Both answer the same timers (sequences by order), or both refuse alike. */
    private static void same(String what, Supplier<List<Timer>> memory, Supplier<List<Timer>> store) {
        Object expected = outcome(memory);
        assertThat(outcome(store)).as(what).isEqualTo(expected);
    }

    private static Object outcome(Supplier<List<Timer>> call) {
        try {
            List<Timer> timers = call.get();
            List<String> shown = new ArrayList<>();
            for (Timer t : timers) {
                int sequenceRank = 0; // the order of sequences within the answer, not their values
                for (Timer other : timers) {
                    if (other.sequence() < t.sequence()) {
                        sequenceRank++;
                    }
                }
                shown.add(t.id() + " fire=" + t.fireTime() + " prio=" + t.priority() + " v=" + t.version()
                        + " created=" + t.createdAt() + " payload=" + t.payload() + " seqRank=" + sequenceRank);
            }
            return shown;
        } catch (ProblemException refused) {
            // the revision a precondition names holds a sequence, compared by order only as the answers' are
            return refused.code() + " at " + refused.opIndex() + ": "
                    + refused.getMessage().replaceAll("revision \\d+-", "revision ?-");
        }
    }
}
