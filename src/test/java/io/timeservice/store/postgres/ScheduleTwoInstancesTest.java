package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two PostgreSQL store instances on one schema, both firing one schedule of a system clock: each occurrence is
 * created once and fired once. The schedule's pending occurrence is moved ten intervals into the past first (as if
 * every instance had been down), so ten occurrences are due at once whatever the wall clock does; then both
 * instances fire the clock at the same moment (a latch releases them), and a last round afterwards fires whatever a
 * schedule row that was held made one of them skip. The outcome is checked, not the race: the deliveries are the ten
 * occurrences, each once, in order, and exactly one next occurrence is pending.
 */
class ScheduleTwoInstancesTest {

    private static final String CLOCK = "wall";
    private static final long EVERY = 1000;
    private static final int MISSED = 10;

    private static TestDatabase database;
    private static PostgresStore first;
    private static PostgresStore second;

    @BeforeAll
    static void openTwoInstances() {
        database = TestDatabase.create(ScheduleTwoInstancesTest.class, 8);
        // patient: the two instances queue for the schedule's and the clock's rows; under load a wait may pass the
        // default 2 s, which would answer storage_unavailable (right when overloaded, not what this test is about)
        first = PostgresStore.open(database.dataSource(), 1_000, 100_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        second = PostgresStore.open(database.dataSource(), 1_000, 100_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        first.clocks().create(CLOCK, ClockSettings.Mode.SYSTEM, 0, ClockSettings.DeliveryMode.QUEUE);
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Test
    void twoInstancesFiringOneSchedule_createAndFireEachOccurrenceExactlyOnce() throws Exception {
        ScheduleSpec spec = new ScheduleSpec(null, EVERY, null, null, null, null, 0, null, null, false);
        // both instances create it at once: one creates it, the other replaces it; one schedule, one occurrence
        List<Schedule.Put> puts = atOnce(() -> first.schedules().put(CLOCK, "s", spec, null),
                () -> second.schedules().put(CLOCK, "s", spec, null));
        assertThat(puts).extracting(Schedule.Put::created).containsExactlyInAnyOrder(true, false);
        assertThat(count("SELECT count(*) FROM timers WHERE clock = 'wall' AND schedule = 's'")).isEqualTo(1);
        assertThat(count("SELECT schedules FROM schedule_count")).isEqualTo(1);

        long missedFrom = moveThePendingOccurrenceBack(MISSED * EVERY);
        List<Integer> fired = atOnce(() -> first.clockFiring().fireDue(CLOCK, 1_000),
                () -> second.clockFiring().fireDue(CLOCK, 1_000));
        int afterwards = first.clockFiring().fireDue(CLOCK, 1_000);

        List<Long> delivered = deliveredTimes();
        assertThat(delivered).as("each occurrence delivered once, in order, from the first one missed")
                .doesNotHaveDuplicates()
                .hasSizeGreaterThanOrEqualTo(MISSED)
                .isSorted();
        for (int i = 0; i < delivered.size(); i++) {
            assertThat(delivered.get(i)).isEqualTo(missedFrom + i * EVERY);
        }
        assertThat(fired.get(0) + fired.get(1) + afterwards).isEqualTo(delivered.size());
        Schedule schedule = first.schedules().get(CLOCK, "s");
        assertThat(schedule.fired()).isEqualTo(delivered.size());
        assertThat(schedule.skipped()).isZero();
        long last = delivered.get(delivered.size() - 1);
        assertThat(schedule.next()).isEqualTo(last + EVERY);
        assertThat(count("SELECT count(*) FROM timers WHERE clock = 'wall' AND schedule = 's'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM timers WHERE clock = 'wall' AND id = 's:" + (last + EVERY) + "'"))
                .isEqualTo(1);
        assertThat(first.budgetMatchesRows().ok()).as(first.budgetMatchesRows().detail()).isTrue();
    }

    /** Runs both at the same moment on two threads; their results in order. */
    @SafeVarargs
    private static <T> List<T> atOnce(java.util.concurrent.Callable<T>... calls) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(calls.length);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (java.util.concurrent.Callable<T> call : calls) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Moves the schedule {@code by} ms back (its start, its pending occurrence's timer and its next), as if it had
     * been created that much earlier and nothing had fired since; the pending occurrence's new time.
     */
    private static long moveThePendingOccurrenceBack(long by) throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            long pending;
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE schedules SET pending = pending - ?, start_ms = start_ms - ? WHERE clock = ? AND id = 's'"
                            + " RETURNING pending")) {
                update.setLong(1, by);
                update.setLong(2, by);
                update.setString(3, CLOCK);
                try (ResultSet row = update.executeQuery()) {
                    row.next();
                    pending = row.getLong(1);
                }
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE timers SET fire_time = ?, id = ? WHERE clock = ? AND schedule = 's'")) {
                update.setLong(1, pending);
                update.setString(2, "s:" + pending);
                update.setString(3, CLOCK);
                update.executeUpdate();
            }
            connection.commit();
            return pending;
        }
    }

    private static List<Long> deliveredTimes() throws SQLException {
        List<Long> times = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT id, fire_time FROM deliveries WHERE clock = ? AND schedule = 's' ORDER BY fire_time")) {
            select.setString(1, CLOCK);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    assertThat(rows.getString(1)).isEqualTo("s:" + rows.getLong(2));
                    times.add(rows.getLong(2));
                }
            }
        }
        return times;
    }

    private static long count(String sql) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement(sql);
             ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
