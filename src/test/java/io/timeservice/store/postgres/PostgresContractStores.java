package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.store.ClockStore;
import io.timeservice.store.FlowKeyStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.ScheduleStore;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.Stores;
import io.timeservice.store.TimerStore;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The PostgreSQL store for the contract suites, registered as an extension of a test class: one schema per class,
 * made by the first case and dropped after the last. Before each case opens a store on it ({@link #open}) its rows
 * are deleted, the rows the migrations seed put back and its sequences restarted, so every case starts as a fresh
 * store does (the default clock at 0, sequences from 1) without migrating a schema of its own.
 */
public final class PostgresContractStores implements AfterAllCallback {

    private final Class<?> owner;
    private final boolean throughPgBouncer;
    private TestDatabase database;
    /** With {@link #throughPgBouncer}: the pooler in front of the schema, and the store's pool on it. */
    private PgBouncer pgBouncer;
    private HikariDataSource pooled;
    /** Empties the schema: its statements, made once with the schema. */
    private String empty;

    /** The store of {@code owner}'s cases, on a schema of its own. */
    public PostgresContractStores(Class<?> owner) {
        this(owner, false);
    }

    private PostgresContractStores(Class<?> owner, boolean throughPgBouncer) {
        this.owner = owner;
        this.throughPgBouncer = throughPgBouncer;
    }

    /**
     * The store of {@code owner}'s cases on a schema of its own, its every call through a pgbouncer of the class's own
     * in transaction mode ({@link PgBouncer}), as production behind pgbouncer runs: each transaction may get another
     * server connection, so nothing of the store may rest on session state. The schema is made, emptied and read
     * directly.
     */
    public static PostgresContractStores throughPgBouncer(Class<?> owner) {
        return new PostgresContractStores(owner, true);
    }

    /** Creates and migrates the schema, and the statement that empties it. */
    private void createSchema() {
        database = TestDatabase.create(owner, 3);
        List<String> tables = names(database, """
                SELECT tablename FROM pg_tables WHERE schemaname = ? AND tablename <> 'flyway_schema_history'
                ORDER BY tablename""");
        List<String> sequences = names(database,
                "SELECT sequencename FROM pg_sequences WHERE schemaname = ? ORDER BY sequencename");
        StringBuilder statements = new StringBuilder();
        for (String table : tables) { // DELETE: cheaper than TRUNCATE on tables a case leaves a few rows in
            statements.append(" DELETE FROM ").append(table).append(';');
        }
        for (String table : tables) {
            // the rows the migrations seed (the budget's stripes, the schedule count): kept aside, put back
            if (database.queryLong("SELECT count(*) FROM " + table) > 0) {
                database.execute("CREATE TABLE fresh_" + table + " AS SELECT * FROM " + table);
                statements.append(" INSERT INTO ").append(table).append(" SELECT * FROM fresh_").append(table)
                        .append(';');
            }
        }
        for (String sequence : sequences) {
            statements.append(" ALTER SEQUENCE ").append(sequence).append(" RESTART;");
        }
        this.empty = statements.toString();
        if (throughPgBouncer) {
            pgBouncer = PgBouncer.start(database.schema());
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(pgBouncer.jdbcUrl());
            config.setMaximumPoolSize(3);
            config.setPoolName(database.schema() + "-pgbouncer");
            pooled = new HikariDataSource(config);
            TransactionPooling.requireNoServerPreparedStatements(pooled, "the pooled URL");
        }
    }

    private static List<String> names(TestDatabase database, String sql) {
        List<String> names = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, database.schema());
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    names.add(row.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }

    /** A store on the emptied schema, opened with {@code limits} as the configuration opens it. */
    public Stores open(Stores.Limits limits) {
        if (database == null) {
            createSchema();
        }
        database.execute(empty);
        PostgresStore store = PostgresStore.open(pooled != null ? pooled : database.dataSource(), limits.capacity(), limits.capacityBytes(),
                limits.maxClocks(), ClockSettings.Mode.VIRTUAL, StoreMetrics.NONE, PostgresStore.Timeouts.DEFAULT,
                new PostgresStore.Schedules(Stores.CRON, limits.maxSchedules(), limits.maxCatchUp()));
        if (limits.maxDeliveries() != Long.MAX_VALUE) {
            store.limitDeliveries(limits.maxDeliveries());
        }
        if (limits.maxReservations() != Long.MAX_VALUE) {
            store.limitReservations(limits.maxReservations());
        }
        return new Opened(store, database);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (pooled != null) {
            pooled.close();
            pooled = null;
        }
        if (pgBouncer != null) {
            pgBouncer.close();
            pgBouncer = null;
        }
        if (database != null) {
            database.close();
            database = null;
        }
    }

    private record Opened(PostgresStore store, TestDatabase database, TimerStore timers, DeliveryStore deliveries,
                          ClockStore clocks, ScheduleStore schedules) implements Stores {

        Opened(PostgresStore store, TestDatabase database) {
            this(store, database, new PostgresTimerStore(store), new PostgresDeliveryStore(store),
                    new PostgresClockStore(store), new PostgresScheduleStore(store));
        }

        @Override
        public List<Delivery> unacknowledged(String clock) {
            try (Connection connection = database.dataSource().getConnection();
                 PreparedStatement select = connection.prepareStatement("""
                         SELECT id, fire_time, priority, seq, payload, attempt, state, claim, lease_until, retry_at,
                                ready_at, dead_reason
                           FROM deliveries WHERE clock = ? AND state <> 'acked' ORDER BY seq""")) {
                select.setString(1, clock);
                List<Delivery> rows = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        rows.add(new Delivery(row.getString(1), row.getLong(2), row.getInt(3), row.getLong(4),
                                row.getString(5), row.getInt(6),
                                Delivery.State.valueOf(row.getString(7).toUpperCase(Locale.ROOT)), row.getString(8),
                                row.getLong(9), row.getLong(10), row.getLong(11), row.getString(12)));
                    }
                }
                return rows;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public FlowKeyStore flowKeys() {
            return new PostgresFlowKeyStore();
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
