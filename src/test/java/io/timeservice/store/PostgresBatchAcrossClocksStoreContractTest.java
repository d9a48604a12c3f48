package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link BatchAcrossClocksStoreContract} on the PostgreSQL store, every case on this class's schema, emptied before
 * it.
 */
class PostgresBatchAcrossClocksStoreContractTest extends BatchAcrossClocksStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            new PostgresContractStores(PostgresBatchAcrossClocksStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
