package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/**
 * Runs units of work in transactions of their own (READ COMMITTED, the server's default), and says what a database
 * failure means to a caller: a lost or refused connection is {@code storage_unavailable}; a deadlock or
 * serialization failure is retried a few times after a short random pause; anything else is a bug and surfaces as
 * one.
 *
 * <p>Every transaction waits at most {@link PostgresStore.Timeouts#lock()} for a row lock and runs each statement at
 * most {@link PostgresStore.Timeouts#statement()} (set per transaction, {@code SET LOCAL}, so nothing else on the
 * pool's connections is affected). Without them, calls queued behind one long-held clock row kept their
 * connections until it was released: the pool ran dry and every other clock answered {@code storage_unavailable}
 * (issue 34, item 6). A timeout rolls the transaction back, so it answers {@code storage_unavailable} saying that the
 * rows were busy and nothing was changed: the caller tries again later, as after any 503. Readiness asks the
 * database itself ({@link PostgresStore#reachable()}), which a lock timeout does not touch.
 *
 * <p>A {@link ProblemException} thrown by the work rolls the transaction back and reaches the caller unchanged:
 * every refusal leaves the database as it was. A commit that fails with a lost connection answers
 * {@code storage_unavailable} with the outcome unknown (it may have committed), as the journal's 503 does.
 */
final class Jdbc {

    /** One unit of work on a connection whose transaction the runner commits or rolls back. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Sets a statement's parameters. */
    @FunctionalInterface
    interface Parameters {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads what a query's one row answers. */
    @FunctionalInterface
    interface Value<T> {
        T of(ResultSet row) throws SQLException;
    }

    /** lock_not_available: a row lock was not granted within lock_timeout. */
    private static final String LOCK_TIMEOUT = "55P03";
    /** read_only_sql_transaction: a change sent to a standby (a demoted primary, a failover under way). */
    private static final String READ_ONLY = "25006";
    /** query_canceled: statement_timeout passed (or an operator cancelled the statement). */
    private static final String STATEMENT_TIMEOUT = "57014";

    /** Attempts of one transaction that keeps failing with a deadlock or serialization failure. */
    static final int ATTEMPTS = 5;
    /** The longest pause before a retry: the pause doubles per attempt from 1 ms, with full jitter. */
    private static final long MAX_RETRY_PAUSE_MILLIS = 16;

    /**
     * How much longer than the statement timeout a read from the server may wait before the connection counts as
     * lost: the server cancels a statement at its timeout and says so at once, so a longer silence means the server is
     * gone without closing the connection (a primary lost with its host or network, no reset reaching this side).
     */
    static final long NETWORK_MARGIN_MILLIS = 5_000;

    private final DataSource dataSource;
    private final PostgresStore.Timeouts timeouts;
    /** The socket read timeout of the store's connections: the statement timeout plus the margin. */
    private final int networkTimeoutMillis;
    /** Sets both timeouts for the current transaction only, in one round trip. */
    private final String setTimeouts;

    Jdbc(DataSource dataSource) {
        this(dataSource, PostgresStore.Timeouts.DEFAULT);
    }

    Jdbc(DataSource dataSource, PostgresStore.Timeouts timeouts) {
        this.dataSource = dataSource;
        this.timeouts = timeouts;
        this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE,
                timeouts.statement().toMillis() + NETWORK_MARGIN_MILLIS);
        this.setTimeouts = "SELECT set_config('lock_timeout', '" + timeouts.lock().toMillis() + "ms', true),"
                + " set_config('statement_timeout', '" + timeouts.statement().toMillis() + "ms', true)";
    }

    /**
     * Runs {@code work} in one transaction and commits it; rolls back if it throws. A deadlock or serialization
     * failure runs the whole of {@code work} again in a new transaction (up to {@value #ATTEMPTS} times), so
     * {@code work} must keep its state inside the call: every unit of work here builds its result from what its own
     * statements read. (The lock order is meant to make deadlocks impossible; this is the net PostgreSQL apps need
     * anyway.)
     */
    <T> T inTransaction(Work<T> work) {
        return inTransaction(work, null);
    }

