package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FlowKeyStoreContract} on the PostgreSQL store (issue 44): overrides for one key and the busiest keys. */
class PostgresFlowKeyStoreContractTest extends FlowKeyStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresFlowKeyStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
