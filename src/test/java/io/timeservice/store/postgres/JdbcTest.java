package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The single-row helpers of {@link Jdbc} against a real PostgreSQL: {@link Jdbc#queryOne} reads its one row and
 * fails as a bug when there is none; {@link Jdbc#queryFirst} answers null for no row; a statement that fails on a lost
 * connection answers {@code storage_unavailable} through the runner, any other failure is a bug.
 */
class JdbcTest {

    private static TestDatabase database;
    private static Jdbc jdbc;

    @BeforeAll
    static void openSchema() {
        database = TestDatabase.create(JdbcTest.class, 2);
        jdbc = new Jdbc(database.dataSource());
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Test
    void queryOne_bindsItsParameters_andReadsTheOneRow() {
        long sum = jdbc.autocommit(connection -> Jdbc.queryOne(connection, "SELECT ?::bigint + ?::bigint",
                select -> {
                    select.setLong(1, 40);
                    select.setLong(2, 2);
                }, row -> row.getLong(1)));

        assertThat(sum).isEqualTo(42);
    }

    @Test
    void queryOne_whenTheStatementAnswersNoRow_failsAsABug_namingTheStatement() {
        assertThatThrownBy(() -> jdbc.autocommit(connection -> Jdbc.queryOne(connection,
                "SELECT 1 WHERE ?::boolean", select -> select.setBoolean(1, false), row -> row.getInt(1))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("answered none")
                .hasMessageContaining("SELECT 1 WHERE ?::boolean");
    }

    /** A pooler still pointing at a primary that a switchover demoted: its writes fail 25006 until it follows. */
    @Test
    void aChangeOnAServerThatIsNoLongerThePrimary_isStorageUnavailable_notABug() {
        assertThatThrownBy(() -> jdbc.inTransaction(connection -> {
            try (var statement = connection.createStatement()) {
                statement.execute("SET TRANSACTION READ ONLY"); // what every transaction on a standby is
                return statement.executeUpdate("CREATE TEMPORARY TABLE written (n int)");
            }
        })).isInstanceOfSatisfying(ProblemException.class,
                refused -> assertThat(refused.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
    }

    /**
     * A server gone without closing its connections (a primary lost with its host: no reset arrives) would keep a call
     * waiting until the operating system gives up on the socket; the store's connections wait at most the statement
     * timeout plus a margin, then the call answers storage_unavailable, and the next one, on a new connection, works.
     */
    @Test
    void aCallOnAConnectionWhoseServerWentSilent_isStorageUnavailable_withinItsTimeouts_andTheNextOneWorks()
            throws Exception {
        try (StallingProxy proxy = StallingProxy.toTestDatabase()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(proxy.through(database.jdbcUrl()));
            config.setMaximumPoolSize(1);
            config.setConnectionTimeout(3_000);
            try (HikariDataSource pool = new HikariDataSource(config)) {
                Jdbc bounded = new Jdbc(pool, new PostgresStore.Timeouts(Duration.ofMillis(100),
                        Duration.ofMillis(200)));
                Integer before = bounded.inTransaction(JdbcTest::selectOne);
                assertThat(before).isEqualTo(1);

                proxy.stallOpenConnections();

                ExecutorService caller = Executors.newSingleThreadExecutor();
                try {
                    Future<Integer> call = caller.submit(() -> bounded.inTransaction(JdbcTest::selectOne));
                    assertThatThrownBy(() -> call.get(60, TimeUnit.SECONDS)) // 5.2 s: 200 ms + the margin
                            .hasCauseInstanceOf(ProblemException.class)
                            .cause().satisfies(refused -> assertThat(((ProblemException) refused).code())
                                    .isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
                } finally {
                    caller.shutdownNow();
                }
                Integer after = bounded.inTransaction(JdbcTest::selectOne);
                assertThat(after).isEqualTo(1);
            }
        }
    }

    private static int selectOne(java.sql.Connection connection) throws java.sql.SQLException {
        return Jdbc.queryOne(connection, "SELECT 1", select -> { }, row -> row.getInt(1));
    }

    @Test
    void queryFirst_readsTheRow_orAnswersNullWhenThereIsNone() {
        String query = "SELECT n * 10 FROM generate_series(1, 3) AS n WHERE n = ?";

        Integer found = jdbc.autocommit(connection -> Jdbc.queryFirst(connection, query,
                select -> select.setInt(1, 2), row -> row.getInt(1)));
        Integer missing = jdbc.autocommit(connection -> Jdbc.queryFirst(connection, query,
                select -> select.setInt(1, 7), row -> row.getInt(1)));

        assertThat(found).isEqualTo(20);
        assertThat(missing).isNull();
    }

    @Test
    void queryOne_inATransaction_seesTheTransactionsOwnChanges_andItsRollback_leavesNothing() {
        database.execute("CREATE TABLE jdbc_test_rows (n bigint)");

        assertThatThrownBy(() -> jdbc.inTransaction(connection -> {
            try (var insert = connection.prepareStatement("INSERT INTO jdbc_test_rows VALUES (7)")) {
                insert.executeUpdate();
            }
            long seen = Jdbc.queryOne(connection, "SELECT count(*) FROM jdbc_test_rows", select -> { },
                    row -> row.getLong(1));
            assertThat(seen).isEqualTo(1);
            return Jdbc.queryOne(connection, "SELECT n FROM jdbc_test_rows WHERE n = 8", select -> { },
                    row -> row.getLong(1));
        })).isInstanceOf(IllegalStateException.class);

        assertThat(database.queryLong("SELECT count(*) FROM jdbc_test_rows")).isZero();
    }

    @Test
    void queryOne_onAConnectionTheServerTerminated_isStorageUnavailable() {
        assertThatThrownBy(() -> jdbc.autocommit(connection -> {
            int pid = Jdbc.queryOne(connection, "SELECT pg_backend_pid()", select -> { }, row -> row.getInt(1));
            // waits (up to 5 s) until the backend is gone, so the next statement meets a closed connection
            TestDatabase.admin("SELECT pg_terminate_backend(" + pid + ", 5000)");
            return Jdbc.queryOne(connection, "SELECT 1", select -> { }, row -> row.getInt(1));
        })).isInstanceOfSatisfying(ProblemException.class,
                unavailable -> assertThat(unavailable.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
    }

    @Test
    void queryOne_whoseStatementFails_isABug_carryingTheSqlState() {
        assertThatThrownBy(() -> jdbc.autocommit(connection -> Jdbc.queryOne(connection, "SELECT 1 / ?::int",
                select -> select.setInt(1, 0), row -> row.getInt(1))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SQLState 22012");
    }
}
