package io.timeservice.store;

import io.timeservice.store.postgres.IdempotencyDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link PostgresIdempotencyContract} on a schema of its own, reached directly. */
class PostgresIdempotencyStoreContractTest extends PostgresIdempotencyContract {

    @RegisterExtension
    static final IdempotencyDatabase DATABASE =
            new IdempotencyDatabase(PostgresIdempotencyStoreContractTest.class, 8);

    @Override
    protected IdempotencyDatabase database() {
        return DATABASE;
    }
}
