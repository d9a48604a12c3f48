package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Recurring schedules on the PostgreSQL store, on virtual clocks (one per test): each occurrence a timer
 * {@code <id>:<time>} that an advance fires at its own time, in firing order with the clock's other timers; pause,
 * resume, trigger, replace and delete; the catch-up bound, the schedule limit and the capacity; the timer API's
 * refusal to change an occurrence; and the budget that still matches the rows after all of it.
 */
class PostgresSchedulesTest {

    private static final int CAPACITY = 8;
    private static final int MAX_SCHEDULES = 3;
    private static final int MAX_CATCH_UP = 4;

    private static TestDatabase database;
    private static PostgresStore store;
    private static FreshClocks clocks;
    private String clock;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(PostgresSchedulesTest.class, 4);
        store = PostgresStore.open(database.dataSource(), CAPACITY, 10_000, 1_000, ClockSettings.Mode.VIRTUAL,
                SchedulerMetrics.NONE, PostgresStore.Timeouts.DEFAULT,
                new PostgresStore.Schedules(PostgresStore.Schedules.DEFAULT.parser(), MAX_SCHEDULES, MAX_CATCH_UP));
        clocks = new FreshClocks(store, "s");
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @BeforeEach
    void freshClock() {
        clock = clocks.next(0, null);
    }

    @AfterEach
    void budgetStillMatchesTheRows() {
        assertThat(store.budgetMatchesRows().ok()).as(store.budgetMatchesRows().detail()).isTrue();
    }

    private static ScheduleSpec every(long millis) {
        return new ScheduleSpec(null, millis, null, null, null, null, 0, null, null, false);
    }

    private PostgresSchedules schedules() {
        return store.schedules();
    }

    private static List<String> ids(AdvanceResult result) {
        return result.fired().stream().map(Timer::id).toList();
    }

    private static ErrorCode codeOf(Throwable thrown) {
        return ((ProblemException) thrown).code();
    }

    @Test
    void put_createsTheSchedule_withItsFirstOccurrencePendingAsATimer() {
        Schedule.Put put = schedules().put(clock, "s", every(1000), null);

        assertThat(put.created()).isTrue();
        assertThat(put.schedule()).extracting(Schedule::next, Schedule::version, Schedule::state)
                .containsExactly(1000L, 1L, Schedule.State.ACTIVE);
        assertThat(put.schedule().spec().start()).as("an interval starts at now + every").isEqualTo(1000L);
        Timer occurrence = store.timers().get(clock, "s:1000");
        assertThat(occurrence).extracting(Timer::fireTime, Timer::schedule).containsExactly(1000L, "s");
        assertThat(schedules().next(clock, "s", 3)).containsExactly(1000L, 2000L, 3000L);
        assertThat(schedules().list(clock)).extracting(Schedule::id).containsExactly("s");
    }

    @Test
    void advance_firesEveryOccurrenceAtItsOwnTime_inFiringOrderWithTheOtherTimers() {
        schedules().put(clock, "s", every(1000), null);
        store.timers().add(clock, "t", 2500, 0, null);
        store.timers().add(clock, "u", 3000, -1, null);

        AdvanceResult result = store.timers().advance(clock, 4500L, null, Integer.MAX_VALUE);

        assertThat(ids(result)).containsExactly("s:1000", "s:2000", "t", "u", "s:3000", "s:4000");
        assertThat(result.fired().get(0).schedule()).isEqualTo("s");
        assertThat(result.complete()).isTrue();
        assertThat(schedules().get(clock, "s")).extracting(Schedule::next, Schedule::fired, Schedule::skipped)
                .containsExactly(5000L, 4L, 0L);
        assertThat(store.timers().firstN(clock, 10).timers()).extracting(Timer::id).containsExactly("s:5000");
    }

    @Test
    void boundedAdvance_stopsAtItsLimit_andTheNextOneContinuesWithoutRepeating() {
        schedules().put(clock, "s", every(1000), null);

        AdvanceResult first = store.timers().advance(clock, null, 4000L, 2);
        AdvanceResult rest = store.timers().advance(clock, null, 4000L, 10);

        assertThat(ids(first)).containsExactly("s:1000", "s:2000");
        assertThat(first.complete()).isFalse();
        assertThat(first.now()).isEqualTo(2000);
        assertThat(ids(rest)).containsExactly("s:3000", "s:4000");
        assertThat(schedules().get(clock, "s").fired()).isEqualTo(4);
    }

