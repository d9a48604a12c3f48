package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link DedupeStoreContract} on the PostgreSQL store through pgbouncer in transaction mode (a pgbouncer of the class's
 * own, {@code prepareThreshold=0}): reservations, like the rest of the store, rest on no server session.
 */
class PgBouncerDedupeStoreContractTest extends DedupeStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            PostgresContractStores.throughPgBouncer(PgBouncerDedupeStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
