package io.timeservice.store.postgres;

import java.util.Locale;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;

/**
 * A clock as the PostgreSQL store holds it.
 *
 * @param now        a virtual clock's own time; a system clock's is the database's clock (Unix epoch ms) when read
 * @param initialNow the now a virtual clock was created with (0 for system clocks)
 * @param delivery   what fired timers become
 * @param retry      how its deliveries are retried (kept in {@code clocks.settings})
 * @param createdAt  the database's clock at the creation (Unix epoch ms)
 * @param scaledTime a scaled clock's time as a function of the database's clock; null for the other modes
 * @param push       a push clock's target (the {@code push_*} columns), else null
 * @param incarnation which clock of this name the row is ({@code clocks.incarnation}, V24): unique over every clock
 *                    the database ever held, so a clock deleted and created again under its name has another
 * @param flow       its flow control (kept in {@code clocks.settings}, issue 44), or null: none
 * @param paused     whether it holds its deliveries back ({@code clocks.settings -> paused}, issue 47)
 */
public record StoredClock(String name, ClockSettings.Mode mode, long now, long initialNow, ClockSettings.DeliveryMode delivery, RetryPolicy retry,
                          long createdAt, ScaledTime scaledTime, PushTarget push, long incarnation,
                          long dedupeWindow, FlowLimits flow, boolean paused) {

    /** A clock that runs. */
    public StoredClock(String name, ClockSettings.Mode mode, long now, long initialNow,
                       ClockSettings.DeliveryMode delivery, RetryPolicy retry, long createdAt, ScaledTime scaledTime,
                       PushTarget push, long incarnation, long dedupeWindow, FlowLimits flow) {
        this(name, mode, now, initialNow, delivery, retry, createdAt, scaledTime, push, incarnation, dedupeWindow,
                flow, false);
    }

    /** A clock without flow control. */
    public StoredClock(String name, ClockSettings.Mode mode, long now, long initialNow,
                       ClockSettings.DeliveryMode delivery, RetryPolicy retry, long createdAt, ScaledTime scaledTime,
                       PushTarget push, long incarnation, long dedupeWindow) {
        this(name, mode, now, initialNow, delivery, retry, createdAt, scaledTime, push, incarnation, dedupeWindow,
                null);
    }

    /** A clock without a dedupe window. */
    public StoredClock(String name, ClockSettings.Mode mode, long now, long initialNow,
                       ClockSettings.DeliveryMode delivery, RetryPolicy retry, long createdAt, ScaledTime scaledTime,
                       PushTarget push, long incarnation) {
        this(name, mode, now, initialNow, delivery, retry, createdAt, scaledTime, push, incarnation, 0);
    }

    /** A clock that is not scaled and does not push, of an incarnation not read. */
    public StoredClock(String name, ClockSettings.Mode mode, long now, long initialNow,
                       ClockSettings.DeliveryMode delivery, RetryPolicy retry, long createdAt) {
        this(name, mode, now, initialNow, delivery, retry, createdAt, null, null, 0);
    }

    /** This clock at {@code newNow}: what an advance leaves (within its transaction). */
    StoredClock at(long newNow) {
        return new StoredClock(name, mode, newNow, initialNow, delivery, retry, createdAt, scaledTime, push,
                incarnation, dedupeWindow, flow, paused);
    }

    /** Whether fired timers become deliveries (queued for workers, or pushed). */
    boolean queues() {
        return delivery != ClockSettings.DeliveryMode.RESPONSE;
    }

    /** Whether its due timers, lease ends and retries come by themselves (system and scaled clocks). */
    boolean firesByItself() {
        return mode != ClockSettings.Mode.VIRTUAL;
    }

    /**
     * Whether its times are the database's clock (a system clock): the value of its rows' {@code system_clock}
     * column, which puts them in the firing loop's global indexes (V18).
     */
    boolean systemClockRows() {
        return mode == ClockSettings.Mode.SYSTEM;
    }

    /**
     * The database's clock (Unix epoch ms) at which this clock, which fires by itself, shows {@code clockTime}: where
     * the firing loop waits for it. {@link Long#MAX_VALUE} for a frozen scaled clock.
     */
    long dbTimeOf(long clockTime) {
        return scaledTime == null ? clockTime : scaledTime.wallWhen(clockTime);
    }

    /** Its settings as the API states them. */
    ClockSettings settings() {
        return ClockSettings.of(mode, delivery, retry, scaledTime == null ? null : scaledTime.rate(), push)
                .withDedupeWindow(dedupeWindow).withFlow(flow).withPaused(paused);
    }

    /**
     * The flow key of a timer's delivery on this clock: its key, or "" for none, on a clock with flow control; null on
     * any other (its deliveries are not counted by key).
     */
    String flowKeyOf(String key) {
        return flow == null ? null : key == null ? "" : key;
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
