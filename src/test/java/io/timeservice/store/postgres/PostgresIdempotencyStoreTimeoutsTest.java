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
import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.IdempotencyStore.Begun;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code Idempotency-Key} store keeps the store's timeouts: a keyed request on a database that went silent (a
 * primary lost with its host, no reset arriving) answers {@code storage_unavailable} within the statement timeout and
 * its margin instead of waiting until the operating system gives up on the socket; the next call, on a new connection,
 * works. Before, its calls took plain connections of the pool and waited without bound.
 */
class PostgresIdempotencyStoreTimeoutsTest {

    private static TestDatabase database;

    @BeforeAll
    static void openSchema() {
        database = TestDatabase.create(PostgresIdempotencyStoreTimeoutsTest.class, 2);
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Test
    void aKeyedCallOnASilentServer_isStorageUnavailable_withinItsTimeouts_andTheNextOneWorks() throws Exception {
        try (StallingProxy proxy = StallingProxy.toTestDatabase()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(proxy.through(database.jdbcUrl()));
            config.setMaximumPoolSize(1);
            config.setConnectionTimeout(3_000);
            try (HikariDataSource pool = new HikariDataSource(config)) {
                IdempotencyStore store = new PostgresIdempotencyStore(pool,
                        new PostgresStore.Timeouts(Duration.ofMillis(100), Duration.ofMillis(200)),
                        System::currentTimeMillis, Duration.ofHours(1), 1_000);
                assertThat(store.begin(new IdempotencyKey("c", "anonymous", "before"), "f"))
                        .isInstanceOf(Begun.Run.class);

                proxy.stallOpenConnections();

                ExecutorService caller = Executors.newSingleThreadExecutor();
                try {
                    Future<Begun> call = caller.submit(() -> store.begin(
                            new IdempotencyKey("c", "anonymous", "during"), "f"));
                    assertThatThrownBy(() -> call.get(60, TimeUnit.SECONDS)) // 5.2 s: 200 ms + the margin
                            .hasCauseInstanceOf(ProblemException.class)
                            .cause().satisfies(refused -> assertThat(((ProblemException) refused).code())
                                    .isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
                } finally {
                    caller.shutdownNow();
                }
                assertThat(store.begin(new IdempotencyKey("c", "anonymous", "after"), "f"))
                        .isInstanceOf(Begun.Run.class);
            }
        }
    }
}
