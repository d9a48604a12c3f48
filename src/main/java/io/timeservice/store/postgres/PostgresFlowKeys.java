package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.FlowRules;

/**
 * Overrides of single keys on a clock with flow control, and its busiest keys, on the PostgreSQL store (issue 44),
 * with the memory store's semantics ({@code ClockFlowKeys}): an override is part of the clock's settings
 * ({@code clocks.settings -> flow.keys}), so forks and snapshot documents carry it; a change reaches the key's row at
 * once (its concurrency, its bucket retuned keeping the whole tokens it holds, and its turn when it may hand out a
 * delivery now), in the transaction that changes the settings. A change locks the clock's row, so two changes of one
 * clock (and the bound of {@link FlowRules#MAX_KEY_OVERRIDES}) are decided one after the other. The statements are
 * {@link FlowSql}'s.
 */
public final class PostgresFlowKeys {

    private final Jdbc jdbc;

    PostgresFlowKeys(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** See {@link io.timeservice.store.FlowKeyStore#put}. */
    public boolean put(String clock, String key, FlowOverride override) {
        return jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR UPDATE");
            FlowRules.requireOverride(stored.settings(), key, override);
            boolean created = !stored.flow().keys().containsKey(key);
            try (PreparedStatement put = connection.prepareStatement(FlowSql.PUT_KEY)) {
                put.setString(1, key);
                put.setString(2, ClockRows.overrideJson(override));
                put.setString(3, clock);
                put.executeUpdate();
            }
            retune(connection, stored, stored.flow().withKey(key, override), key);
            return created;
        });
    }

    /** See {@link io.timeservice.store.FlowKeyStore#get}. */
    public FlowOverride get(String clock, String key) {
        return jdbc.autocommit(connection -> FlowRules.requireOverrideOf(
                ClockRows.require(connection, clock, "").settings(), key));
    }

    /** See {@link io.timeservice.store.FlowKeyStore#delete}. */
    public void delete(String clock, String key) {
        jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR UPDATE");
            FlowRules.requireOverrideOf(stored.settings(), key);
            try (PreparedStatement delete = connection.prepareStatement(FlowSql.DELETE_KEY)) {
                delete.setString(1, key);
                delete.setString(2, clock);
                delete.executeUpdate();
            }
            retune(connection, stored, stored.flow().withKey(key, null), key);
            return null;
        });
    }

    /**
     * The key's row (when it has one) under {@code next}: its concurrency, its bucket at the new rate holding the whole
     * tokens it held (at most the new bucket's size; a bucket never used stays full), a new turn when it may hand out
     * now; claims waiting on any instance are told.
     */
    private static void retune(Connection connection, StoredClock stored, FlowLimits next, String key)
            throws SQLException {
        FlowBucket bucket = Jdbc.queryFirst(connection, FlowSql.KEY_ROW, select -> {
            select.setString(1, stored.name());
            select.setString(2, key);
        }, row -> FlowBucket.of(row.getObject(1, Long.class), row.getObject(2, Long.class)));
        if (bucket == null) {
            return; // its row is made with its limits when its first delivery is
        }
        FlowLimits before = stored.flow();
        FlowRate was = before.rateOf(key);
        FlowRate rate = next.rateOf(key);
        FlowBucket after = FlowBucket.FULL;
        if (rate != null && was != null && bucket.refilledAt() != null) {
            long tokens = Math.min(next.burstOf(key), bucket.tokensAt(was, before.burstOf(key), stored.now()));
            after = new FlowBucket(tokens * rate.periodMillis(), Math.max(stored.now(), bucket.refilledAt()));
        }
        int concurrency = next.concurrencyOf(key) == null ? Integer.MAX_VALUE : next.concurrencyOf(key);
        try (PreparedStatement retune = connection.prepareStatement(FlowSql.RETUNE)) {
            retune.setInt(1, concurrency);
            retune.setObject(2, after.refilledAt() == null ? null : after.units(), Types.BIGINT);
            retune.setObject(3, after.refilledAt(), Types.BIGINT);
            retune.setInt(4, concurrency);
            retune.setString(5, stored.name());
            retune.setString(6, key);
            retune.executeUpdate();
        }
        ReadyWakeups.notify(connection, stored.name()); // a key under a raised limit may hand out now
    }

    /** See {@link io.timeservice.store.FlowKeyStore#busiest}. */
    public List<FlowKeyState> busiest(String clock, int n) {
        return jdbc.autocommit(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, "");
            FlowLimits limits = stored.flow();
            List<FlowKeyState> busiest = new ArrayList<>();
            if (limits == null) {
                return busiest;
            }
            try (PreparedStatement select = connection.prepareStatement(FlowSql.BUSIEST)) {
                select.setString(1, clock);
                select.setInt(2, n);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        busiest.add(stateOf(row, limits, stored.now()));
                    }
                }
            }
            return busiest;
        });
    }

    /** A row of {@link FlowSql#BUSIEST} as the API shows it, at the clock's {@code now}. */
    private static FlowKeyState stateOf(ResultSet row, FlowLimits limits, long now) throws SQLException {
        String key = row.getString(1);
        int ready = row.getInt(2);
        int inFlight = row.getInt(3);
        FlowRate rate = limits.rateOf(key);
        Long tokens = rate == null ? null : FlowBucket.of(row.getObject(5, Long.class), row.getObject(6, Long.class))
                .tokensAt(rate, limits.burstOf(key), now);
        boolean held = inFlight >= row.getInt(4) || tokens != null && tokens == 0;
        return new FlowKeyState(key, ready, inFlight, held ? ready : 0, limits.concurrencyOf(key), rate, tokens,
                limits.keys().get(key));
    }
}
