package io.timeservice.store.postgres;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Who waits for whose lock, as PostgreSQL sees it ({@code pg_blocking_pids}): lets a test drive two transactions into
 * an order by waiting for the lock wait it needs, instead of for a guessed time. Reads on a connection of its own, so
 * that it works while the pool's connections all wait.
 */
final class LockWaits {

    /**
     * Timeouts for a store whose calls a test makes wait for a lock the test holds: each transaction waits for a row
     * lock, and runs a statement, up to a minute, as long as {@link #awaitBlockedBy} waits for the next waiter to
     * queue. The store's default lock timeout (2 s) bounds the wait by the test's own speed: in a fresh-clone run
     * under load StoreConcurrencyTest's cancel gave up after 2 s, while the test was still waiting for the advance to
     * queue behind it; the advance then waited for the test's own lock instead, and the test for 30 s for a wait
     * that could no longer come (issue 41's FLAKES.md, item 3). These tests are about the order of lock waits, not
     * about their timeouts ({@link LockTimeoutTest}'s).
     */
    static final PostgresStore.Timeouts PATIENT = new PostgresStore.Timeouts(Duration.ofMinutes(1),
            Duration.ofMinutes(1));

    private LockWaits() {
    }

    /** The server process serving {@code connection}. */
    static int backendPid(Connection connection) throws SQLException {
        try (ResultSet row = connection.createStatement().executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    /** Waits until a server process waits for a lock that the process {@code pid} holds; answers that one. */
    static int awaitBlockedBy(TestDatabase database, int pid) throws Exception {
        return awaitBlockedBy(database, pid, null);
    }

    /**
     * Waits until a server process waits for a lock that the process {@code pid} holds, and answers that one; fails at
     * once, with its outcome, if {@code waiter} (the call that is to wait, or null) ends first.
     */
    static int awaitBlockedBy(TestDatabase database, int pid, Future<?> waiter) throws Exception {
        int[] blocked = new int[1];
        try (Connection observer = DriverManager.getConnection(database.jdbcUrl());
             PreparedStatement select = observer.prepareStatement(
                     "SELECT pid FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))")) {
            select.setInt(1, pid);
            await("a server process waiting for a lock of process " + pid).atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(20))
                    .failFast("the call that was to wait for process " + pid + " ended", () -> {
                        if (waiter != null && waiter.isDone()) {
                            throw new AssertionError("it ended instead: " + outcomeOf(waiter));
                        }
                    })
                    .until(() -> {
                        try (ResultSet row = select.executeQuery()) {
                            blocked[0] = row.next() ? row.getInt(1) : 0;
                            return blocked[0] != 0;
                        }
                    });
        }
        return blocked[0];
    }

    private static String outcomeOf(Future<?> done) {
        try {
            return "returned " + done.get();
        } catch (ExecutionException failed) {
            return "threw " + failed.getCause();
        } catch (InterruptedException | CancellationException stopped) {
            return "was stopped: " + stopped;
        }
    }

    /**
     * Waits until {@code count} server processes wait behind the process {@code pid}: for a lock it holds, or for one
     * that a process behind it holds (the second of two waiters for one row waits for the first's tuple lock).
     */
    static void awaitBehind(TestDatabase database, int pid, int count) throws Exception {
        try (Connection observer = DriverManager.getConnection(database.jdbcUrl());
             PreparedStatement select = observer.prepareStatement("""
                     WITH RECURSIVE behind (pid) AS (
                         SELECT pid FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))
                         UNION
                         SELECT a.pid FROM pg_stat_activity a JOIN behind b ON b.pid = ANY (pg_blocking_pids(a.pid)))
                     SELECT count(*) FROM behind""")) {
            select.setInt(1, pid);
            Poll.until(count + " server processes waiting behind process " + pid, Duration.ofMinutes(1), () -> {
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getInt(1) >= count;
                }
            });
        }
    }
}
