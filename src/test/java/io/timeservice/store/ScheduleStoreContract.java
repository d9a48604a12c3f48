package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.MemoryContractStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract of {@link ScheduleStore}, run against every store on the default (virtual) clock: put and replace,
 * the occurrences and their firing, pause, resume, trigger, delete, next, the limit of occurrences, If-Match, the
 * schedule and capacity limits, the timer API's refusal to change an occurrence; each refusal with its code and its
 * text. The last case runs seeded random operations against a memory store as the reference.
 */
public abstract class ScheduleStoreContract extends StoreContract {

    private static ScheduleSpec every(long millis) {
        return spec(millis, null, null, null, false);
    }

    private static ScheduleSpec spec(long every, Long start, Long end, Long limit, boolean paused) {
        return new ScheduleSpec(null, every, null, start, end, limit, 0, "{\"s\":1}", ScheduleSpec.CatchUp.ALL,
                paused);
    }

    private List<String> pending() {
        return timers().firstN(null, 100).timers().stream().map(Timer::id).toList();
    }

    private List<String> advance(long by) {
        return timers().advance(null, by, null, Integer.MAX_VALUE, Trace.NONE).fired().stream().map(Timer::id)
                .toList();
    }

    @Test
    void put_createsTheScheduleWithItsFirstOccurrencePending() {
        timers().advance(null, 500L, null, 1, Trace.NONE);

        Schedule.Put put = schedules().put(null, "s", every(1_000), null);

        assertThat(put.created()).isTrue();
        Schedule s = put.schedule();
        assertThat(s.next()).isEqualTo(1_500);
        assertThat(s.version()).isEqualTo(1);
        assertThat(s.state()).isEqualTo(Schedule.State.ACTIVE);
        assertThat(schedules().get(null, "s")).isEqualTo(s);
        Timer occurrence = timers().get(null, "s:1500");
        assertThat(occurrence.fireTime()).isEqualTo(1_500);
        assertThat(occurrence.schedule()).isEqualTo("s");
        assertThat(occurrence.payload()).isEqualTo("{\"s\":1}");
        assertThat(schedules().put(null, "t", spec(1_000, 10_000L, null, null, false), null).schedule().next())
                .isEqualTo(10_000);
        assertThat(schedules().list(null)).extracting(Schedule::id).containsExactly("s", "t");
    }

    @Test
    void theCreatingRequestsTraceContext_goesWithEveryOccurrence_itsDelivery_aCopyAndASnapshot() {
        String context = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01;congo=t61rcWkgMzE";
        clocks().create("q", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                io.timeservice.model.RetryPolicy.DEFAULT));
        schedules().put("q", "s", every(1_000).withTraceContext(context), null);
        assertThat(schedules().get("q", "s").spec().traceContext()).isEqualTo(context);
        assertThat(timers().get("q", "s:1000").traceContext()).isEqualTo(context);