    @Test
    void oneAdvance_firesAtMostMaxCatchUpOccurrencesOfASchedule_andSkipsTheRestItPasses() {
        schedules().put(clock, "s", every(1000), null);

        AdvanceResult result = store.timers().advance(clock, 10_000L, null, Integer.MAX_VALUE);

        assertThat(ids(result)).containsExactly("s:1000", "s:2000", "s:3000", "s:4000");
        assertThat(schedules().get(clock, "s")).extracting(Schedule::fired, Schedule::skipped, Schedule::next)
                .containsExactly(4L, 6L, 11_000L);
        assertThat(ids(store.timers().advance(clock, 1000L, null, 10))).containsExactly("s:11000");
    }

    @Test
    void paused_skipsAndCountsWhatComesDue_andResumeContinuesAfterNow() {
        schedules().put(clock, "s", every(1000), null);
        Schedule paused = schedules().pause(clock, "s", 1L);

        AdvanceResult whilePaused = store.timers().advance(clock, 3500L, null, Integer.MAX_VALUE);
        Schedule resumed = schedules().resume(clock, "s", paused.version());
        AdvanceResult after = store.timers().advance(clock, 1000L, null, Integer.MAX_VALUE);

        assertThat(paused).extracting(Schedule::state, Schedule::version).containsExactly(Schedule.State.PAUSED, 2L);
        assertThat(whilePaused.fired()).isEmpty();
        assertThat(resumed).extracting(Schedule::state, Schedule::skipped, Schedule::next, Schedule::version)
                .containsExactly(Schedule.State.ACTIVE, 3L, 4000L, 3L);
        assertThat(ids(after)).containsExactly("s:4000");
        assertThat(schedules().pause(clock, "s", null).version()).isEqualTo(4);
        assertThat(schedules().pause(clock, "s", null).version()).as("pausing a paused one changes nothing")
                .isEqualTo(4);
    }

    @Test
    void trigger_addsOneOccurrenceAtNow_countedWhenItFires_andThePendingOneStays() {
        schedules().put(clock, "s", every(1000), null);
        store.timers().advance(clock, 500L, null, 10);

        Timer triggered = schedules().trigger(clock, "s");
        Timer again = schedules().trigger(clock, "s");
        AdvanceResult result = store.timers().advance(clock, 500L, null, 10);

        assertThat(triggered).extracting(Timer::id, Timer::fireTime, Timer::schedule)
                .containsExactly("s:500", 500L, "s");
        assertThat(again.sequence()).as("the occurrence at now is pending already").isEqualTo(triggered.sequence());
        assertThat(ids(result)).containsExactly("s:500", "s:1000");
        assertThat(schedules().get(clock, "s")).extracting(Schedule::fired, Schedule::triggered, Schedule::next)
                .containsExactly(2L, 1L, 2000L);
    }

