package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ClockChangeStoreContract} on the PostgreSQL store (issue 47): pause, resume and live settings changes. */
class PostgresClockChangeStoreContractTest extends ClockChangeStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(
            PostgresClockChangeStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
