package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link BatchAcrossClocksStoreContract} on the PostgreSQL store through pgbouncer in transaction mode (a pgbouncer of
 * the class's own, {@code prepareThreshold=0}): one transaction across clocks rests on no server session.
 */
class PgBouncerBatchAcrossClocksStoreContractTest extends BatchAcrossClocksStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            PostgresContractStores.throughPgBouncer(PgBouncerBatchAcrossClocksStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
