package io.timeservice.store;

import io.timeservice.store.postgres.IdempotencyDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link PostgresIdempotencyContract} through pgbouncer in transaction mode (a pgbouncer of the class's own,
 * {@code prepareThreshold=0}), the race of two instances included: nothing of the {@code Idempotency-Key} store
 * rests on a server session (issue 48 item 4).
 */
class PgBouncerIdempotencyStoreContractTest extends PostgresIdempotencyContract {

    @RegisterExtension
    static final IdempotencyDatabase DATABASE =
            IdempotencyDatabase.throughPgBouncer(PgBouncerIdempotencyStoreContractTest.class, 8);

    @Override
    protected IdempotencyDatabase database() {
        return DATABASE;
    }
}
