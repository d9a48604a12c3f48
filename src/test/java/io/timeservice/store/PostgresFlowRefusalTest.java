package io.timeservice.store;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Until the PostgreSQL store keeps overrides for one key (issue 44; keys and the clock's limits it keeps, see
 * PostgresFlowStoreContractTest), it refuses them and the busiest-keys listing with {@code invalid_request} and changes
 * nothing, rather than dropping them.
 */
class PostgresFlowRefusalTest extends StoreContract {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PostgresFlowRefusalTest.class);

    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT);

    @Override
    protected Stores open(Stores.Limits limits) {
        return DATABASE.open(limits);
    }

    @Test
    void overridesForOneKey_andTheBusiestKeys_areRefused() {
        clocks().create("q", 0, QUEUE);
        String refused = "flow control (overrides for one key) is not supported by the PostgreSQL store yet: use the"
                + " memory store";
        FlowKeyStore keys = stores().flowKeys();
        assertRefused(() -> keys.put("q", "a", new FlowOverride(2, null)), ErrorCode.INVALID_REQUEST, refused);
        assertRefused(() -> keys.get("q", "a"), ErrorCode.INVALID_REQUEST, refused);
        assertRefused(() -> keys.delete("q", "a"), ErrorCode.INVALID_REQUEST, refused);
        assertRefused(() -> keys.busiest("q", 10), ErrorCode.INVALID_REQUEST, refused);
    }
}