    @Test
    void replace_keepsTheCounts_andNeverFiresAnOccurrenceAgain() {
        schedules().put(clock, "s", every(1000), null);
        store.timers().advance(clock, 1000L, null, 10);

        Schedule.Put same = schedules().put(clock, "s", every(1000), 1L);
        Schedule.Put slower = schedules().put(clock, "s",
                new ScheduleSpec(null, 2000L, null, 0L, null, null, 3, "{\"x\":1}", null, false), null);

        assertThat(same.created()).isFalse();
        assertThat(same.schedule()).extracting(Schedule::next, Schedule::fired, Schedule::version)
                .containsExactly(2000L, 1L, 2L);
        assertThat(slower.schedule()).extracting(Schedule::next, Schedule::version).containsExactly(2000L, 3L);
        assertThat(store.timers().get(clock, "s:2000")).extracting(Timer::priority, Timer::payload)
                .containsExactly(3, "{\"x\":1}");
        assertThatThrownBy(() -> schedules().put(clock, "s", every(1000), 1L))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        assertThatThrownBy(() -> schedules().put(clock, "new", every(1000), 1L))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PRECONDITION_FAILED));
    }

    @Test
    void delete_removesTheScheduleAndItsPendingOccurrence_andGivesItsPlaceBack() {
        for (String id : List.of("a", "b", "c")) {
            schedules().put(clock, id, every(1000), null);
        }
        assertThatThrownBy(() -> schedules().put(clock, "d", every(1000), null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.SCHEDULE_LIMIT));

        Schedule deleted = schedules().delete(clock, "a", null);
        schedules().put(clock, "d", every(1000), null);

        assertThat(deleted.id()).isEqualTo("a");
        assertThatThrownBy(() -> store.timers().get(clock, "a:1000"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.TIMER_NOT_FOUND));
        assertThatThrownBy(() -> schedules().get(clock, "a"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.SCHEDULE_NOT_FOUND));
        assertThat(schedules().list(clock)).extracting(Schedule::id).containsExactly("b", "c", "d");
    }

    @Test
    void deletingTheClock_givesItsSchedulesBackToTheLimit() {
        for (String id : List.of("a", "b", "c")) {
            schedules().put(clock, id, every(1000), null);
        }

        clock = clocks.next(0, null);

        for (String id : List.of("a", "b", "c")) {
            schedules().put(clock, id, every(1000), null);
        }
        assertThatThrownBy(() -> schedules().put(clock, "d", every(1000), null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.SCHEDULE_LIMIT));
    }

    @Test
    void theTimerApi_readsAnOccurrence_butMayNotChangeIt() {
        schedules().put(clock, "s", every(1000), null);

        assertThatThrownBy(() -> store.timers().edit(clock, "s:1000", 5L, null, Precondition.NONE))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.SCHEDULE_OWNED));
        assertThatThrownBy(() -> store.timers().cancel(clock, "s:1000", Precondition.NONE))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.SCHEDULE_OWNED));
        assertThatThrownBy(() -> store.timers().add(clock, "s:1000", 1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.SCHEDULE_OWNED));
        assertThat(store.timers().get(clock, "s:1000").version()).isEqualTo(1);
    }

    @Test
    void occurrencesCountInTheCapacity_andAScheduleWithoutRoomIsRefusedWithNothingChanged() {
        for (int i = 0; i < CAPACITY - 1; i++) {
            store.timers().add(clock, "t" + i, 100_000, 0, null);
        }
        schedules().put(clock, "a", every(1000), null);

        assertThatThrownBy(() -> schedules().put(clock, "b", every(1000), null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));
        assertThat(schedules().list(clock)).extracting(Schedule::id).containsExactly("a");
        store.timers().cancel(clock, "t0", Precondition.NONE);
        schedules().put(clock, "b", every(1000), null);
    }

    @Test
    void limitAndEnd_endTheSchedule() {
        schedules().put(clock, "lim", new ScheduleSpec(null, 1000L, null, null, null, 2L, 0, null, null, false), null);
        schedules().put(clock, "end", new ScheduleSpec(null, 1000L, null, null, 3000L, null, 0, null, null, false),
                null);

        AdvanceResult result = store.timers().advance(clock, 10_000L, null, Integer.MAX_VALUE);

        // at one time, the one added first fires first: lim's occurrences came before end's each time
        assertThat(ids(result)).containsExactly("lim:1000", "end:1000", "lim:2000", "end:2000", "end:3000");
        assertThat(schedules().get(clock, "lim")).extracting(Schedule::state, Schedule::next, Schedule::fired)
                .containsExactly(Schedule.State.DONE, null, 2L);
        assertThat(schedules().get(clock, "end").state()).isEqualTo(Schedule.State.DONE);
        assertThat(schedules().next(clock, "end", 5)).isEmpty();
        assertThat(store.timers().firstN(clock, 10).timers()).isEmpty();
    }

    @Test
    void onAQueueClock_firedOccurrencesAreDeliveriesThatNameTheirSchedule() throws SQLException {
        clock = clocks.next(0, ClockSettings.DeliveryMode.QUEUE);
        schedules().put(clock, "s", every(1000), null);

        store.timers().advance(clock, 2000L, null, Integer.MAX_VALUE);

        List<String> delivered = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT id, schedule FROM deliveries WHERE clock = ? ORDER BY seq")) {
            select.setString(1, clock);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    delivered.add(rows.getString(1) + " of " + rows.getString(2));
                }
            }
        }
        assertThat(delivered).containsExactly("s:1000 of s", "s:2000 of s");
    }
}
