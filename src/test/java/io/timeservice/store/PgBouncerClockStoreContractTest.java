package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ClockStoreContract} on the PostgreSQL store through pgbouncer in transaction mode (a pgbouncer of the class's
 * own, {@code prepareThreshold=0}): nothing of the store rests on a server session.
 */
class PgBouncerClockStoreContractTest extends ClockStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            PostgresContractStores.throughPgBouncer(PgBouncerClockStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
