package io.timeservice.store.postgres;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.RetryPolicy;

/**
 * One clock per test on a store the test class shares: each {@link #next} deletes the clock the previous test used
 * (with its timers, deliveries and share of the budget) and creates a new one, so tests start from an empty budget.
 */
final class FreshClocks {

    private final PostgresStore store;
    private final String prefix;
    private int created;
    private String current;

    FreshClocks(PostgresStore store, String prefix) {
        this.store = store;
        this.prefix = prefix;
    }

    /** A new virtual clock at {@code now} with {@code delivery} (null: the default), the previous one deleted. */
    String next(long now, ClockSettings.DeliveryMode delivery) {
        return next(now, delivery, RetryPolicy.DEFAULT);
    }

    /** As {@link #next(long, ClockSettings.DeliveryMode)}, retrying its deliveries by {@code retry}. */
    String next(long now, ClockSettings.DeliveryMode delivery, RetryPolicy retry) {
        if (current != null) {
            store.clocks().delete(current);
        }
        current = prefix + created++;
        store.clocks().create(current, ClockSettings.Mode.VIRTUAL, now, delivery, retry);
        return current;
    }

    /** The current clock was deleted by the test itself. */
    void deleted() {
        current = null;
    }
}
