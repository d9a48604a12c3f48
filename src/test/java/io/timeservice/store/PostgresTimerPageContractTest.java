package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link TimerPageContract} on the PostgreSQL store, every case on this class's schema, emptied before it. */
class PostgresTimerPageContractTest extends TimerPageContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresTimerPageContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
