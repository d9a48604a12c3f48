package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.timeservice.model.AddOutcome;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.OnConflict;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Reservation;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * The contract of dedupe windows ({@link ClockSettings#dedupeWindowMillis()}), run against every store: a timer's id
 * stays reserved for the clock's window after it fired (on a queueing clock: after its delivery was acknowledged or
 * its dead letter deleted) or was cancelled; an add of it is refused {@code duplicate_id} with the reservation as
 * {@code previous}; the window runs on the clock's own time, so a virtual clock advanced past it frees the id; a
 * release frees it early; a window of 0 reserves nothing; the store's cap refuses adds beyond it.
 */
public abstract class DedupeStoreContract extends StoreContract {

    static final String D = "d";
    static final long WINDOW = 1_000;
    private static final ClockSettings DEDUPED = ClockSettings.VIRTUAL.withDedupeWindow(WINDOW);
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(1, 400, 2.0, 3_000, 0.0)).withDedupeWindow(WINDOW);

    private Timer add(String clock, String id, long delay) {
        return timers().add(clock, id, delay, 0, null, Trace.NONE);
    }

    private List<Timer> advance(String clock, long by) {
        return timers().advance(clock, by, null, Integer.MAX_VALUE, Trace.NONE).fired();
    }

    private static String reserved(String id, long sequence, String state, long time) {
        return "id " + id + " is reserved: its timer (sequence " + sequence + ") was " + state + " at " + time
                + " within the clock's dedupeWindow";
    }

    private ProblemException assertReserved(String clock, String id, long sequence, String state, long time) {
        ProblemException refused = assertRefused(() -> add(clock, id, 5), ErrorCode.DUPLICATE_ID,
                reserved(id, sequence, state, time));
        assertThat(refused.extra()).isEqualTo(Map.of("previous",
                Map.of("state", state, "time", time, "sequence", sequence)));
        return refused;
    }

    @Test
    void theWindow_isASettingOfTheClock_shownAndComparedAsTheOthers_andRefusedOutOfRange() {
        assertThat(clocks().create(D, 0, DEDUPED).clock().settings().dedupeWindowMillis()).isEqualTo(WINDOW);
        assertThat(clocks().get(D).settings()).isEqualTo(DEDUPED);
        assertThat(clocks().create(D, 0, DEDUPED).created()).as("the same PUT again").isFalse();
        assertThat(catchProblem(() -> clocks().create(D, 0, ClockSettings.VIRTUAL)).code())
                .isEqualTo(ErrorCode.CLOCK_CONFLICT);
        assertThat(clocks().get("default").settings().dedupeWindowMillis()).as("the default").isZero();
        assertRefused(() -> ClockSettings.VIRTUAL.withDedupeWindow(Limits.MAX_DEDUPE_WINDOW + 1),
                ErrorCode.INVALID_REQUEST, "dedupeWindow must be 0 to 2592000000 milliseconds (30 days), got "
                        + (Limits.MAX_DEDUPE_WINDOW + 1));
        assertRefused(() -> ClockSettings.VIRTUAL.withDedupeWindow(-1), ErrorCode.INVALID_REQUEST,
                "dedupeWindow must be 0 to 2592000000 milliseconds (30 days), got -1");
    }

    @Test
    void aFiredId_staysReservedForTheWindowFromItsFireTime_andAnAdvancePastItFreesIt() {
        clocks().create(D, 0, DEDUPED);
        Timer first = add(D, "a", 10);
        assertThat(advance(D, 10)).extracting(Timer::id).containsExactly("a");

        assertReserved(D, "a", first.sequence(), "fired", 10);
        advance(D, WINDOW - 1);
        assertReserved(D, "a", first.sequence(), "fired", 10);
        advance(D, 1);

        assertThat(add(D, "a", 5).sequence()).as("the window ended at 10 + %d", WINDOW)
                .isGreaterThan(first.sequence());
        assertThat(timers().status(D).size()).isEqualTo(1);
    }

    @Test
    void aCancelledId_isReservedFromItsCancel_andAReleaseFreesItEarly() {
        clocks().create(D, 100, DEDUPED);
        Timer first = add(D, "a", 50);
        advance(D, 20);
        timers().cancel(D, "a", io.timeservice.model.Precondition.NONE, Trace.NONE);

        assertReserved(D, "a", first.sequence(), "cancelled", 120);
        Reservation released = timers().releaseReservation(D, "a");

        assertThat(released).isEqualTo(new Reservation("a", Reservation.State.CANCELLED, 120, first.sequence()));
        assertRefused(() -> timers().releaseReservation(D, "a"), ErrorCode.RESERVATION_NOT_FOUND,
                "the clock keeps no reservation of id a");
        assertRefused(() -> timers().releaseReservation(D, "never"), ErrorCode.RESERVATION_NOT_FOUND,
                "the clock keeps no reservation of id never");
        assertRefused(() -> timers().releaseReservation("nowhere", "a"), ErrorCode.CLOCK_NOT_FOUND,
                "no clock is named nowhere");
        assertThat(add(D, "a", 5).id()).isEqualTo("a");
    }

    @Test
    void withoutAWindow_anIdLeftTheSet_isFreeAtOnce_asBefore() {
        Timer first = add(null, "a", 1);
        advance(null, 1);
        timers().cancel(null, add(null, "b", 1).id(), io.timeservice.model.Precondition.NONE, Trace.NONE);

        assertThat(add(null, "a", 1).sequence()).isGreaterThan(first.sequence());
        assertThat(add(null, "b", 1).id()).isEqualTo("b");
        assertRefused(() -> timers().releaseReservation(null, "a"), ErrorCode.RESERVATION_NOT_FOUND,
                "the clock keeps no reservation of id a");
    }

    @Test
    void aBatchAdd_ofAReservedId_isRefusedAtItsOperation_andABatchCancelReserves() {
        OneEach made = pendingAndFired("b", "a");
        Timer a = made.fired();
        Timer b = made.pending();

        ProblemException refused = catchProblem(() -> timers().batch(D, List.of(
                new BatchOp.Add("c", Due.after(5), 0, null), new BatchOp.Add("a", Due.after(5), 0, null))));
        assertThat(refused.code()).isEqualTo(ErrorCode.DUPLICATE_ID);
        assertThat(refused.getMessage()).isEqualTo("operation 1: " + reserved("a", a.sequence(), "fired", 1));
        assertThat(refused.opIndex()).isEqualTo(1);
        assertThat(timers().status(D).size()).as("nothing added").isEqualTo(1);

        timers().batch(D, List.of(new BatchOp.Cancel("b", io.timeservice.model.Precondition.NONE)));
        assertReserved(D, "b", b.sequence(), "cancelled", 1);
    }

    @Test
    void onAQueueingClock_aFiredIdIsReservedWhileItsDeliveryIsQueued_thenForTheWindowAfterItsAck() {
        clocks().create(D, 0, QUEUE);
        Timer a = add(D, "a", 10);
        Timer b = add(D, "b", 10);
        advance(D, 10);
        advance(D, 5 * WINDOW);

        assertReserved(D, "a", a.sequence(), "fired", 10);
        List<Delivery> claimed = deliveries().claim(D, 2, 100_000, 0);
        deliveries().ack(D, "a", claimed.get(0).claim());
        long acked = 10 + 5 * WINDOW;
        assertReserved(D, "a", a.sequence(), "acknowledged", acked);

        deliveries().reject(D, "b", claimed.get(1).claim(), "bad");
        assertReserved(D, "b", b.sequence(), "fired", 10);
        advance(D, 10);
        deliveries().deleteDead(D, "b", null);
        assertReserved(D, "b", b.sequence(), "dead", acked + 10);

        advance(D, WINDOW - 10);
        assertThat(add(D, "a", 5).id()).isEqualTo("a");
        assertReserved(D, "b", b.sequence(), "dead", acked + 10);
        advance(D, 10);
        assertThat(add(D, "b", 5).id()).isEqualTo("b");
    }

    @Test
    void aSchedulesFiredOccurrence_isReservedAsAnyTimer_onceTheScheduleNoLongerOwnsItsIds() {
        clocks().create(D, 0, DEDUPED);
        schedules().put(D, "s", new ScheduleSpec(null, 1_000L, null, null, null, null, 0, null,
                ScheduleSpec.CatchUp.ALL, false), null);
        List<Timer> fired = advance(D, 1_000);
        assertThat(fired).extracting(Timer::id).containsExactly("s:1000");
        schedules().delete(D, "s", null);

        assertReserved(D, "s:1000", fired.get(0).sequence(), "fired", 1_000);
    }

    @Test
    void theStoresCap_refusesAddsOnClocksWithAWindow_untilReservationsExpireOrAreReleased() {
        reopen(Stores.Limits.ROOMY.withMaxReservations(2));
        clocks().create(D, 0, DEDUPED);
        add(D, "a", 1);
        add(D, "b", 1);
        advance(D, 1);

        assertRefused(() -> add(D, "c", 1), ErrorCode.RESERVATION_LIMIT, "the service holds its limit of 2"
                + " reserved ids (timeservice.dedupe.max-reservations); an add on a clock with a dedupeWindow waits"
                + " until some expire or are released");
        assertThat(add(null, "c", 1).id()).as("a clock without a window adds as ever").isEqualTo("c");
        timers().releaseReservation(D, "a");
        assertThat(add(D, "c", 1).id()).isEqualTo("c");
        advance(D, WINDOW);
        assertThat(add(D, "d", 1).id()).as("b expired").isEqualTo("d");
    }

    @Test
    void aForkAndASavedClock_keepTheWindowAndTheReservedIds() {
        clocks().create(D, 0, DEDUPED);
        Timer a = add(D, "a", 10);
        advance(D, 10);

        clocks().copy("fork", D);
        assertReserved("fork", "a", a.sequence(), "fired", 10);
        io.timeservice.model.ClockSnapshot saved = clocks().snapshot(D);
        assertThat(saved.settings().dedupeWindowMillis()).isEqualTo(WINDOW);
        assertThat(saved.reservations()).containsExactly(
                new Reservation("a", Reservation.State.FIRED, 10, a.sequence()));
        clocks().load("loaded", saved);
        assertReserved("loaded", "a", a.sequence(), "fired", 10);
        assertThat(clocks().snapshot("loaded").reservations()).isEqualTo(saved.reservations());
        advance("loaded", WINDOW);
        assertThat(add("loaded", "a", 1).id()).isEqualTo("a");
        assertReserved(D, "a", a.sequence(), "fired", 10);
    }

    @Test
    void tenReplaces_fireOnce_atTheLastTime_withTheLastPayload_keepingTheSequence() {
        AddOutcome first = timers().add(null, "debounced", Due.after(100), 0, "{\"n\":0}", OnConflict.REPLACE);
        assertThat(first.result()).isEqualTo(AddOutcome.Result.ADDED);
        AddOutcome last = first;
        for (int i = 1; i < 10; i++) {
            advance(null, 10);
            last = timers().add(null, "debounced", Due.after(100), i, "{\"n\":" + i + "}", OnConflict.REPLACE);
            assertThat(last.result()).isEqualTo(AddOutcome.Result.REPLACED);
        }
        assertThat(last.timer().sequence()).isEqualTo(first.timer().sequence());
        assertThat(last.timer().version()).isEqualTo(10);
        assertThat(timers().get(null, "debounced")).isEqualTo(last.timer());

        List<Timer> fired = advance(null, 1_000);

        assertThat(fired).hasSize(1);
        assertThat(fired.get(0).fireTime()).isEqualTo(190);
        assertThat(fired.get(0).payload()).isEqualTo("{\"n\":9}");
        assertThat(fired.get(0).priority()).isEqualTo(9);
    }

    @Test
    void tenKeeps_fireOnce_atTheFirstTime_andKeepAnswersAReservation() {
        clocks().create(D, 0, DEDUPED);
        AddOutcome first = timers().add(D, "throttled", Due.after(100), 0, "{\"n\":0}", OnConflict.KEEP);
        assertThat(first.result()).isEqualTo(AddOutcome.Result.ADDED);
        for (int i = 1; i < 10; i++) {
            advance(D, 5);
            AddOutcome kept = timers().add(D, "throttled", Due.after(100), i, "{\"n\":" + i + "}", OnConflict.KEEP);
            assertThat(kept.result()).isEqualTo(AddOutcome.Result.KEPT);
            assertThat(kept.timer()).isEqualTo(first.timer());
        }
        List<Timer> fired = advance(D, 1_000);
        assertThat(fired).hasSize(1);
        assertThat(fired.get(0).fireTime()).isEqualTo(100);
        assertThat(fired.get(0).payload()).isEqualTo("{\"n\":0}");

        AddOutcome reserved = timers().add(D, "throttled", Due.after(1), 0, null, OnConflict.KEEP);
        assertThat(reserved.result()).isEqualTo(AddOutcome.Result.KEPT);
        assertThat(reserved.timer()).isNull();
        assertThat(reserved.reservation()).isEqualTo(new Reservation("throttled", Reservation.State.FIRED, 100,
                first.timer().sequence()));
        assertReservedOnReplace("throttled", first.timer().sequence());
        assertThat(timers().status(D).size()).isZero();
    }

    private void assertReservedOnReplace(String id, long sequence) {
        ProblemException refused = assertRefused(() -> timers().add(D, id, Due.after(1), 0, null,
                OnConflict.REPLACE), ErrorCode.DUPLICATE_ID, reserved(id, sequence, "fired", 100));
        assertThat(refused.extra()).containsKey("previous");
    }

    @Test
    void theRetryRace_theFirstAddLandedAndFired_theRetryIsRefused_neverASecondFiring() {
        clocks().create(D, 0, QUEUE);
        Timer first = add(D, "job", 10);
        advance(D, 10);
        List<Delivery> claimed = deliveries().claim(D, 1, 10_000, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("job");
        assertReserved(D, "job", first.sequence(), "fired", 10); // the producer's retry while the worker holds it
        deliveries().ack(D, "job", claimed.get(0).claim());
        assertReserved(D, "job", first.sequence(), "acknowledged", 10); // and after it was acknowledged
        assertThat(timers().add(D, "job", Due.after(5), 0, null, OnConflict.KEEP).result())
                .isEqualTo(AddOutcome.Result.KEPT);

        advance(D, WINDOW - 1);

        assertThat(deliveries().counts(D).total()).as("no second delivery").isZero();
        assertThat(timers().status(D).size()).isZero();
    }

    private static BatchOp.Add add(String id, long delay, int priority, String payload, OnConflict onConflict) {
        return new BatchOp.Add(id, Due.after(delay), priority, payload, null, null, onConflict);
    }

    /** The timers of {@link #pendingAndFired}: one pending, one fired. */
    private record OneEach(Timer pending, Timer fired) {
    }

    /** On a new clock D with a window: {@code pending} due at 100, {@code fired} fired at 1; the time is 1. */
    private OneEach pendingAndFired(String pending, String fired) {
        clocks().create(D, 0, DEDUPED);
        OneEach made = new OneEach(add(D, pending, 100), add(D, fired, 1));
        advance(D, 1);
        return made;
    }

    @Test
    void aBatchsAdds_decideByOnConflict_asTheSingleAdd_inTheBatchsOrder() {
        OneEach made = pendingAndFired("p", "f");
        Timer pending = made.pending();
        Timer fired = made.fired();

        List<AddOutcome> outcomes = timers().batchOutcomes(D, List.of(
                add("p", 50, 3, "{\"n\":1}", OnConflict.REPLACE),
                add("p", 10, 0, null, OnConflict.KEEP),
                add("f", 10, 0, null, OnConflict.KEEP),
                add("n", 20, 0, "{\"n\":2}", OnConflict.REPLACE),
                add("n", 30, 1, "{\"n\":3}", OnConflict.REPLACE),
                add("k", 40, 0, null, OnConflict.KEEP),
                new BatchOp.Edit("p", null, 5, null)));

        Timer replaced = new Timer("p", 51, 3, pending.sequence(), 2, 0, "{\"n\":1}");
        assertThat(outcomes).extracting(AddOutcome::result).containsExactly(AddOutcome.Result.REPLACED,
                AddOutcome.Result.KEPT, AddOutcome.Result.KEPT, AddOutcome.Result.ADDED, AddOutcome.Result.REPLACED,
                AddOutcome.Result.ADDED, null);
        assertThat(outcomes.get(0).timer()).isEqualTo(replaced);
        assertThat(outcomes.get(1).timer()).as("keep sees the replace before it").isEqualTo(replaced);
        assertThat(outcomes.get(2)).isEqualTo(AddOutcome.kept(
                new Reservation("f", Reservation.State.FIRED, 1, fired.sequence())));
        Timer n = outcomes.get(3).timer();
        assertThat(outcomes.get(4).timer()).as("a replace of the add before it").isEqualTo(
                new Timer("n", 31, 1, n.sequence(), 2, 1, "{\"n\":3}"));
        assertThat(outcomes.get(6).timer().version()).isEqualTo(3);
        assertThat(timers().get(D, "p")).isEqualTo(outcomes.get(6).timer());
        assertThat(timers().get(D, "n")).isEqualTo(outcomes.get(4).timer());
        assertThat(timers().status(D).size()).isEqualTo(3);
        assertThat(timers().batch(D, List.of(add("f", 1, 0, null, OnConflict.KEEP))))
                .as("batch's timers: none for a kept reservation").containsExactly((Timer) null);

        assertThat(advance(D, 1_000)).extracting(Timer::id, Timer::fireTime, Timer::payload).containsExactly(
                org.assertj.core.api.Assertions.tuple("n", 31L, "{\"n\":3}"),
                org.assertj.core.api.Assertions.tuple("k", 41L, null),
                org.assertj.core.api.Assertions.tuple("p", 51L, "{\"n\":1}"));
    }

    @Test
    void aBatchsReplaceOfAReservedId_isStillRefused_andLeavesNothingOfTheBatch() {
        OneEach made = pendingAndFired("p", "f");
        ProblemException refused = catchProblem(() -> timers().batch(D, List.of(
                add("x", 5, 0, null, OnConflict.REPLACE),
                add("p", 5, 0, "{\"n\":1}", OnConflict.REPLACE),
                add("f", 5, 0, null, OnConflict.REPLACE))));

        assertThat(refused.code()).isEqualTo(ErrorCode.DUPLICATE_ID);
        assertThat(refused.getMessage())
                .isEqualTo("operation 2: " + reserved("f", made.fired().sequence(), "fired", 1));
        assertThat(refused.extra()).containsKey("previous");
        assertThat(timers().get(D, "p")).as("the replace before it undone").isEqualTo(made.pending());
        assertThat(timers().status(D).size()).as("nor the add").isEqualTo(1);
        assertRefused(() -> timers().batch(D, List.of(add("p", 5, 0, null, OnConflict.KEEP),
                add("p", 5, 0, null, OnConflict.ERROR))), ErrorCode.DUPLICATE_ID,
                "operation 1: a pending timer already has id p");
    }

    @Test
    void aBatchsCancel_reservesTheIdForTheOperationsAfterIt() {
        clocks().create(D, 0, DEDUPED);
        advance(D, 7);
        Timer a = add(D, "a", 100);
        Timer b = add(D, "b", 100);

        assertThat(timers().batchOutcomes(D, List.of(new BatchOp.Cancel("a", null),
                add("a", 5, 0, null, OnConflict.KEEP)))).extracting(AddOutcome::reservation)
                .containsExactly(null, new Reservation("a", Reservation.State.CANCELLED, 7, a.sequence()));
        ProblemException refused = catchProblem(() -> timers().batch(D, List.of(
                new BatchOp.Cancel("b", null), new BatchOp.Add("b", Due.after(5), 0, null))));

        assertThat(refused.getMessage()).isEqualTo("operation 1: " + reserved("b", b.sequence(), "cancelled", 7));
        assertThat(timers().get(D, "b")).isEqualTo(b);
        assertReserved(D, "a", a.sequence(), "cancelled", 7);
    }

    private static ProblemException catchProblem(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        return org.assertj.core.api.Assertions.catchThrowableOfType(ProblemException.class, call);
    }
}
