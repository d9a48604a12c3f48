package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;

/**
 * How a clock row reads and is written (table {@code clocks}), on the caller's transaction: the clock a call runs
 * on, read with the lock it needs ({@link #require}), the row of a new clock, the creation lock and the clock count.
 * Every call of the store that names a clock reads it here first, so its row is locked before any timer, schedule or
 * delivery row (the store's lock order). The statements are {@link ClockSql}'s.
 */
final class ClockRows {

    /**
     * The advisory lock key that serializes clock creation over every instance of one store: combined with the
     * {@code clocks} table's OID, so that stores in other schemas of the same database do not wait for each other.
     */
    static final long CREATION_LOCK = 0x7469_6d65_636c_6bL;

    private ClockRows() {
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

    /** The clock {@code name} read with {@code lock} (a row-lock clause or ""), or null. */
    static StoredClock find(Connection connection, String name, String lock) throws SQLException {
        return Jdbc.queryFirst(connection, ClockSql.FIND + lock, select -> select.setString(1, name),
                ClockRows::clockOf);
    }

    /** Clocks that exist, the default one included. */
    static int count(Connection connection) throws SQLException {
        return Jdbc.queryOne(connection, ClockSql.COUNT, select -> { }, row -> row.getInt(1));
    }

    /** Takes the lock every creation of a clock holds to its transaction's end (names and the clock limit). */
    static void lockCreation(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(ClockSql.LOCK_CREATION)) {
            lock.setLong(1, CREATION_LOCK);
            lock.execute();
        }
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
            int next = bindSettings(insert, 6, settings);
            insert.setObject(next, rate, Types.BIGINT);
            insert.setObject(next + 1, rate, Types.BIGINT);
            bindPush(connection, insert, next + 2, settings.push());
            insert.executeUpdate();
        }
    }

    /** Binds the parameters of {@link ClockSql}'s settings column from {@code first} on; answers the next index. */
    private static int bindSettings(PreparedStatement statement, int first, ClockSettings settings)
            throws SQLException {
        RetryPolicy retry = settings.retry();
        statement.setInt(first, retry.maxAttempts());
        statement.setLong(first + 1, retry.initialBackoffMillis());
        statement.setDouble(first + 2, retry.multiplier());
        statement.setLong(first + 3, retry.maxBackoffMillis());
        statement.setDouble(first + 4, retry.jitter());
        statement.setObject(first + 5, retry.maxRetryDurationMillis() == 0 ? null : retry.maxRetryDurationMillis(),
                Types.BIGINT);
        statement.setLong(first + 6, settings.dedupeWindowMillis());
        statement.setString(first + 7, flowJson(settings.flow()));
        statement.setObject(first + 8, settings.paused() ? Boolean.TRUE : null, Types.BOOLEAN);
        return first + 9;
    }

    /**
     * Writes the live clock {@code name}'s changed settings (issue 47): call within the transaction that locked its
     * row and decided them.
     */
    static void change(Connection connection, String name, ClockSettings settings) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(ClockSql.CHANGE)) {
            int next = bindSettings(update, 1, settings);
            bindPush(connection, update, next, settings.push());
            update.setString(next + 6, name);
            update.executeUpdate();
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

    /** Deletes the clock's schedules and gives their count back to {@code timeservice.schedules.max}. */
    static void deleteSchedules(Connection connection, String clock) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(ClockSql.DELETE_SCHEDULES)) {
            delete.setString(1, clock);
            delete.executeUpdate();
        }
    }

    /** The clock in a row of {@link ClockSql#SELECT}'s columns. */
    static StoredClock clockOf(ResultSet row) throws SQLException {
        RetryPolicy retry = row.getObject(7) == null ? RetryPolicy.DEFAULT // a clock stored without a policy
                : new RetryPolicy(row.getInt(7), row.getLong(8), row.getDouble(9), row.getLong(10), row.getDouble(11),
                        row.getLong(32));
        Long rate = row.getObject(12, Long.class);
        ScaledTime scaled = rate == null ? null : new ScaledTime(row.getLong(13), row.getLong(14), new ClockRate(rate));
        return new StoredClock(row.getString(1), StoredClock.ofSql(ClockSettings.Mode.class, row.getString(2)),
                row.getLong(3), row.getLong(4), StoredClock.ofSql(ClockSettings.DeliveryMode.class, row.getString(5)), retry,
                row.getLong(6), scaled, pushOf(row), row.getLong(21), row.getLong(22), flowOf(row, 23),
                row.getBoolean(31));
    }

    /** Flow control in columns {@code first} to {@code first + 7}, or null for a clock without it. */
    private static FlowLimits flowOf(ResultSet row, int first) throws SQLException {
        Integer concurrency = row.getObject(first, Integer.class);
        FlowRate rate = rateOf(row, first + 1);
        Integer burst = row.getObject(first + 3, Integer.class);
        Integer clockConcurrency = row.getObject(first + 4, Integer.class);
        FlowRate clockRate = rateOf(row, first + 5);
        FlowLimits flow = new FlowLimits(concurrency, rate, burst, clockConcurrency, clockRate,
                keysOf(row.getString(first + 7)));
        return flow.limits() ? flow : null;
    }

    /**
     * The overrides of single keys as {@link ClockSql#SELECT} flattens them (key, concurrency, rate limit, rate period,
     * {@code -} for none, four words a key), by key; null for none.
     */
    private static SortedMap<String, FlowOverride> keysOf(String words) {
        if (words == null) {
            return null;
        }
        String[] word = words.split(" ");
        SortedMap<String, FlowOverride> keys = new TreeMap<>();
        for (int i = 0; i + 3 < word.length; i += 4) {
            Integer concurrency = "-".equals(word[i + 1]) ? null : Integer.valueOf(word[i + 1]);
            FlowRate rate = "-".equals(word[i + 2]) ? null
                    : new FlowRate(Long.parseLong(word[i + 2]), Long.parseLong(word[i + 3]));
            keys.put(word[i], new FlowOverride(concurrency, rate));
        }
        return keys;
    }

    /** An override of a single key as the {@code settings} column keeps it: the API's members, nulls left out. */
    static String overrideJson(FlowOverride override) {
        StringBuilder json = new StringBuilder("{");
        member(json, "concurrency", override.concurrency());
        rate(json, "rate", override.rate());
        return json.append('}').toString();
    }

    private static FlowRate rateOf(ResultSet row, int first) throws SQLException {
        Long limit = row.getObject(first, Long.class);
        return limit == null ? null : new FlowRate(limit, row.getLong(first + 1));
    }

    /** Flow control as the {@code settings} column keeps it: the API's members, nulls left out; null for none. */
    static String flowJson(FlowLimits flow) {
        if (flow == null) {
            return null;
        }
        StringBuilder json = new StringBuilder("{");
        member(json, "concurrency", flow.concurrency());
        rate(json, "rate", flow.rate());
        member(json, "burst", flow.burst());
        member(json, "clockConcurrency", flow.clockConcurrency());
        rate(json, "clockRate", flow.clockRate());
        if (!flow.keys().isEmpty()) {
            StringBuilder keys = new StringBuilder("{");
            for (Map.Entry<String, FlowOverride> key : flow.keys().entrySet()) {
                // keys follow the id rules: nothing in them needs escaping in JSON
                member(keys, key.getKey(), overrideJson(key.getValue()));
            }
            member(json, "keys", keys.append('}'));
        }
        return json.append('}').toString();
    }

    private static void member(StringBuilder json, String name, Object value) {
        if (value != null) {
            json.append(json.length() > 1 ? "," : "").append('"').append(name).append("\":").append(value);
        }
    }

    private static void rate(StringBuilder json, String name, FlowRate rate) {
        if (rate != null) {
            member(json, name, "{\"limit\":" + rate.limit() + ",\"period\":" + rate.periodMillis() + "}");
        }
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
            insert.setNull(first, Types.VARCHAR);
            insert.setNull(first + 1, Types.BIGINT);
            insert.setNull(first + 2, Types.INTEGER);
            for (int i = 3; i < 6; i++) {
                insert.setNull(first + i, Types.ARRAY);
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
}