    /**
     * {@link #inTransaction} at repeatable read: every statement of {@code work} sees one snapshot of the database
     * (a reader of several tables that writers change under weaker locks, such as a saved clock's timers and
     * schedules); a row it locks that changed since is a serialization failure, run again.
     */
    <T> T inRepeatableRead(Work<T> work) {
        return inTransaction(work, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    }

    private <T> T inTransaction(Work<T> work, String isolation) {
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = dataSource.getConnection()) {
                bound(connection);
                connection.setAutoCommit(false);
                try {
                    try (Statement set = connection.createStatement()) {
                        if (isolation != null) {
                            set.execute(isolation); // first in the transaction, as PostgreSQL requires
                        }
                        set.execute(setTimeouts);
                    }
                    T result = work.run(connection);
                    connection.commit();
                    return result;
                } catch (SQLException | RuntimeException | Error failure) {
                    rollbackQuietly(connection, failure);
                    throw failure;
                }
            } catch (SQLException failure) {
                if (attempt < ATTEMPTS && isRetryable(failure)) {
                    pauseBeforeRetry(attempt);
                    continue;
                }
                throw translate(failure);
            }
        }
    }

    /** Runs {@code work} on a connection in autocommit mode: each statement its own transaction. */
    <T> T autocommit(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            bound(connection);
            connection.setAutoCommit(true);
            return work.run(connection);
        } catch (SQLException failure) {
            throw translate(failure);
        }
    }

    /**
     * Bounds every wait of {@code connection} for the server ({@link #NETWORK_MARGIN_MILLIS} past the statement
     * timeout; the pool restores its own setting when the connection comes back), so a call on a connection whose
     * server went silent answers {@code storage_unavailable} instead of waiting until the operating system gives up on
     * the socket (many minutes). pgjdbc's {@code socketTimeout} does the same for every connection of a URL.
     */
    private void bound(Connection connection) throws SQLException {
        connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
    }

    /**
     * Runs {@code query}, which answers exactly one row (a count, an aggregate, an {@code EXISTS}), with
     * {@code parameters} bound, on the caller's connection, and answers what {@code value} reads of the row.
     *
     * @throws IllegalStateException when it answers no row: a statement that must answer one did not (a bug)
     */
    static <T> T queryOne(Connection connection, String query, Parameters parameters, Value<T> value)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(query)) {
            parameters.bind(select);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("a statement that answers one row answered none: " + query);
                }
                return value.of(row);
            }
        }
    }

    /**
     * Runs {@code query}, which answers at most one row (a row found by its key, a {@code RETURNING} of at most one
     * row), with {@code parameters} bound, on the caller's connection; answers what {@code value} reads of its first
     * row, or null when it answers none.
     */
    static <T> T queryFirst(Connection connection, String query, Parameters parameters, Value<T> value)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(query)) {
            parameters.bind(select);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? value.of(row) : null;
            }
        }
    }

    /**
     * A random pause of up to 2^(attempt-1) ms (at most {@value #MAX_RETRY_PAUSE_MILLIS}): transactions that
     * failed together do not run into each other again in the same order.
     */
    private static void pauseBeforeRetry(int attempt) {
        long bound = Math.min(MAX_RETRY_PAUSE_MILLIS, 1L << (attempt - 1));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(bound + 1));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "interrupted while retrying a transaction");
        }
    }

    private static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException rollbackFailure) {
            cause.addSuppressed(rollbackFailure); // the connection is gone: the server rolls back by itself
        }
    }

    /** Deadlock detected (40P01) or serialization failure (40001): nothing happened, so trying again is safe. */
    private static boolean isRetryable(SQLException failure) {
        String state = failure.getSQLState();
        return "40P01".equals(state) || "40001".equals(state);
    }

    /** What a failure means to the caller: see the class comment. */
    RuntimeException translate(SQLException failure) {
        if (isUnavailable(failure)) {
            return new ProblemException(ErrorCode.STORAGE_UNAVAILABLE,
                    "the database is unavailable; a change in progress may or may not have been applied");
        }
        if (LOCK_TIMEOUT.equals(failure.getSQLState())) {
            return new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "busy: another change held the rows this"
                    + " call needs (its clock, a timer or a delivery) for longer than the lock timeout ("
                    + timeouts.lock() + ", timeservice.postgresql.lock-timeout); nothing was changed, try again");
        }
        if (STATEMENT_TIMEOUT.equals(failure.getSQLState())) {
            return new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "busy: a statement of this call ran longer"
                    + " than the statement timeout (" + timeouts.statement()
                    + ", timeservice.postgresql.statement-timeout); nothing was changed, try again");
        }
        return new IllegalStateException("database statement failed (SQLState " + failure.getSQLState() + ")",
                failure);
    }

    /**
     * A connection that could not be had or was lost (class 08, a pool timeout; pgbouncer's own errors are 08P01), a
     * server shutting down or not yet accepting (57P01-57P03), one out of resources (class 53: too many connections,
     * disk full), or a server that is no longer (or not yet) the primary: a write on a standby fails with 25006
     * read_only_sql_transaction, as on an old primary that a switchover demoted while a pooler still pointed at it.
     */
    private static boolean isUnavailable(SQLException failure) {
        if (failure instanceof SQLTransientConnectionException
                || failure instanceof SQLNonTransientConnectionException) {
            return true;
        }
        String state = failure.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("53") || state.equals("57P01")
                || state.equals("57P02") || state.equals("57P03") || state.equals(READ_ONLY));
    }
}
