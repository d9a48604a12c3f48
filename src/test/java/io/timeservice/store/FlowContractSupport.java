package io.timeservice.store;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.model.Timer;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the flow-control contracts ({@link FlowStoreContract}, {@link FlowKeyStoreContract}) share: a virtual queueing
 * clock {@value #Q} made before each test, and helpers to fill and claim from it.
 */
public abstract class FlowContractSupport extends StoreContract {

    static final String Q = "q";
    static final RetryPolicy THREE = new RetryPolicy(3, 400, 2.0, 3_000, 0.0);
    static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, THREE);

    @BeforeEach
    void queueClock() {
        clocks().create(Q, 0, QUEUE);
    }

    /** A virtual queueing clock {@code name} at 0 with {@code flow}. */
    protected final void flowClock(String name, FlowLimits flow) {
        clocks().create(name, 0, QUEUE.withFlow(flow));
    }

    static FlowLimits perKey(Integer concurrency, FlowRate rate, Integer burst) {
        return new FlowLimits(concurrency, rate, burst, null, null);
    }

    final List<String> claimIds(String clock, int max) {
        return deliveries().claim(clock, max, 1_000, 0).stream().map(Delivery::id).toList();
    }

    /** Adds timers {@code prefix}0.. under {@code key}, each due at 10. */
    final void ready(String clock, String key, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            timers().add(clock, prefix + i, Due.at(10), 0, null, null, key, Trace.NONE);
        }
    }

    protected final Timer add(String clock, String id, long delay, String key) {
        return timers().add(clock, id, Due.after(delay), 0, null, null, key, Trace.NONE);
    }

    protected final void advance(String clock, long by) {
        timers().advance(clock, by, null, Integer.MAX_VALUE, Trace.NONE);
    }
}
