package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Who waits for whose lock, as PostgreSQL sees it ({@code pg_blocking_pids}): lets a test drive two transactions into
 * an order by waiting for the lock wait it needs, instead of for a guessed time. Reads on a connection of its own, so
 * that it works while the pool's connections all wait.
 */
final class LockWaits {

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
        int[] blocked = new int[1];
        try (Connection observer = DriverManager.getConnection(database.jdbcUrl());
             PreparedStatement select = observer.prepareStatement(
                     "SELECT pid FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))")) {
            select.setInt(1, pid);
            Poll.until("a server process waiting for a lock of process " + pid, Duration.ofMinutes(1), () -> {
                try (ResultSet row = select.executeQuery()) {
                    blocked[0] = row.next() ? row.getInt(1) : 0;
                    return blocked[0] != 0;
                }
            });
        }
        return blocked[0];
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
