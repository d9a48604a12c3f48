package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A clock's pending count in {@code timer_counts} (V45), kept by triggers on {@code timers}: equal to its timers
 * whatever changes them and however many at once, without a change waiting for another's count, and gone with the
 * clock.
 */
class TimerCountsTest {

    private static final int THREADS = 6;

    private TestDatabase database;
    private PostgresStore store;
    private ExecutorService pool;

    @BeforeEach
    void openStore() {
        database = TestDatabase.create(TimerCountsTest.class, THREADS + 2);
        store = PostgresStore.open(database.dataSource(), 100_000, 10_000_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void dropSchema() {
        pool.shutdownNow();
        database.close();
    }

    private long counted(String clock) {
        return database.queryLong("SELECT coalesce(sum(pending), 0) FROM timer_counts WHERE clock = '" + clock + "'");
    }

    private long rows(String clock) {
        return database.queryLong("SELECT count(*) FROM timers WHERE clock = '" + clock + "'");
    }

    /**
     * Adds, batches that add and cancel, cancels, edits and advances that fire, from six threads on two clocks, in a
     * seeded random order per thread: each clock's count is its timers afterwards, as its size and its invariant say.
     */
    @ParameterizedTest
    @ValueSource(longs = {45, 4501})
    void racingChanges_ofTwoClocks_leaveEachCountEqualToItsTimers(long seed) throws Exception {
        store.clocks().create("other", ClockSettings.Mode.VIRTUAL, 0, null);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Random random = new Random(seed + t);
            workers.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < 60; i++) {
                    String clock = random.nextBoolean() ? "default" : "other";
                    String id = "t" + thread + "-" + random.nextInt(30);
                    try {
                        switch (random.nextInt(5)) {
                            case 0 -> store.timerChanges().add(clock, id, 1 + random.nextInt(50), 0, null);
                            case 1 -> store.timerChanges().batch(clock, List.of(
                                    new BatchOp.Add(id + "b", 1 + random.nextInt(50), 0, null),
                                    new BatchOp.Add(id + "c", 1 + random.nextInt(50), 0, null),
                                    new BatchOp.Cancel(id + "b", Precondition.NONE)));
                            case 2 -> store.timerChanges().cancel(clock, id, Precondition.NONE);
                            case 3 -> store.timerChanges().edit(clock, id, 5L + random.nextInt(50), 1,
                                    Precondition.NONE);
                            default -> store.clockFiring().advance(clock, 1L + random.nextInt(3), null, 7);
                        }
                    } catch (ProblemException refused) {
                        // a duplicate id, a timer fired or cancelled meanwhile: changes nothing
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> worker : workers) {
            worker.get(2, TimeUnit.MINUTES);
        }

        for (String clock : List.of("default", "other")) {
            assertThat(rows(clock)).as("timers of %s", clock).isPositive();
            assertThat(counted(clock)).as("count of %s", clock).isEqualTo(rows(clock));
            assertThat(store.timerReads().status(clock).size()).isEqualTo(rows(clock));
            InvariantReport report = new PostgresQueueInspector(store, 4).invariants(clock);
            assertThat(report.checks()).contains(InvariantReport.Check.passed("pending-count-matches-rows"));
        }
    }

    /**
     * A change adds to a stripe of the clock that no other transaction holds, or to a new one: an add while another
     * transaction holds the clock's only count row does not wait for it (FOR UPDATE SKIP LOCKED).
     */
    @Test
    void anAdd_whileAnotherTransactionHoldsTheCount_doesNotWaitForIt() throws Exception {
        store.timerChanges().add("default", "first", 10, 0, null);
        assertThat(database.queryLong("SELECT count(*) FROM timer_counts WHERE clock = 'default'")).isOne();
        try (Connection holder = database.dataSource().getConnection(); Statement sql = holder.createStatement()) {
            holder.setAutoCommit(false);
            sql.execute("DELETE FROM timers WHERE clock = 'default' AND id = 'first'"); // holds the clock's count row

            Future<?> add = pool.submit(() -> store.timerChanges().add("default", "second", 10, 0, null));
            add.get(1, TimeUnit.MINUTES); // waiting for the holder would never end: it commits only below

            assertThat(database.queryLong("SELECT count(*) FROM timer_counts WHERE clock = 'default'")).isEqualTo(2);
            holder.commit();
        }
        assertThat(counted("default")).isOne();
        assertThat(store.timerReads().status("default").size()).isOne();
    }

    @Test
    void aDeletedClock_leavesNoCount_andOneMadeAgainUnderItsName_startsAtZero() {
        store.clocks().create("gone", ClockSettings.Mode.VIRTUAL, 0, null);
        for (int i = 0; i < 5; i++) {
            store.timerChanges().add("gone", "t" + i, 10, 0, null);
        }
        assertThat(store.timerReads().status("gone").size()).isEqualTo(5);

        store.clocks().delete("gone");

        assertThat(database.queryLong("SELECT count(*) FROM timer_counts WHERE clock = 'gone'")).isZero();
        store.clocks().create("gone", ClockSettings.Mode.VIRTUAL, 0, null);
        assertThat(store.timerReads().status("gone").size()).isZero();
        store.timerChanges().add("gone", "again", 10, 0, null);
        assertThat(store.timerReads().status("gone").size()).isOne();
    }

    /** Rows written by SQL of no statement of this version (an older instance's, an operator's) are counted too. */
    @Test
    void rowsChangedOutsideTheStore_areCountedAsWell() {
        database.execute("""
                INSERT INTO timers (clock, id, fire_time, priority, created_at, bytes, system_clock)
                SELECT 'default', 'raw' || n, n, 0, 0, 5, false FROM generate_series(1, 40) AS n""");
        database.execute("DELETE FROM timers WHERE id IN ('raw1', 'raw2')");

        assertThat(store.timerReads().status("default").size()).isEqualTo(38);
        assertThat(store.timerReads().page("default", null, "raw3", 100).size()).isEqualTo(38);
    }

    @Test
    void theInvariantReport_namesTheCountAndTheTimers_whenTheyDisagree() {
        store.timerChanges().add("default", "a", 5, 0, null);
        database.execute("UPDATE timer_counts SET pending = pending + 2 WHERE clock = 'default'");

        InvariantReport report = new PostgresQueueInspector(store, 4).invariants(null);

        assertThat(report.ok()).isFalse();
        assertThat(report.firstFailure().name()).isEqualTo("pending-count-matches-rows");
        assertThat(report.firstFailure().detail()).isEqualTo("the pending count is 3, the clock has 1 pending timers");
    }
}
