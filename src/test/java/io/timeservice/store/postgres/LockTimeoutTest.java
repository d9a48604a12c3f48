package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, item 6: calls waiting for one clock's row that another transaction holds must not take the whole pool.
 * Each transaction waits at most the lock timeout, answers {@code storage_unavailable} saying the rows were busy and
 * nothing changed, and gives its connection back: other clocks are served and readiness stays about the database.
 */
class LockTimeoutTest {

    private static final int POOL = 4;
    private static final PostgresStore.Timeouts SHORT =
            new PostgresStore.Timeouts(Duration.ofMillis(200), Duration.ofMillis(500));

    private TestDatabase database;
    private PostgresStore store;
    private ExecutorService callers;

    @BeforeEach
    void openStore() {
        database = TestDatabase.create(LockTimeoutTest.class, POOL);
        store = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 10, ClockSettings.Mode.VIRTUAL,
                SchedulerMetrics.NONE, SHORT);
        store.clocks().create("busy", ClockSettings.Mode.VIRTUAL, 0, null, RetryPolicy.DEFAULT);
        callers = Executors.newFixedThreadPool(3 * POOL);
    }

    @AfterEach
    void close() {
        callers.shutdownNow();
        store.close();
        database.close();
    }

    @Test
    void callsWaitingForAHeldClock_timeOut_andLeaveThePoolToOtherClocks() throws Exception {
        try (Connection holder = DriverManager.getConnection(database.jdbcUrl())) { // outside the pool
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("SELECT 1 FROM clocks WHERE name = 'busy' FOR UPDATE"); // what a long advance holds
            }
            List<Future<Timer>> waiting = new ArrayList<>();
            for (int i = 0; i < 3 * POOL; i++) { // three times the pool
                String id = "w" + i;
                waiting.add(callers.submit(() -> store.timers().add("busy", id, 1, 0, null)));
            }

            for (Future<Timer> call : waiting) {
                assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
                        .as("a call waiting for the held clock ends by the lock timeout")
                        .cause().isInstanceOfSatisfying(ProblemException.class, refused -> {
                            assertThat(refused.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
                            assertThat(refused.getMessage()).contains("busy", "lock timeout (PT0.2S",
                                    "timeservice.postgresql.lock-timeout", "nothing was changed");
                        });
            }
            assertThat(store.reachable()).as("readiness asks the database, which answers").isTrue();
            assertThat(callers.submit(() -> store.timers().add("default", "other", 1, 0, null))
                    .get(30, TimeUnit.SECONDS).id()).isEqualTo("other");
            holder.rollback();
        }

        assertThat(store.timers().firstN("busy", 10).size()).as("the refused adds changed nothing").isZero();
        assertThat(database.queryLong("SELECT sum(timers) FROM pending_budget")).isEqualTo(1);
        assertThat(store.timers().add("busy", "after", 1, 0, null).id()).isEqualTo("after");
    }

    @Test
    void aStatementLongerThanTheStatementTimeout_isCancelled_andAnswersBusy() {
        Jdbc jdbc = new Jdbc(database.dataSource(), SHORT);

        assertThatThrownBy(() -> jdbc.inTransaction(connection -> {
            try (Statement sleep = connection.createStatement()) {
                return sleep.execute("SELECT pg_sleep(30)");
            }
        })).isInstanceOfSatisfying(ProblemException.class, refused -> {
            assertThat(refused.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
            assertThat(refused.getMessage()).contains("statement timeout (PT0.5S",
                    "timeservice.postgresql.statement-timeout", "nothing was changed");
        });
        boolean valid = jdbc.inTransaction(connection -> connection.isValid(1));
        assertThat(valid).as("the connection serves the next transaction").isTrue();
    }

    @Test
    void theTimeoutsHoldForOneTransactionOnly_notForTheConnectionsSession() {
        Jdbc jdbc = new Jdbc(database.dataSource(), SHORT);

        assertThat(jdbc.inTransaction(LockTimeoutTest::lockTimeout)).isEqualTo("200ms");
        for (int i = 0; i < POOL; i++) { // every connection of the pool, as the next user finds it
            assertThat(jdbc.autocommit(LockTimeoutTest::lockTimeout)).isEqualTo("0");
        }
    }

    private static String lockTimeout(Connection connection) throws java.sql.SQLException {
        try (Statement show = connection.createStatement(); var row = show.executeQuery("SHOW lock_timeout")) {
            row.next();
            return row.getString(1);
        }
    }
}
