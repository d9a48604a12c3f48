package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.ScheduleStore;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential model test of schedules: seeded random puts (intervals with and without start, end, limit, priority,
 * payload, catch-up and pause), replaces with and without If-Match, pauses, resumes, triggers, deletes, client timers
 * and bounded advances run through the ports of the memory store and of the PostgreSQL store, step by step; both must
 * answer alike: the same schedules (counts, next, state, version), the same fired timers in the same order, the same
 * pending timers, or the same refusal. Sequences are compared by order only (the database's sequence has gaps).
 * Interval schedules only: the cron engine is one store-neutral class, compared with java.time by its own model test.
 * To replay a failure, run the case with the seed in its name.
 */
class SchedulesSameAsMemoryTest {

    private static final int CAPACITY = 10;
    private static final int MAX_SCHEDULES = 4;
    private static final int MAX_CATCH_UP = 3;
    private static final int STEPS = 250;

    private static TestDatabase database;
    private static PostgresStore postgres;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(SchedulesSameAsMemoryTest.class, 2);
        postgres = PostgresStore.open(database.dataSource(), CAPACITY, 10_000, 100, ClockSettings.Mode.VIRTUAL,
                SchedulerMetrics.NONE, PostgresStore.Timeouts.DEFAULT,
                new PostgresStore.Schedules(PostgresStore.Schedules.DEFAULT.parser(), MAX_SCHEDULES, MAX_CATCH_UP));
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomScheduleOperations_answerAlikeOnBothStores(long seed) {
        String clock = "m" + seed;
        PendingBudget budget = new PendingBudget(CAPACITY, 10_000);
        budget.limitSchedules(MAX_SCHEDULES);
        Clocks memoryClocks = new Clocks((virtual, shared) -> {
            TimerScheduler scheduler = new TimerScheduler(virtual, 4, shared, () -> 0L, SchedulerMetrics.NONE);
            scheduler.scheduleWith(PostgresStore.Schedules.DEFAULT.parser(), MAX_CATCH_UP);
            return scheduler;
        }, budget, 10, () -> 0L);
        memoryClocks.create(clock, 0);
        postgres.clocks().create(clock, ClockSettings.Mode.VIRTUAL, 0, null, RetryPolicy.DEFAULT);
        Side memory = new Side(new MemoryTimerStore(memoryClocks), new MemoryScheduleStore(memoryClocks));
        Side database = new Side(new PostgresTimerStore(postgres), new PostgresScheduleStore(postgres));
        Random random = new Random(seed);
        try {
            for (int step = 0; step < STEPS; step++) {
                String id = "s" + random.nextInt(5);
                String what = "seed " + seed + " step " + step;
                switch (random.nextInt(10)) {
                    case 0, 1 -> {
                        ScheduleSpec spec = spec(random);
                        Long ifMatch = random.nextInt(4) == 0 ? (long) (1 + random.nextInt(3)) : null;
                        same(what + " put " + id + " " + spec + " ifMatch " + ifMatch,
                                () -> memory.put(clock, id, spec, ifMatch), () -> database.put(clock, id, spec, ifMatch));
                    }
                    case 2 -> same(what + " pause " + id, () -> List.of(shown(memory.schedules.pause(clock, id, null))),
                            () -> List.of(shown(database.schedules.pause(clock, id, null))));
                    case 3 -> same(what + " resume " + id,
                            () -> List.of(shown(memory.schedules.resume(clock, id, null))),
                            () -> List.of(shown(database.schedules.resume(clock, id, null))));
                    case 4 -> same(what + " trigger " + id, () -> List.of(shown(memory.schedules.trigger(clock, id))),
                            () -> List.of(shown(database.schedules.trigger(clock, id))));
                    case 5 -> same(what + " delete " + id,
                            () -> List.of(shown(memory.schedules.delete(clock, id, null))),
                            () -> List.of(shown(database.schedules.delete(clock, id, null))));
                    case 6 -> {
                        long delay = random.nextInt(4000);
                        String timerId = random.nextBoolean() ? "t" + random.nextInt(3) : id + ":" + delay;
                        same(what + " add " + timerId + " in " + delay,
                                () -> List.of(shown(memory.timers.add(clock, timerId, delay, 0, null, Trace.NONE))),
                                () -> List.of(shown(database.timers.add(clock, timerId, delay, 0, null, Trace.NONE))));
                    }
                    default -> {
                        long by = random.nextInt(5) == 0 ? 0 : random.nextInt(9000);
                        int limit = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1000;
                        same(what + " advance by " + by + " limit " + limit,
                                () -> advanced(memory.timers.advance(clock, by, null, limit, Trace.NONE)),
                                () -> advanced(database.timers.advance(clock, by, null, limit, Trace.NONE)));
                    }
                }
                same(what + " state", () -> state(memory, clock), () -> state(database, clock));
            }
        } finally {
            postgres.clocks().delete(clock);
        }
    }

    private record Side(TimerStore timers, ScheduleStore schedules) {

        List<String> put(String clock, String id, ScheduleSpec spec, Long ifMatch) {
            Schedule.Put put = schedules.put(clock, id, spec, ifMatch);
            return List.of("created=" + put.created(), shown(put.schedule()));
        }
    }

    private static ScheduleSpec spec(Random random) {
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
    private static List<String> state(Side side, String clock) {
        List<String> state = new ArrayList<>();
        for (Schedule schedule : side.schedules.list(clock)) {
            state.add(shown(schedule));
        }
        for (Timer timer : side.timers.firstN(clock, 100).timers()) {
            state.add(shown(timer));
        }
        try {
            state.add("peek " + shown(side.timers.peek(clock)));
        } catch (io.timeservice.model.SchedulerException empty) {
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

    /** Both answer the same, or both refuse with the same code. */
    private static void same(String what, Supplier<List<String>> memory, Supplier<List<String>> postgres) {
        assertThat(outcome(postgres)).as(what).isEqualTo(outcome(memory));
    }

    private static Object outcome(Supplier<List<String>> call) {
        try {
            return call.get();
        } catch (SchedulerException refused) {
            return "refused " + refused.code();
        }
    }
}
