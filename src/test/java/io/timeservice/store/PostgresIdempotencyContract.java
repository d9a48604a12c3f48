package io.timeservice.store;

import java.time.Duration;
import java.util.function.LongSupplier;

import io.timeservice.store.postgres.IdempotencyDatabase;
import io.timeservice.store.postgres.PostgresIdempotencyStore;
import org.junit.jupiter.api.RepeatedTest;

/**
 * {@link IdempotencyStoreContract} on the PostgreSQL store, and what only it has: two stores (two instances) on one
 * database racing one key, of which exactly one runs ({@link IdempotencyRace}). A suite names its database.
 */
abstract class PostgresIdempotencyContract extends IdempotencyStoreContract {

    /** The suite's schema, a static extension of its class. */
    protected abstract IdempotencyDatabase database();

    @Override
    protected IdempotencyStore open(LongSupplier wallMillis, Duration retention, long maxKeys) {
        database().empty();
        return new PostgresIdempotencyStore(database().dataSource(), wallMillis, retention, maxKeys);
    }

    @RepeatedTest(5)
    void twoInstancesRacingOneKeyRunItExactlyOnce() throws Exception {
        IdempotencyRace.exactlyOneRuns(store(),
                new PostgresIdempotencyStore(database().dataSource(), wall::get, RETENTION, 1_000));
    }
}
