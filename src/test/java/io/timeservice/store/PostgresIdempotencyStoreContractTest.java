package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.store.postgres.IdempotencyDatabase;
import io.timeservice.store.postgres.PostgresIdempotencyStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;

/**
 * {@link IdempotencyStoreContract} on the PostgreSQL store, and what only it has: two stores (two instances) on one
 * database racing one key, of which exactly one runs.
 */
class PostgresIdempotencyStoreContractTest extends IdempotencyStoreContract {

    private static IdempotencyDatabase database;

    @BeforeAll
    static void createSchema() {
        database = new IdempotencyDatabase(PostgresIdempotencyStoreContractTest.class, 8);
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Override
    protected IdempotencyStore open(LongSupplier wallMillis, Duration retention, long maxKeys) {
        database.empty();
        return new PostgresIdempotencyStore(database.dataSource(), wallMillis, retention, maxKeys);
    }

    @RepeatedTest(5)
    void twoInstancesRacingOneKeyRunItExactlyOnce() throws Exception {
        List<IdempotencyStore> instances = List.of(store(),
                new PostgresIdempotencyStore(database.dataSource(), wall::get, RETENTION, 1_000));
        int racers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(racers);
        try {
            List<Future<Object>> outcomes = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                IdempotencyStore instance = instances.get(i % 2);
                outcomes.add(threads.submit(() -> {
                    start.await();
                    try {
                        return instance.begin(KEY, ADD);
                    } catch (ProblemException refused) {
                        return refused.code();
                    }
                }));
            }
            start.countDown();
            List<Object> results = new ArrayList<>();
            for (Future<Object> outcome : outcomes) {
                results.add(outcome.get(30, TimeUnit.SECONDS));
            }
            assertThat(results).filteredOn(IdempotencyStore.Begun.Run.class::isInstance).hasSize(1);
            assertThat(results).filteredOn(result -> !(result instanceof IdempotencyStore.Begun.Run))
                    .containsOnly(ErrorCode.IDEMPOTENCY_KEY_IN_USE);
            IdempotencyStore.Begun.Run winner = (IdempotencyStore.Begun.Run) results.stream()
                    .filter(IdempotencyStore.Begun.Run.class::isInstance).findFirst().orElseThrow();
            instances.get(0).keep(KEY, winner, CREATED);
            assertThat(instances.get(1).begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        } finally {
            threads.shutdownNow();
        }
    }
}
