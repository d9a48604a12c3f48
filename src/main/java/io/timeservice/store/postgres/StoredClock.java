package io.timeservice.store.postgres;

import java.util.Locale;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;

/**
 * A clock as the PostgreSQL store holds it.
 *
 * @param now        a virtual clock's own time; a system clock's is the database's clock (Unix epoch ms) when read
 * @param initialNow the now a virtual clock was created with (0 for system clocks)
 * @param delivery   what fired timers become
 * @param retry      how its deliveries are retried (kept in {@code clocks.settings})
 * @param createdAt  the database's clock at the creation (Unix epoch ms)
 * @param push       a push clock's target (the {@code push_*} columns), else null
 */
public record StoredClock(String name, ClockSettings.Mode mode, long now, long initialNow, ClockSettings.DeliveryMode delivery, RetryPolicy retry,
                          long createdAt, PushTarget push) {

    /** This clock at {@code newNow}: what an advance leaves (within its transaction). */
    StoredClock at(long newNow) {
        return new StoredClock(name, mode, newNow, initialNow, delivery, retry, createdAt, push);
    }

    /** Whether fired timers become deliveries (queued for workers, or pushed). */
    boolean queues() {
        return delivery != ClockSettings.DeliveryMode.RESPONSE;
    }

    ClockSettings settings() {
        return ClockSettings.of(mode, delivery, retry, push);
    }

    /** How the schema spells a mode or delivery: its name in lower case (the columns' CHECK constraints). */
    static String sql(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** The mode or delivery a column holds. */
    static <E extends Enum<E>> E ofSql(Class<E> type, String value) {
        return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
    }
}
