package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Until the PostgreSQL store keeps a schedule's flow-control key (issue 44; timers' keys, the clock's limits and
 * overrides for one key it keeps: PostgresFlowStoreContractTest, PostgresFlowKeyStoreContractTest), it refuses a keyed
 * schedule with {@code invalid_request} and changes nothing, rather than dropping the key.
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
    void aScheduleWithAKey_isRefused_andNothingChanges() {
        clocks().create("q", 0, QUEUE);
        ScheduleSpec keyed = new ScheduleSpec(null, 1_000L, null, null, null, null, 0, null,
                ScheduleSpec.CatchUp.ALL, false, null, "tenant-1");
        assertRefused(() -> schedules().put("q", "s", keyed, null), ErrorCode.INVALID_REQUEST, "key (flow control) is"
                + " not supported by the PostgreSQL store yet: put the schedule without a key, or use the memory store");
        assertThat(schedules().list("q")).isEmpty();
    }
}
