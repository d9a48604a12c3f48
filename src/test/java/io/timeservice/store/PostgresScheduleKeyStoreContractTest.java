package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ScheduleKeyStoreContract} on the PostgreSQL store (issue 44; it refused a keyed schedule with
 * {@code invalid_request} before V48 gave the schedules a key column).
 */
class PostgresScheduleKeyStoreContractTest extends ScheduleKeyStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresScheduleKeyStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
