package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Until the PostgreSQL store keeps flow control (issue 44, {@link FlowStoreContract} runs on the memory store only), it
 * refuses keys and flow settings with {@code invalid_request} and changes nothing, rather than dropping them.
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
    void aKey_andFlowSettings_areRefused_andNothingChanges() {
        clocks().create("q", 0, QUEUE);
        String keys = "key (flow control) is not supported by the PostgreSQL store yet: add the timer without a key,"
                + " or use the memory store";
        assertRefused(() -> timers().add("q", "a", Due.after(5), 0, null, null, "tenant-1", Trace.NONE),
                ErrorCode.INVALID_REQUEST, keys);
        assertRefused(() -> timers().batch("q", List.of(new BatchOp.Add("b", Due.after(5), 0, null),
                BatchOp.Add.keyed("c", Due.after(5), 0, null, "tenant-1"))), ErrorCode.INVALID_REQUEST,
                "operation 1: " + keys);
        assertThat(timers().status("q").size()).isZero();
        assertRefused(() -> clocks().create("f", 0, QUEUE.withFlow(new FlowLimits(1, null, null, null, null))),
                ErrorCode.INVALID_REQUEST, "flow control (flow, clockConcurrency, clockRate) is not supported by the"
                        + " PostgreSQL store yet: create the clock without it, or use the memory store");
        assertThat(clocks().list(100, null)).extracting(c -> c.name()).doesNotContain("f");
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
