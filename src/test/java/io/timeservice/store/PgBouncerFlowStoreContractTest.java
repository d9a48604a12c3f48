package io.timeservice.store;

import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FlowStoreContract} on the PostgreSQL store through pgbouncer in transaction mode (a pgbouncer of the class's
 * own, {@code prepareThreshold=0}): flow control's key rows, triggers and claims rest on no server session.
 */
class PgBouncerFlowStoreContractTest extends FlowStoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE =
            PostgresContractStores.throughPgBouncer(PgBouncerFlowStoreContractTest.class);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }

    /** One seed of the walk through the pooler; the direct twin runs them all. */
    @Override
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = 1)
    void aSeededWalk_keepsEveryLimitAndTheRoundRobin_asTheReferenceSays(long seed) {
        super.aSeededWalk_keepsEveryLimitAndTheRoundRobin_asTheReferenceSays(seed);
    }
}
