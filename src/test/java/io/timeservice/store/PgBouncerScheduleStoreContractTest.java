package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ScheduleStoreContract} on the PostgreSQL store through pgbouncer in transaction mode (a pgbouncer of the class's
 * own, {@code prepareThreshold=0}): nothing of the store rests on a server session.
 */
class PgBouncerScheduleStoreContractTest extends ScheduleStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            PostgresContractStores.throughPgBouncer(PgBouncerScheduleStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }
}
