package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.ScheduleStore;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Catch-up of schedules on both stores, through their ports: a schedule that fired its max-catch-up in one advance
 * skips only what the clock reached, successors are created when their predecessor fired, and skips are counted in
 * O(1) for an interval, capped as documented.
 */
class ScheduleCatchUpTest {

    private static final int MAX_CATCH_UP = 10;
    private static final long SECOND = 1000;

    private static TestDatabase database;
    private static PostgresStore postgres;
    private static int clocks;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(ScheduleCatchUpTest.class, 2);
        postgres = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 100_000, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, PostgresStore.Timeouts.DEFAULT,
                new PostgresStore.Schedules(new UnixCronParser(), 100, MAX_CATCH_UP));
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    /** One store's ports and a new virtual clock at 0 on it. */
    private record Side(String name, TimerStore timers, ScheduleStore schedules, String clock) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<String> stores() {
        return Stream.of("memory", "postgres");
    }

    private static Side side(String store) {
        String clock = "c" + (++clocks);
        if (store.equals("memory")) {
            PendingBudget budget = new PendingBudget(100_000, 100_000_000);
            budget.limitSchedules(100);
            ClockRegistry memory = new ClockRegistry((virtual, shared) -> {
                MemoryClock scheduler = new MemoryClock(virtual, 4, shared, () -> 0L, StoreMetrics.NONE);
                scheduler.scheduleWith(new UnixCronParser(), MAX_CATCH_UP);
                return scheduler;
            }, budget, 10, () -> 0L);
            memory.create(clock, 0);
            return new Side(store, new MemoryTimerStore(memory), new MemoryScheduleStore(memory), clock);
        }
        postgres.clocks().create(clock, ClockSettings.Mode.VIRTUAL, 0, null, RetryPolicy.DEFAULT);
        return new Side(store, new PostgresTimerStore(postgres), new PostgresScheduleStore(postgres), clock);
    }

    private static ScheduleSpec everySecond() {
        return new ScheduleSpec(null, SECOND, null, SECOND, null, null, 0, null, null, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anAdvanceItsLimitStopped_skipsOnlyWhatTheClockReached(String store) {
        Side side = side(store);
        side.schedules().put(side.clock(), "s", everySecond(), null);
        side.timers().add(side.clock(), "t1", 15 * SECOND + 500, 0, null, Trace.NONE);
        side.timers().add(side.clock(), "t2", 16 * SECOND + 500, 0, null, Trace.NONE);

        AdvanceResult result = side.timers().advance(side.clock(), null, 36 * SECOND, MAX_CATCH_UP + 1, Trace.NONE);

        assertThat(result.complete()).isFalse();
        assertThat(result.now()).isEqualTo(15 * SECOND + 500);
        assertThat(result.fired()).hasSize(MAX_CATCH_UP + 1);
        assertThat(result.fired().get(MAX_CATCH_UP).id()).isEqualTo("t1");
        Schedule schedule = side.schedules().get(side.clock(), "s");
        assertThat(schedule.fired()).isEqualTo(MAX_CATCH_UP);
        assertThat(schedule.skipped()).as("11 s to 15 s, which the clock passed").isEqualTo(5);
        assertThat(schedule.next()).as("the first occurrence after the clock's now, not after the advance's to")
                .isEqualTo(16 * SECOND);

        AdvanceResult rest = side.timers().advance(side.clock(), null, 36 * SECOND, 100, Trace.NONE);

        assertThat(rest.fired()).extracting(Timer::id).startsWith("s:" + 16 * SECOND, "t2");
        assertThat(side.schedules().get(side.clock(), "s").fired()).isEqualTo(MAX_CATCH_UP + 10);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anOccurrenceAddedDuringAnAdvance_isCreatedWhenItsPredecessorFired(String store) {
        Side side = side(store);
        side.schedules().put(side.clock(), "s", everySecond(), null);

        AdvanceResult result = side.timers().advance(side.clock(), null, 5500L, 100, Trace.NONE);

        List<Timer> fired = result.fired();
        assertThat(fired).extracting(Timer::fireTime).containsExactly(1000L, 2000L, 3000L, 4000L, 5000L);
        assertThat(fired.get(0).createdAt()).as("added by the put, at 0").isZero();
        for (Timer timer : fired.subList(1, fired.size())) {
            assertThat(timer.createdAt()).as(timer.id()).isEqualTo(timer.fireTime() - SECOND);
        }
        Timer pending = side.timers().get(side.clock(), "s:6000");
        assertThat(pending.createdAt()).isEqualTo(5000L);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anAdvanceAcrossTenToTheFifteen_countsEachSchedulesSkipsUpToTheCap(String store) {
        Side side = side(store);
        for (int i = 0; i < 8; i++) {
            side.schedules().put(side.clock(), "s" + i, everySecond(), null);
        }

        AdvanceResult result = side.timers().advance(side.clock(), Limits.MAX_DELAY, null, 100_000, Trace.NONE);

        assertThat(result.complete()).isTrue();
        assertThat(result.fired()).hasSize(8 * MAX_CATCH_UP);
        for (Schedule schedule : side.schedules().list(side.clock())) {
            assertThat(schedule.fired()).isEqualTo(MAX_CATCH_UP);
            assertThat(schedule.skipped()).as("at most " + Limits.MAX_COUNTED_SKIPS + " counted")
                    .isEqualTo(Limits.MAX_COUNTED_SKIPS);
            assertThat(schedule.next()).isEqualTo(Limits.MAX_DELAY + SECOND);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void skipsAreCountedExactlyBelowTheCap(String store) {
        Side side = side(store);
        side.schedules().put(side.clock(), "s", everySecond(), null);

        side.timers().advance(side.clock(), null, 765_432_100L, 100_000, Trace.NONE);

        Schedule schedule = side.schedules().get(side.clock(), "s");
        assertThat(schedule.fired()).isEqualTo(MAX_CATCH_UP);
        assertThat(schedule.skipped()).isEqualTo(765_432 - MAX_CATCH_UP);
        assertThat(schedule.next()).isEqualTo(765_433 * SECOND);
    }
}