        assertThat(timers().advance("q", 2_000L, null, Integer.MAX_VALUE, Trace.NONE).fired())
                .extracting(Timer::traceContext).containsExactly(context, context);
        assertThat(timers().get("q", "s:3000").traceContext()).as("the successor").isEqualTo(context);
        clocks().copy("copy", "q");
        clocks().load("loaded", clocks().snapshot("q"));
        for (String clock : List.of("q", "copy", "loaded")) {
            assertThat(timers().get(clock, "s:3000").traceContext()).as(clock).isEqualTo(context);
            assertThat(schedules().get(clock, "s").spec().traceContext()).as(clock).isEqualTo(context);
        }
        assertThat(deliveries().claim("q", 10, 1_000, 0)).extracting(io.timeservice.model.Delivery::traceContext)
                .containsExactly(context, context);
        schedules().put("q", "s", every(1_000), 1L);
        assertThat(timers().get("q", "s:3000").traceContext()).as("a replace without a context").isNull();
    }

    @Test
    void firing_anOccurrence_addsTheNext_inOneStep() {
        schedules().put(null, "s", every(1_000), null);

        assertThat(advance(2_500)).containsExactly("s:1000", "s:2000");

        Schedule s = schedules().get(null, "s");
        assertThat(s.fired()).isEqualTo(2);
        assertThat(s.next()).isEqualTo(3_000);
        assertThat(pending()).containsExactly("s:3000");
    }

    @Test
    void replace_keepsTheCounts_andNeverFiresAFiredOccurrenceAgain() {
        schedules().put(null, "s", every(1_000), null);
        advance(1_000);

        ScheduleSpec prioritized = new ScheduleSpec(null, 1_000L, null, 0L, null, null, 3, "{\"s\":1}",
                ScheduleSpec.CatchUp.ALL, false);
        Schedule.Put replaced = schedules().put(null, "s", prioritized, 1L);

        assertThat(replaced.created()).isFalse();
        assertThat(replaced.schedule().version()).isEqualTo(2);
        assertThat(replaced.schedule().fired()).isEqualTo(1);
        assertThat(replaced.schedule().next()).isEqualTo(2_000);
        assertThat(replaced.schedule().spec().priority()).isEqualTo(3);
        assertThat(pending()).containsExactly("s:2000");
        assertThat(timers().get(null, "s:2000").priority()).isEqualTo(3);
        assertRefused(() -> schedules().put(null, "s", every(2_000), 1L), ErrorCode.PRECONDITION_FAILED,
                "schedule s is at version 2, which the precondition does not name");
        assertRefused(() -> schedules().put(null, "new", every(2_000), 1L), ErrorCode.PRECONDITION_FAILED,
                "If-Match names version 1 of schedule new, which does not exist");
        assertRefused(() -> schedules().get(null, "new"), ErrorCode.SCHEDULE_NOT_FOUND,
                "no schedule new on this clock");
    }

    @Test
    void put_isRefused_forABadIdOrSpec_atTheScheduleLimit_andWithoutRoomForItsOccurrence() {
        reopen(Stores.Limits.ROOMY.withCapacity(3, 10_000).withSchedules(2, 10));
        schedules().put(null, "a", every(1_000), null);
        timers().add(null, "u", 5, 0, null, Trace.NONE);

        assertRefused(() -> schedules().put(null, "a b", every(1_000), null), ErrorCode.INVALID_ID,
                "id may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertRefused(() -> schedules().put(null, "b", every(999), null), ErrorCode.INVALID_SCHEDULE,
                "every must be " + Limits.MIN_EVERY_MILLIS + " to " + Limits.MAX_DELAY + " ms: 999");
        timers().add(null, "t", 5, 0, null, Trace.NONE);
        assertRefused(() -> schedules().put(null, "b", every(1_000), null), ErrorCode.CAPACITY_EXCEEDED,
                "the queue holds its capacity of 3 pending timers");
        timers().cancel(null, "t", Precondition.NONE, Trace.NONE);
        schedules().put(null, "b", every(1_000), null);
        assertRefused(() -> schedules().put(null, "c", every(1_000), null), ErrorCode.SCHEDULE_LIMIT,
                "the service holds its limit of 2 schedules (timeservice.schedules.max); delete one first");
        assertThat(schedules().list(null)).extracting(Schedule::id).containsExactly("a", "b");
    }

    /**
     * An occurrence whose id a client's timer (added before the schedule existed) has is refused with one text on
     * create, replace and trigger: once three texts ("..., the occurrence this schedule needs" and no suffix on
     * PostgreSQL).
     */
    @Test
    void anOccurrenceWhoseIdAClientTimerHas_isRefusedWithOneText_onCreateReplaceAndTrigger() {
        timers().add(null, "r:1000", 5_000, 0, null, Trace.NONE);
        timers().add(null, "s:0", 5_000, 0, null, Trace.NONE);
        timers().add(null, "s:3000", 5_000, 0, null, Trace.NONE);

        assertRefused(() -> schedules().put(null, "r", every(1_000), null), ErrorCode.DUPLICATE_ID,
                "a pending timer already has id r:1000, the schedule's occurrence");
        schedules().put(null, "s", every(1_000), null);
        assertRefused(() -> schedules().put(null, "s", spec(1_000, 3_000L, null, null, false), null),
                ErrorCode.DUPLICATE_ID, "a pending timer already has id s:3000, the schedule's occurrence");
        assertRefused(() -> schedules().trigger(null, "s"), ErrorCode.DUPLICATE_ID,
                "a pending timer already has id s:0, the schedule's occurrence");
        assertThat(schedules().list(null)).extracting(Schedule::id).containsExactly("s");
        assertThat(schedules().get(null, "s").version()).isEqualTo(1);
        assertThat(pending()).containsExactly("s:1000", "r:1000", "s:0", "s:3000");
    }

    /** An occurrence beyond the payload bytes reads as a timer's ("this schedule's occurrence needs" on PostgreSQL). */
    @Test
    void anOccurrenceBeyondThePayloadBytes_isRefusedAsATimerIs() {
        reopen(Stores.Limits.ROOMY.withCapacity(10, 12));

        assertRefused(() -> schedules().put(null, "s", every(1_000), null), ErrorCode.CAPACITY_EXCEEDED,
                "the pending timers hold 0 of the queue's 12 payload bytes (capacity-bytes: id and payload"
                        + " characters); this timer needs 13");
        assertThat(schedules().list(null)).isEmpty();
    }

    @Test
    void pause_skipsWhatComesDue_andResume_continuesAfterNow() {
        schedules().put(null, "s", every(1_000), null);

        Schedule paused = schedules().pause(null, "s", 1L);
        assertThat(paused.state()).isEqualTo(Schedule.State.PAUSED);
        assertThat(paused.version()).isEqualTo(2);
        assertThat(schedules().pause(null, "s", null).version()).as("pausing again changes nothing").isEqualTo(2);
        assertThat(pending()).containsExactly("s:1000");

        assertThat(advance(2_500)).isEmpty();
        Schedule skipping = schedules().get(null, "s");
        assertThat(skipping.skipped()).isEqualTo(2);
        assertThat(skipping.fired()).isZero();

        Schedule resumed = schedules().resume(null, "s", null);
        assertThat(resumed.state()).isEqualTo(Schedule.State.ACTIVE);
        assertThat(resumed.next()).isEqualTo(3_000);
        assertThat(resumed.version()).isEqualTo(3);
        assertThat(schedules().resume(null, "s", null).version()).isEqualTo(3);
        assertThat(advance(500)).containsExactly("s:3000");
        assertRefused(() -> schedules().pause(null, "s", 1L), ErrorCode.PRECONDITION_FAILED,
                "schedule s is at version 3, which the precondition does not name");
        assertRefused(() -> schedules().resume(null, "x", null), ErrorCode.SCHEDULE_NOT_FOUND,
                "no schedule x on this clock");
    }

    @Test
    void trigger_addsAnOccurrenceAtNow_countedButNotAgainstTheLimit() {
        schedules().put(null, "s", spec(1_000, null, null, 2L, false), null);
        timers().advance(null, 300L, null, 1, Trace.NONE);

        Timer extra = schedules().trigger(null, "s");

        assertThat(extra.id()).isEqualTo("s:300");
        assertThat(extra.fireTime()).isEqualTo(300);
        assertThat(schedules().trigger(null, "s")).as("the occurrence at now is pending already").isEqualTo(extra);
        assertThat(pending()).containsExactly("s:300", "s:1000");
        assertThat(advance(0)).containsExactly("s:300");
        assertThat(advance(5_000)).containsExactly("s:1000", "s:2000");
        Schedule done = schedules().get(null, "s");
        assertThat(done.fired()).isEqualTo(3);
        assertThat(done.triggered()).isEqualTo(1);
        assertThat(done.state()).isEqualTo(Schedule.State.DONE);
        assertThat(done.next()).isNull();
        assertRefused(() -> schedules().trigger(null, "x"), ErrorCode.SCHEDULE_NOT_FOUND,
                "no schedule x on this clock");
    }

    @Test
    void next_listsTheComingOccurrences_endAndLimitApplied() {
        schedules().put(null, "s", spec(1_000, null, null, 3L, false), null);
        schedules().put(null, "e", spec(1_000, 2_000L, 4_000L, null, false), null);

        assertThat(schedules().next(null, "s", 10)).containsExactly(1_000L, 2_000L, 3_000L);
        assertThat(schedules().next(null, "s", 2)).containsExactly(1_000L, 2_000L);
        assertThat(schedules().next(null, "e", 10)).containsExactly(2_000L, 3_000L, 4_000L);
        advance(10_000);
        assertThat(schedules().next(null, "s", 10)).isEmpty();
        assertRefused(() -> schedules().next(null, "s", 0), ErrorCode.INVALID_LIMIT,
                "count must be 1 to " + Limits.MAX_NEXT_COUNT + ": 0");
        assertRefused(() -> schedules().next(null, "s", Limits.MAX_NEXT_COUNT + 1), ErrorCode.INVALID_LIMIT,
                "count must be 1 to " + Limits.MAX_NEXT_COUNT + ": " + (Limits.MAX_NEXT_COUNT + 1));
        assertThat(schedules().get(null, "s").state()).isEqualTo(Schedule.State.DONE);
        assertRefused(() -> schedules().next(null, "x", 1), ErrorCode.SCHEDULE_NOT_FOUND,
                "no schedule x on this clock");
    }

    @Test
    void delete_removesTheScheduleAndItsPendingOccurrence_butATriggeredOneStays() {
        schedules().put(null, "s", every(1_000), null);
        timers().advance(null, 10L, null, 1, Trace.NONE);
        schedules().trigger(null, "s");

        assertRefused(() -> schedules().delete(null, "s", 9L), ErrorCode.PRECONDITION_FAILED,
                "schedule s is at version 1, which the precondition does not name");
        Schedule deleted = schedules().delete(null, "s", 1L);

        assertThat(deleted.id()).isEqualTo("s");
        assertThat(deleted.triggered()).as("counted when it fires").isZero();
        assertThat(pending()).containsExactly("s:10");
        assertRefused(() -> schedules().get(null, "s"), ErrorCode.SCHEDULE_NOT_FOUND, "no schedule s on this clock");
        assertRefused(() -> schedules().delete(null, "s", null), ErrorCode.SCHEDULE_NOT_FOUND,
                "no schedule s on this clock");
    }

    @Test
    void theTimerApi_readsOccurrences_butRefusesToChangeThem() {
        schedules().put(null, "s", every(1_000), null);

        assertThat(timers().get(null, "s:1000").schedule()).isEqualTo("s");
        assertRefused(() -> timers().cancel(null, "s:1000", Precondition.NONE, Trace.NONE), ErrorCode.SCHEDULE_OWNED,
                "timer s:1000 is an occurrence of schedule s; change the schedule instead");
        assertRefused(() -> timers().edit(null, "s:1000", 5L, null, Precondition.NONE, Trace.NONE),
                ErrorCode.SCHEDULE_OWNED, "timer s:1000 is an occurrence of schedule s; change the schedule instead");
        ProblemException inBatch = assertRefused(() -> timers().batch(null, List.of(
                        new io.timeservice.model.BatchOp.Cancel("s:1000", Precondition.NONE))),
                ErrorCode.SCHEDULE_OWNED,
                "operation 0: timer s:1000 is an occurrence of schedule s; change the schedule instead");
        assertThat(inBatch.opIndex()).isZero();
        assertRefused(() -> timers().add(null, "s:1000", 1, 0, null, Trace.NONE), ErrorCode.SCHEDULE_OWNED,
                "timer id s:1000 has the form of schedule s's occurrences (s:<time>), which are the schedule's while"
                        + " it exists; choose another id");
        schedules().delete(null, "s", null);
        assertRefused(() -> timers().get(null, "s:1000"), ErrorCode.TIMER_NOT_FOUND, "no pending timer has id s:1000");
        assertRefused(() -> schedules().get("nowhere", "s"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named nowhere");
    }

    private static final long BERLIN_START = at("2027-03-27T22:00:00Z");

    private static long at(String instant) {
        return java.time.Instant.parse(instant).toEpochMilli();
    }

    private static ScheduleSpec cron(String expression, String payload) {
        return new ScheduleSpec(expression, null, "Europe/Berlin", null, null, null, 0, payload,
                ScheduleSpec.CatchUp.ALL, false);
    }

    @Test
    void aCronSchedule_acrossSpringForward_firesEachOccurrenceOnce_atTheMovedTimes() {
        clocks().create("berlin", BERLIN_START, ClockSettings.VIRTUAL);
        Schedule half = schedules().put("berlin", "half", cron("*/30 * * * *", "{\"job\":\"half\"}"), null)
                .schedule();
        assertThat(half.next()).isEqualTo(at("2027-03-27T22:30:00Z"));
        assertThat(schedules().put("berlin", "nightly", cron("30 2 * * *", null), null).schedule().next())
                .isEqualTo(at("2027-03-28T01:30:00Z"));

        List<Timer> fired = timers().advance("berlin", null, at("2027-03-28T02:00:00Z"), Integer.MAX_VALUE,
                Trace.NONE).fired();

        // half-hourly: 23:30 and 00:00 ... 03:00 local; 02:00 and 02:30 are moved onto 03:00 and 03:30 and fire once
        assertThat(fired).extracting(Timer::id).containsExactly(
                "half:" + at("2027-03-27T22:30:00Z"), "half:" + at("2027-03-27T23:00:00Z"),
                "half:" + at("2027-03-27T23:30:00Z"), "half:" + at("2027-03-28T00:00:00Z"),
                "half:" + at("2027-03-28T00:30:00Z"), "half:" + at("2027-03-28T01:00:00Z"),
                "nightly:" + at("2027-03-28T01:30:00Z"), "half:" + at("2027-03-28T01:30:00Z"),
                "half:" + at("2027-03-28T02:00:00Z"));
        assertThat(fired.get(0).schedule()).isEqualTo("half");
        assertThat(fired.get(0).payload()).isEqualTo("{\"job\":\"half\"}");
        assertThat(fired.get(0).fireTime()).isEqualTo(at("2027-03-27T22:30:00Z"));
        Schedule after = schedules().get("berlin", "half");
        assertThat(after.fired()).isEqualTo(8);
        assertThat(after.next()).isEqualTo(at("2027-03-28T02:30:00Z"));
        assertThat(timers().get("berlin", "half:" + at("2027-03-28T02:30:00Z")).schedule()).isEqualTo("half");
    }

    @Test
    void aCopyOfTheClock_holdsItsSchedulesWithTheirCountsAndPendingOccurrence_andTheyRunApart() {
        clocks().create("berlin", BERLIN_START, ClockSettings.VIRTUAL);
        schedules().put("berlin", "tick", every(60_000), null);
        timers().advance("berlin", 60_000L, null, Integer.MAX_VALUE, Trace.NONE);

        clocks().copy("variant", "berlin");

        Schedule copied = schedules().get("variant", "tick");
        assertThat(copied.fired()).isEqualTo(1);
        assertThat(copied.next()).isEqualTo(BERLIN_START + 120_000);
        assertThat(timers().get("variant", "tick:" + (BERLIN_START + 120_000)).schedule()).isEqualTo("tick");
        schedules().pause("berlin", "tick", null);
        assertThat(timers().advance("variant", 60_000L, null, Integer.MAX_VALUE, Trace.NONE).fired())
                .extracting(Timer::id).containsExactly("tick:" + (BERLIN_START + 120_000));
        Schedule ran = schedules().get("variant", "tick");
        assertThat(ran.fired()).isEqualTo(2);
        assertThat(ran.state()).isEqualTo(Schedule.State.ACTIVE);
        assertThat(schedules().get("berlin", "tick").state()).isEqualTo(Schedule.State.PAUSED);
    }

    private static ScheduleSpec spec(String cron, Long every, String zone, Long start, Long end, Long limit) {
        return new ScheduleSpec(cron, every, zone, start, end, limit, 0, null, ScheduleSpec.CatchUp.ALL, false);
    }

    private void badSpec(ScheduleSpec spec, String message) {
        assertRefused(() -> schedules().put(null, "s", spec, null), ErrorCode.INVALID_SCHEDULE, message);
    }

    @Test
    void badSpecs_areInvalidSchedule_withOneText_andChangeNothing() {
        badSpec(spec(null, null, null, null, null, null), "a schedule needs exactly one of cron and every");
        badSpec(spec("* * * * *", 1000L, null, null, null, null), "a schedule needs exactly one of cron and every");
        badSpec(spec(null, 1000L, "UTC", null, null, null),
                "zone applies to cron only; an every schedule counts milliseconds");
        badSpec(spec("* * * *", null, null, null, null, null), "cron has five fields (minute hour day-of-month"
                + " month day-of-week) or six (seconds first), got 4: * * * *");
        badSpec(spec("0 0 30 2 *", null, null, null, null, null), "cron 0 0 30 2 * never fires");
        badSpec(spec("* * * * *", null, "Mars/Olympus", null, null, null),
                "zone Mars/Olympus is not in this service's time-zone data (the JDK's, IANA tzdata "
                        + io.timeservice.model.IanaZones.dataVersion() + "): a misspelling, or a zone newer than that data,"
                        + " which a JDK with newer data (or its TZUpdater) brings");
        badSpec(spec(null, 1000L, null, 5000L, 4000L, null), "end (4000) is before start (5000)");
        badSpec(spec(null, 1000L, null, null, null, 0L), "limit must be at least 1: 0");
        String tooLong = "x".repeat(Limits.MAX_SCHEDULE_ID_LENGTH + 1);
        assertRefused(() -> schedules().put(null, tooLong, every(1_000), null), ErrorCode.INVALID_ID,
                "a schedule id must be 1 to " + Limits.MAX_SCHEDULE_ID_LENGTH
                        + " characters long, got " + (Limits.MAX_SCHEDULE_ID_LENGTH + 1));
        assertThat(schedules().list(null)).isEmpty();
        assertThat(timers().status(null).size()).isZero();
    }

    // ---- the random walk against the memory store as reference ----

    /**
     * Seeded random puts (intervals with and without start, end, limit, priority, payload, catch-up and pause),
     * replaces with and without If-Match, pauses, resumes, triggers, deletes, client timers (some with an
     * occurrence's id) and bounded advances, on a small capacity, schedule limit and catch-up: the store answers as a
     * memory store does, step by step (the same schedules, fired timers in the same order and pending timers, or the
     * same refusal, code and text). Sequences are not compared (the database's sequence has gaps). Interval schedules
     * only: the cron engine is one store-neutral class with its own model test. Replay with the seed in its name.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomScheduleOperations_answerAsTheMemoryStoreDoes(long seed) {
        Stores.Limits limits = Stores.Limits.ROOMY.withCapacity(10, 10_000).withSchedules(4, 3);
        reopen(limits);
        try (Stores reference = MemoryContractStores.open(limits)) {
            String clock = "m";
            reference.clocks().create(clock, 0, ClockSettings.VIRTUAL);
            clocks().create(clock, 0, ClockSettings.VIRTUAL);
            Stores memory = reference;
            Stores store = stores();
            Random random = new Random(seed);
            for (int step = 0; step < 250; step++) {
                String id = "s" + random.nextInt(5);
                String what = "seed " + seed + " step " + step;
                switch (random.nextInt(10)) {
                    case 0, 1 -> {
                        ScheduleSpec spec = randomSpec(random);
                        Long ifMatch = random.nextInt(4) == 0 ? (long) (1 + random.nextInt(3)) : null;
                        same(what + " put " + id + " " + spec + " ifMatch " + ifMatch,
                                () -> put(memory, clock, id, spec, ifMatch),
                                () -> put(store, clock, id, spec, ifMatch));
                    }
                    case 2 -> same(what + " pause " + id,
                            () -> List.of(shown(memory.schedules().pause(clock, id, null))),
                            () -> List.of(shown(store.schedules().pause(clock, id, null))));
                    case 3 -> same(what + " resume " + id,
                            () -> List.of(shown(memory.schedules().resume(clock, id, null))),
                            () -> List.of(shown(store.schedules().resume(clock, id, null))));
                    case 4 -> same(what + " trigger " + id,
                            () -> List.of(shown(memory.schedules().trigger(clock, id))),
                            () -> List.of(shown(store.schedules().trigger(clock, id))));
                    case 5 -> same(what + " delete " + id,
                            () -> List.of(shown(memory.schedules().delete(clock, id, null))),
                            () -> List.of(shown(store.schedules().delete(clock, id, null))));
                    case 6 -> {
                        long delay = random.nextInt(4000);
                        String timerId = random.nextBoolean() ? "t" + random.nextInt(3) : id + ":" + delay;
                        same(what + " add " + timerId + " in " + delay,
                                () -> List.of(shown(memory.timers().add(clock, timerId, delay, 0, null, Trace.NONE))),
                                () -> List.of(shown(store.timers().add(clock, timerId, delay, 0, null, Trace.NONE))));
                    }
                    default -> {
                        long by = random.nextInt(5) == 0 ? 0 : random.nextInt(9000);
                        int limit = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1000;
                        same(what + " advance by " + by + " limit " + limit,
                                () -> advanced(memory.timers().advance(clock, by, null, limit, Trace.NONE)),
                                () -> advanced(store.timers().advance(clock, by, null, limit, Trace.NONE)));
                    }
                }
                same(what + " state", () -> state(memory, clock), () -> state(store, clock));
            }
        }
    }

    private static List<String> put(Stores stores, String clock, String id, ScheduleSpec spec, Long ifMatch) {
        Schedule.Put put = stores.schedules().put(clock, id, spec, ifMatch);
        return List.of("created=" + put.created(), shown(put.schedule()));
    }

    private static ScheduleSpec randomSpec(Random random) {
        long every = 1000L * (1 + random.nextInt(3));
        Long start = random.nextInt(3) == 0 ? (long) random.nextInt(20_000) : null;
        Long end = random.nextInt(4) == 0 ? (long) random.nextInt(40_000) : null;
        if (end != null && start != null && end < start) {
            end = start;
        }
        Long limit = random.nextInt(4) == 0 ? (long) (1 + random.nextInt(5)) : null;
        String payload = random.nextBoolean() ? null : "{\"n\":" + random.nextInt(3) + "}";
        ScheduleSpec.CatchUp catchUp = ScheduleSpec.CatchUp.values()[random.nextInt(3)];
        return new ScheduleSpec(null, every, null, start, end, limit, random.nextInt(3) - 1, payload, catchUp,
                random.nextInt(5) == 0);
    }

    /** Everything a client can read: every schedule as shown, and every pending timer in firing order. */
    private static List<String> state(Stores stores, String clock) {
        List<String> state = new ArrayList<>();
        for (Schedule schedule : stores.schedules().list(clock)) {
            state.add(shown(schedule));
        }
        for (Timer timer : stores.timers().firstN(clock, 100).timers()) {
            state.add(shown(timer));
        }
        try {
            state.add("peek " + shown(stores.timers().peek(clock)));
        } catch (ProblemException empty) {
            state.add("peek " + empty.code());
        }
        return state;
    }

    private static String shown(Schedule schedule) {
        return schedule.id() + " " + schedule.spec() + " next=" + schedule.next() + " fired=" + schedule.fired()
                + " skipped=" + schedule.skipped() + " triggered=" + schedule.triggered() + " state="
                + schedule.state() + " v" + schedule.version();
    }

    private static String shown(Timer timer) {
        return timer.id() + "@" + timer.fireTime() + " p" + timer.priority() + " v" + timer.version() + " c"
                + timer.createdAt() + " " + timer.payload() + " of " + timer.schedule();
    }

    private static List<String> advanced(AdvanceResult result) {
        List<String> shown = new ArrayList<>();
        for (Timer timer : result.fired()) {
            shown.add(shown(timer));
        }
        shown.add("now=" + result.now() + " complete=" + result.complete());
        return shown;
    }

    /** Both answer the same, or both refuse alike. */
    private static void same(String what, Supplier<List<String>> memory, Supplier<List<String>> store) {
        Object expected = outcome(memory);
        assertThat(outcome(store)).as(what).isEqualTo(expected);
    }

    private static Object outcome(Supplier<List<String>> call) {
        try {
            return call.get();
        } catch (ProblemException refused) {
            return "refused " + refused.code() + ": " + refused.getMessage();
        }
    }
}
