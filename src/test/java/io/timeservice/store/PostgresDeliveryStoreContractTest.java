package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DeliveryStoreContract} on the PostgreSQL store, every case on this class's schema, emptied before it. */
class PostgresDeliveryStoreContractTest extends DeliveryStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresDeliveryStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
