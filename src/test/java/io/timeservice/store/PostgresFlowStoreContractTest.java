package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link FlowStoreContract} on the PostgreSQL store (issue 44), its seeded model walk included, every case on this
 * class's schema, emptied before it.
 */
class PostgresFlowStoreContractTest extends FlowStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresFlowStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
