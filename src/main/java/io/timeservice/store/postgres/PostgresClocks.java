package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.TimerRules;

/**
 * The clocks of the PostgreSQL store (table {@code clocks}): create, read, list and delete, with the memory store's
 * refusals ({@link ClockRules}). The clock {@value Limits#DEFAULT_CLOCK} always exists and cannot be deleted. Thread-safe and
 * safe across instances: creation is serialized by a transaction-level advisory lock (so the clock limit holds
 * when instances race), deletion locks the clock's row, so no add or advance of it runs meanwhile. The statements
 * are {@link ClockSql}'s.
 */
public final class PostgresClocks {

    /**
     * The advisory lock key that serializes clock creation over every instance of one store: combined with the
     * {@code clocks} table's OID, so that stores in other schemas of the same database do not wait for each other.
     */
    static final long CREATION_LOCK = 0x7469_6d65_636c_6bL;

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final int maxClocks;
    /** This instance's firing loop, told to look again after a rate change moved a scaled clock's deadlines. */
    private final FiringAlarm alarm;

    PostgresClocks(Jdbc jdbc, PendingBudgetStripes budget, int maxClocks, FiringAlarm alarm) {
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
            StoredClock existing = find(connection, name, "");
            if (existing == null) {
                lockCreation(connection);
                existing = find(connection, name, ""); // another instance may have created it meanwhile
            }
            if (existing != null) {
                if (existing.initialNow() != now || !existing.settings().equals(settings)) {
                    throw ClockRules.clockConflict(name, existing.settings(), existing.initialNow(), settings, now);
                }
                return new Created(existing, false);
            }
            ClockRules.requireClockRoom(count(connection), maxClocks);
            insert(connection, name, settings, now);
            return new Created(find(connection, name, ""), true);
        });
    }

    /** Inserts the row of a new clock; call within the transaction that decided it may (holding the creation lock). */
    static void insert(Connection connection, String name, ClockSettings settings, long now) throws SQLException {
        Long rate = settings.rate() == null ? null : settings.rate().millionths();
        try (PreparedStatement insert = connection.prepareStatement(ClockSql.INSERT)) {
            RetryPolicy retry = settings.retry();
            insert.setString(1, name);
            insert.setString(2, StoredClock.sql(settings.mode()));
            insert.setLong(3, now);
            insert.setLong(4, now);
            insert.setString(5, StoredClock.sql(settings.delivery()));
            insert.setInt(6, retry.maxAttempts());
            insert.setLong(7, retry.initialBackoffMillis());
            insert.setDouble(8, retry.multiplier());
            insert.setLong(9, retry.maxBackoffMillis());
            insert.setDouble(10, retry.jitter());
            insert.setObject(11, rate, java.sql.Types.BIGINT);
            insert.setObject(12, rate, java.sql.Types.BIGINT);
            bindPush(connection, insert, 13, settings.push());
            insert.executeUpdate();
        }
    }

    /**
     * Sets the time up to which the new virtual clock {@code name} has fired every due timer, before its now: a loaded
     * document's timers due before its now stay pending ({@link io.timeservice.model.ClockSnapshot#firedThrough}).
     */
    static void firedThrough(Connection connection, String name, long firedThrough) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(ClockSql.FIRED_THROUGH)) {
            update.setLong(1, firedThrough);
            update.setString(2, name);
            update.executeUpdate();
        }
    }

    /** Takes the lock every creation of a clock holds to its transaction's end (names and the clock limit). */
    static void lockCreation(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(ClockSql.LOCK_CREATION)) {
            lock.setLong(1, CREATION_LOCK);
            lock.execute();
        }
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
            StoredClock stored = require(connection, name, " FOR UPDATE");
            if (stored.mode() != ClockSettings.Mode.SCALED) {
                throw ClockRules.clockNotScaled(stored.mode());
            }
            try (PreparedStatement update = connection.prepareStatement(ClockSql.RERATE)) {
                update.setLong(1, rate.millionths());
                update.setString(2, name);
                update.executeUpdate();
            }
            return require(connection, name, "");
        });
        // its deadlines moved in the database's time: sooner ones (a faster rate) must not wait for the planned look;
        // other instances see them at their next look or slow poll, as a change they did not make
        alarm.dueIn(0);
        return rerated;
    }

    /** @throws ProblemException {@code clock_not_found} */
    public StoredClock get(String name) {
        return jdbc.autocommit(connection -> require(connection, name, ""));
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
                        page.add(clockOf(rows));
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
            require(connection, name, " FOR UPDATE");
            if (Limits.DEFAULT_CLOCK.equals(name)) {
                throw ClockRules.defaultClockUndeletable();
            }
            long timers;
            long bytes;
            long deliveries;
            try (PreparedStatement delete = connection.prepareStatement(ClockSql.DELETE_ROWS)) {
                delete.setString(1, name);
                delete.setString(2, name);
                try (ResultSet released = delete.executeQuery()) {
                    released.next();
                    timers = released.getLong(1);
                    bytes = released.getLong(2);
                    deliveries = released.getLong(3);
                }
            }
            deleteSchedules(connection, name);
            try (PreparedStatement delete = connection.prepareStatement(ClockSql.DELETE)) {
                delete.setString(1, name);
                delete.executeUpdate();
            }
            budget.release(connection, timers, bytes, deliveries);
            return null;
        });
    }

    /** Deletes the clock's schedules and gives their count back to {@code timeservice.schedules.max}. */
    static void deleteSchedules(Connection connection, String clock) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(ClockSql.DELETE_SCHEDULES)) {
            delete.setString(1, clock);
            delete.executeUpdate();
        }
    }

    /** Clocks that exist, the default one included. */
    public int count() {
        return jdbc.autocommit(PostgresClocks::count);
    }

    static int count(Connection connection) throws SQLException {
        return Jdbc.queryOne(connection, ClockSql.COUNT, select -> { }, row -> row.getInt(1));
    }

    /**
     * The clock {@code name}, read with {@code lock} (a row-lock clause or ""), on the caller's transaction.
     *
     * @throws ProblemException {@code clock_not_found}, also for a name no clock could have
     */
    static StoredClock require(Connection connection, String name, String lock) throws SQLException {
        return found(name, name == null ? null : find(connection, name, lock));
    }

    /**
     * The clock a read of {@code name} found.
     *
     * @throws ProblemException {@code clock_not_found} when it found none
     */
    static StoredClock found(String name, StoredClock clock) {
        if (clock == null) {
            throw ClockRules.clockNotFound(name);
        }
        return clock;
    }

    static StoredClock find(Connection connection, String name, String lock) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(ClockSql.FIND + lock)) {
            select.setString(1, name);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? clockOf(row) : null;
            }
        }
    }

    /** The clock in a row of {@link ClockSql#SELECT}'s columns. */
    static StoredClock clockOf(ResultSet row) throws SQLException {
        RetryPolicy retry = row.getObject(7) == null ? RetryPolicy.DEFAULT // a clock stored without a policy
                : new RetryPolicy(row.getInt(7), row.getLong(8), row.getDouble(9), row.getLong(10), row.getDouble(11));
        Long rate = row.getObject(12, Long.class);
        ScaledTime scaled = rate == null ? null : new ScaledTime(row.getLong(13), row.getLong(14), new ClockRate(rate));
        return new StoredClock(row.getString(1), StoredClock.ofSql(ClockSettings.Mode.class, row.getString(2)),
                row.getLong(3), row.getLong(4), StoredClock.ofSql(ClockSettings.DeliveryMode.class, row.getString(5)), retry,
                row.getLong(6), scaled, pushOf(row), row.getLong(21));
    }

    /** The push target in columns 15 to 20, or null for a clock without one. */
    private static PushTarget pushOf(ResultSet row) throws SQLException {
        String url = row.getString(15);
        if (url == null) {
            return null;
        }
        String[] names = strings(row, 18);
        String[] values = strings(row, 19);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            headers.put(names[i], values[i]);
        }
        return new PushTarget(url, row.getLong(16), row.getInt(17), headers, List.of(strings(row, 20)));
    }

    private static String[] strings(ResultSet row, int column) throws SQLException {
        java.sql.Array array = row.getArray(column);
        return array == null ? new String[0] : (String[]) array.getArray();
    }

    /** Writes {@code push} (null: none) into the {@code push_*} columns bound from {@code first} on. */
    private static void bindPush(Connection connection, PreparedStatement insert, int first, PushTarget push)
            throws SQLException {
        if (push == null) {
            insert.setNull(first, java.sql.Types.VARCHAR);
            insert.setNull(first + 1, java.sql.Types.BIGINT);
            insert.setNull(first + 2, java.sql.Types.INTEGER);
            for (int i = 3; i < 6; i++) {
                insert.setNull(first + i, java.sql.Types.ARRAY);
            }
            return;
        }
        insert.setString(first, push.url());
        insert.setLong(first + 1, push.timeoutMillis());
        insert.setInt(first + 2, push.concurrency());
        insert.setArray(first + 3, connection.createArrayOf("text", push.headers().keySet().toArray()));
        insert.setArray(first + 4, connection.createArrayOf("text", push.headers().values().toArray()));
        insert.setArray(first + 5, connection.createArrayOf("text", push.secrets().toArray()));
    }

    private static ClockSettings.DeliveryMode defaultDelivery(ClockSettings.Mode mode) {
        return mode == ClockSettings.Mode.VIRTUAL ? ClockSettings.DeliveryMode.RESPONSE
                : ClockSettings.DeliveryMode.QUEUE;
    }

}
