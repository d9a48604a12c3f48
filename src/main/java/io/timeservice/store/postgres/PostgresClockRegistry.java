package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.FlowRate;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimerRules;

/**
 * The registry of the PostgreSQL store's clocks (table {@code clocks}), the twin of the memory store's: create, read,
 * list, change the rate of and delete clocks, with the memory store's refusals ({@link ClockRules}). The clock {@value Limits#DEFAULT_CLOCK} always exists and cannot be deleted. Thread-safe and
 * safe across instances: creation is serialized by a transaction-level advisory lock (so the clock limit holds
 * when instances race), deletion locks the clock's row, so no add or advance of it runs meanwhile. A clock's row is
 * read and written by {@link ClockRows}; the statements are {@link ClockSql}'s.
 */
public final class PostgresClockRegistry {

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final int maxClocks;
    /** This instance's firing loop, told to look again after a rate change moved a scaled clock's deadlines. */
    private final FiringAlarm alarm;

    PostgresClockRegistry(Jdbc jdbc, PendingBudgetStripes budget, int maxClocks, FiringAlarm alarm) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.maxClocks = maxClocks;
        this.alarm = alarm;
    }

    /** What {@link #create} did: the clock, and whether it is new or was there with these settings. */
    public record Created(StoredClock clock, boolean created) {
    }

    /** Creates the default clock in {@code mode} unless it exists (as it was created, whatever mode it has). */
    void ensureDefault(ClockSettings.Mode mode) {
        jdbc.inTransaction(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(ClockSql.INSERT_DEFAULT)) {
                insert.setString(1, Limits.DEFAULT_CLOCK);
                insert.setString(2, StoredClock.sql(mode));
                insert.setString(3, StoredClock.sql(defaultDelivery(mode)));
                insert.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Creates the clock {@code name} with the default retry policy, or finds it with the same settings already there.
     *
     * @param now      a virtual clock's start; must be 0 for a system clock (whose now is the database's)
     * @param delivery what fired timers become; {@code null}: response for virtual clocks, queue for system ones
     * @throws ProblemException {@code invalid_id}, {@code invalid_request} (now out of range),
     *                            {@code clock_conflict}, {@code clock_limit}, {@code storage_unavailable}
     */
    public Created create(String name, ClockSettings.Mode mode, long now, ClockSettings.DeliveryMode delivery) {
        return create(name, mode, now, delivery, RetryPolicy.DEFAULT);
    }

    /**
     * Creates the clock {@code name} with the retry policy {@code retry}, or finds it with the same settings (the
     * same policy too) already there.
     *
     * @throws ProblemException as {@link #create(String, ClockSettings.Mode, long, ClockSettings.DeliveryMode)}
     */
    public Created create(String name, ClockSettings.Mode mode, long now, ClockSettings.DeliveryMode delivery,
                          RetryPolicy retry) {
        return create(name, now, ClockSettings.of(mode, delivery, retry));
    }

    /**
     * Creates the clock {@code name} with {@code settings} (a scaled clock runs from {@code now} at the database's
     * clock now), or finds it with the same settings (and now) already there.
     *
     * @throws ProblemException as {@link #create(String, ClockSettings.Mode, long, ClockSettings.DeliveryMode)}
     */
    public Created create(String name, long now, ClockSettings settings) {
        ClockSettings.Mode mode = settings.mode();
        ClockSettings.DeliveryMode delivery = settings.delivery();
        RetryPolicy retry = settings.retry();
        Long rate = settings.rate() == null ? null : settings.rate().millionths();
        ClockRules.requireValidClockName(name);
        ClockRules.requireClockNow(now);
        if (mode == ClockSettings.Mode.SYSTEM && now != 0) {
            throw ClockRules.systemClockNow(now);
        }
        return jdbc.inTransaction(connection -> {
            StoredClock existing = ClockRows.find(connection, name, "");
            if (existing == null) {
                ClockRows.lockCreation(connection);
                existing = ClockRows.find(connection, name, ""); // another instance may have created it meanwhile
            }
            if (existing != null) {
                ClockSettings made = existing.settings().asPut(); // overrides and a pause are set on their own
                if (existing.initialNow() != now || !made.equals(settings)) {
                    throw ClockRules.clockConflict(name, made, existing.initialNow(), settings, now);
                }
                return new Created(existing, false);
            }
            ClockRules.requireClockRoom(ClockRows.count(connection), maxClocks);
            ClockRows.insert(connection, name, settings, now);
            return new Created(ClockRows.find(connection, name, ""), true);
        });
    }

    /**
     * Changes the scaled clock {@code name}'s rate from its now on, in one transaction holding its row: the new
     * function is anchored at the database's clock now and the clock's time there, so the time is continuous; this
     * instance's firing loop looks again at once.
     *
     * @throws ProblemException {@code clock_not_found}, {@code clock_not_scaled}
     */
    public StoredClock rerate(String name, ClockRate rate) {
        StoredClock rerated = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, name, " FOR UPDATE");
            if (stored.mode() != ClockSettings.Mode.SCALED) {
                throw ClockRules.clockNotScaled(stored.mode());
            }
            try (PreparedStatement update = connection.prepareStatement(ClockSql.RERATE)) {
                update.setLong(1, rate.millionths());
                update.setString(2, name);
                update.executeUpdate();
            }
            return ClockRows.require(connection, name, "");
        });
        // its deadlines moved in the database's time: sooner ones (a faster rate) must not wait for the planned look;
        // other instances see them at their next look or slow poll, as a change they did not make
        alarm.dueIn(0);
        return rerated;
    }

    /**
     * Changes the live clock's settings (see {@link io.timeservice.store.ClockStore#change}) in one transaction that
     * locks its row: the settings column, the push target, the clock-wide bucket retuned to a changed rate keeping the
     * whole tokens it holds (as the memory store's {@code FlowReady.retuneClock}); claims waiting on any instance are
     * told, since a resumed clock hands out again. Every instance reads the clock's row at each claim and nack, so
     * all of them follow the change at once.
     */
    public StoredClock change(String name, ClockChange change) {
        return jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, name, " FOR UPDATE");
            ClockSettings settings = stored.settings();
            ClockSettings next = change.applyTo(settings);
            if (next.equals(settings)) {
                return stored;
            }
            ClockRows.change(connection, name, next);
            FlowRate was = settings.flow() == null ? null : settings.flow().clockRate();
            FlowRate rate = next.flow() == null ? null : next.flow().clockRate();
            if (!java.util.Objects.equals(was, rate)) {
                retuneClockBucket(connection, stored, was, rate);
            }
            ReadyWakeups.notify(connection, name);
            return ClockRows.require(connection, name, "");
        });
    }

    /** The clock's bucket (row {@code /}, when it has one) at {@code rate}, keeping the whole tokens it holds. */
    private static void retuneClockBucket(Connection connection, StoredClock stored, FlowRate was, FlowRate rate)
            throws SQLException {
        FlowBucket bucket = Jdbc.queryFirst(connection, FlowSql.KEY_ROW, select -> {
            select.setString(1, stored.name());
            select.setString(2, FlowSql.CLOCK_KEY);
        }, row -> FlowBucket.of(row.getObject(1, Long.class), row.getObject(2, Long.class)));
        if (bucket == null) {
            return; // made full at its first claim
        }
        FlowBucket after = FlowBucket.FULL;
        if (rate != null && was != null && bucket.refilledAt() != null) {
            long tokens = Math.min(rate.limit(), bucket.tokensAt(was, was.limit(), stored.now()));
            after = new FlowBucket(tokens * rate.periodMillis(), Math.max(stored.now(), bucket.refilledAt()));
        }
        try (PreparedStatement retune = connection.prepareStatement(ClockSql.RETUNE_CLOCK_BUCKET)) {
            retune.setObject(1, after.refilledAt() == null ? null : after.units(), Types.BIGINT);
            retune.setObject(2, after.refilledAt(), Types.BIGINT);
            retune.setString(3, stored.name());
            retune.executeUpdate();
        }
    }

    /** @throws ProblemException {@code clock_not_found} */
    public StoredClock get(String name) {
        return jdbc.autocommit(connection -> ClockRows.require(connection, name, ""));
    }

    /** Up to {@code limit} clocks by name, starting after {@code after} (null: from the first). */
    public List<StoredClock> list(int limit, String after) {
        TimerRules.requireLimit(limit);
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(ClockSql.LIST)) {
                select.setString(1, after);
                select.setInt(2, limit);
                List<StoredClock> page = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        page.add(ClockRows.clockOf(rows));
                    }
                }
                return page;
            }
        });
    }

    /**
     * Deletes the clock {@code name} with every timer and delivery it holds, giving back exactly the share of the
     * budget that the deletion removed ({@link ClockSql#DELETE_ROWS}).
     *
     * @throws ProblemException {@code clock_not_found}, {@code clock_undeletable} for the default clock
     */
    public void delete(String name) {
        jdbc.inTransaction(connection -> {
            ClockRows.require(connection, name, " FOR UPDATE");
            if (Limits.DEFAULT_CLOCK.equals(name)) {
                throw ClockRules.defaultClockUndeletable();
            }
            long[] released = Jdbc.queryOne(connection, ClockSql.DELETE_ROWS, delete -> {
                delete.setString(1, name);
                delete.setString(2, name);
            }, row -> new long[] {row.getLong(1), row.getLong(2), row.getLong(3)});
            ClockRows.deleteSchedules(connection, name);
            try (PreparedStatement counts = connection.prepareStatement(ClockSql.DELETE_COUNTS)) {
                counts.setString(1, name);
                counts.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement(ClockSql.DELETE)) {
                delete.setString(1, name);
                delete.executeUpdate();
            }
            budget.release(connection, released[0], released[1], released[2]);
            return null;
        });
    }

    /** Clocks that exist, the default one included. */
    public int count() {
        return jdbc.autocommit(ClockRows::count);
    }

    private static ClockSettings.DeliveryMode defaultDelivery(ClockSettings.Mode mode) {
        return mode == ClockSettings.Mode.VIRTUAL ? ClockSettings.DeliveryMode.RESPONSE
                : ClockSettings.DeliveryMode.QUEUE;
    }
}
