package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The database goes away under traffic and comes back, without restarting anything shared: the store runs in a
 * database of its own, which the test closes to connections ({@code ALLOW_CONNECTIONS false}) and whose backends it
 * terminates ({@code pg_terminate_backend}), then opens again. While it is away every call answers
 * {@code storage_unavailable} and {@link PostgresStore#reachable} is false; afterwards the same store serves again
 * by itself, and nothing acknowledged before or during the loss is missing.
 */
class ConnectionLossTest {

    private String databaseName;
    private HikariDataSource dataSource;
    private ExecutorService pool;

    @BeforeEach
    void createDatabase() {
        databaseName = TestDatabase.schemaNameFor(ConnectionLossTest.class);
        admin("CREATE DATABASE " + databaseName);
        String url = TestDatabase.urlOfDatabase(databaseName);
        Flyway.configure().dataSource(url, null, null).locations(PostgresStore.MIGRATIONS)
                .configuration(PostgresStore.FLYWAY_SETTINGS).load().migrate();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(500); // a call waits this long for a connection before answering unavailable
        config.setPoolName(databaseName);
        dataSource = new HikariDataSource(config);
        pool = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void dropDatabase() {
        pool.shutdownNow();
        dataSource.close();
        admin("DROP DATABASE IF EXISTS " + databaseName + " WITH (FORCE)");
    }

    @Test
    void whileTheDatabaseIsAway_callsAreUnavailable_andAfterwardsTheStoreServesAgain_losingNothingAcknowledged()
            throws Exception {
        PostgresStore store = PostgresStore.open(dataSource, 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL);
        store.clocks().create("q", ClockSettings.Mode.VIRTUAL, 0, ClockSettings.DeliveryMode.QUEUE);
        for (int i = 0; i < 10; i++) {
            store.timers().add("q", "d" + i, 1, 0, null);
        }
        store.timers().advance("q", 1L, null, Integer.MAX_VALUE);
        List<ClaimedDelivery> claimed = store.deliveries().claim("q", 5, 600_000);
        for (ClaimedDelivery delivery : claimed) {
            assertThat(store.deliveries().ack("q", delivery.id(), delivery.claim().toString())).isTrue();
        }
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicInteger unavailable = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> writer = pool.submit(() -> {
            for (int i = 0; !stop.get(); i++) {
                try {
                    store.timers().add("default", "w" + i, 60_000, 0, "{\"i\":" + i + "}");
                    acknowledged.add("w" + i);
                } catch (ProblemException failed) {
                    assertThat(failed.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
                    unavailable.incrementAndGet(); // outcome unknown: it may have committed
                }
            }
            return null;
        });
        Counts.awaitAtLeast(acknowledged::size, 50, "adds before the loss");

        admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS false");
        admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + databaseName + "'");

        Counts.awaitAtLeast(unavailable::get, 3, "unavailable adds while the database is away");
        assertThat(store.reachable()).isFalse();
        assertThatThrownBy(() -> store.deliveries().claim("q", 5, 30_000)).isInstanceOf(ProblemException.class)
                .extracting("code").isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
        int acknowledgedWhileAway = acknowledged.size();

        admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS true");

        Counts.awaitAtLeast(acknowledged::size, acknowledgedWhileAway + 50, "adds after the database is back");
        stop.set(true);
        writer.get(1, TimeUnit.MINUTES);
        assertThat(store.reachable()).isTrue();
        for (String id : acknowledged) {
            assertThat(store.timers().get("default", id).id()).isEqualTo(id);
        }
        for (ClaimedDelivery delivery : claimed) { // acked before the loss: still done, not handed out again
            assertThat(store.deliveries().ack("q", delivery.id(), delivery.claim().toString())).isTrue();
        }
        assertThat(store.deliveries().count("q", "acked")).isEqualTo(5);
        assertThat(store.deliveries().claim("q", 10, 30_000)).hasSize(5);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             var row = statement.executeQuery("""
                     SELECT (SELECT sum(timers) FROM pending_budget),
                            (SELECT count(*) FROM timers) + (SELECT count(*) FROM deliveries WHERE state <> 'acked')""")) {
            row.next();
            assertThat(row.getLong(1)).as("budget against what is pending").isEqualTo(row.getLong(2));
        }
    }

    @Test
    void theFiringLoop_survivesTheLoss_andFiresWhatCameDueMeanwhile_andWhatIsAddedAfter() throws Exception {
        PostgresStore store = PostgresStore.open(dataSource, 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL);
        Logger loopLogger = Logger.getLogger(PostgresFiringLoop.class.getName());
        RecordedLog loopLog = new RecordedLog();
        loopLogger.addHandler(loopLog);
        try {
            store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
            store.timers().add("s", "due-while-away", 1_000, 0, null);
            PostgresFiringLoop loop = store.startFiring(new PostgresFiringLoop.Settings(Duration.ofMinutes(10),
                    10_000, Duration.ofMinutes(5), Duration.ofMinutes(10)));

            admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS false");
            admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + databaseName + "'");
            Counts.awaitAtLeast(() -> (int) loop.failedLooks(), 3, "the loop's looks failing");
            admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS true");

            Counts.awaitAtLeast(() -> readyOnceReachable(store), 1, "the timer due meanwhile ready");
            store.timers().add("s", "after", 50, 0, null);
            Counts.awaitAtLeast(() -> readyOnceReachable(store), 2, "the timer added after ready");
            assertThat(loop.isAlive()).isTrue();
            assertThat(loop.failing()).isFalse();
            assertThat(loopLog.records).as("one warning for the outage, one note when it ended")
                    .extracting(LogRecord::getLevel).containsExactly(Level.WARNING, Level.INFO);
        } finally {
            loopLogger.removeHandler(loopLog);
            store.close();
        }
    }

    /** What a JUL logger logged at INFO and above (System.Logger writes to JUL in these tests). */
    private static final class RecordedLog extends Handler {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();

        @Override
        public void publish(LogRecord logRecord) {
            if (logRecord.getLevel().intValue() >= Level.INFO.intValue()) {
                records.add(logRecord);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /** Ready deliveries of the clock {@code s}; 0 while the pool has no connection again yet. */
    private static int readyOnceReachable(PostgresStore store) {
        try {
            return store.deliveries().count("s", "ready");
        } catch (ProblemException unavailable) {
            assertThat(unavailable.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
            return 0;
        }
    }

    /** A statement on the test server's main database, outside the store's. */
    private static void admin(String sql) {
        TestDatabase.admin(sql);
    }
}
