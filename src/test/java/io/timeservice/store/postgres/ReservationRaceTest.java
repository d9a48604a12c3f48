package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.ClockStore;
import io.timeservice.store.TimerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two PostgreSQL store instances on one database race adds of one id on a clock with a dedupe window: exactly one
 * add lands, every other is {@code duplicate_id}; once it fired, every retry from either instance is refused (with
 * the reservation as {@code previous}), so the id never fires twice. The phases are driven by what happened (a start
 * gate, then the futures' answers), never by timing.
 */
class ReservationRaceTest {

    private static final int RACERS = 8;

    private TestDatabase database;
    private PostgresStore one;
    private PostgresStore two;

    @BeforeEach
    void open() {
        database = TestDatabase.create(ReservationRaceTest.class, RACERS + 2);
        one = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 10, ClockSettings.Mode.VIRTUAL);
        two = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 10, ClockSettings.Mode.VIRTUAL);
    }

    @AfterEach
    void close() {
        one.close();
        two.close();
        database.close();
    }

    @Test
    void twoInstancesRacingOneId_addItOnce_andAfterItFired_neverAgain() throws Exception {
        ClockStore clocks = new PostgresClockStore(one);
        clocks.create("r", 0, ClockSettings.VIRTUAL.withDedupeWindow(60_000));
        TimerStore[] instances = {new PostgresTimerStore(one), new PostgresTimerStore(two)};

        List<Object> firstRace = race(i -> instances[i % 2].add("r", "job", 10, 0, null, Trace.NONE));
        assertThat(firstRace.stream().filter(Timer.class::isInstance)).as("exactly one add").hasSize(1);
        assertThat(firstRace.stream().filter(ErrorCode.DUPLICATE_ID::equals)).hasSize(RACERS - 1);

        List<Timer> fired = instances[0].advance("r", 10L, null, Integer.MAX_VALUE, Trace.NONE).fired();
        assertThat(fired).extracting(Timer::id).containsExactly("job");

        List<Object> retries = race(i -> instances[i % 2].add("r", "job", 10, 0, null, Trace.NONE));
        assertThat(retries).as("every retry refused: the id is reserved").containsOnly(ErrorCode.DUPLICATE_ID);
        assertThat(instances[1].advance("r", 1_000L, null, Integer.MAX_VALUE, Trace.NONE).fired())
                .as("never a second firing").isEmpty();
        assertThat(instances[1].status("r").size()).isZero();
    }

    /** Runs {@code call} on {@link #RACERS} threads released together; answers each result or refusal code. */
    private static List<Object> race(Racer call) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(RACERS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object>> answers = new ArrayList<>();
            for (int i = 0; i < RACERS; i++) {
                int racer = i;
                Callable<Object> task = () -> {
                    start.await();
                    try {
                        return call.run(racer);
                    } catch (ProblemException refused) {
                        return refused.code();
                    }
                };
                answers.add(threads.submit(task));
            }
            start.countDown();
            List<Object> results = new ArrayList<>();
            for (Future<Object> answer : answers) {
                results.add(answer.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface Racer {
        Object run(int racer);
    }
}
