package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DeliveryStoreContract} on the PostgreSQL store through pgbouncer in transaction mode (a pgbouncer of the class's
 * own, {@code prepareThreshold=0}): nothing of the store rests on a server session.
 */
class PgBouncerDeliveryStoreContractTest extends DeliveryStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            PostgresContractStores.throughPgBouncer(PgBouncerDeliveryStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }

    /**
     * One seed of the walk: through the pooler what matters is many statements, each run more often than pgjdbc's
     * threshold, on connections pgbouncer hands out anew per transaction; the other seeds prove the store's logic,
     * which the direct twin runs.
     */
    @Override
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = 1)
    void randomDeliveryOperations_answerAsTheMemoryStoreDoes(long seed) {
        super.randomDeliveryOperations_answerAsTheMemoryStoreDoes(seed);
    }
}
