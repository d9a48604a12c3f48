package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ScheduleStoreContract} on the PostgreSQL store, every case on this class's schema, emptied before it. */
class PostgresScheduleStoreContractTest extends ScheduleStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresScheduleStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
