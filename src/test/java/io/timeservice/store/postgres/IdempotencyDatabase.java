package io.timeservice.store.postgres;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A migrated schema of its own for an {@code Idempotency-Key} suite outside this package (register it as a static
 * extension: made at first use, dropped after the class's cases), reached directly or, with
 * {@link #throughPgBouncer}, through a pgbouncer of its own in transaction mode.
 */
public final class IdempotencyDatabase implements AfterAllCallback {

    private final Class<?> owner;
    private final int poolSize;
    private final boolean throughPgBouncer;
    private TestDatabase database;
    /** With {@link #throughPgBouncer}: the pooler in front of the schema, and the store's pool on it; else null. */
    private PgBouncer pgBouncer;
    private HikariDataSource pooled;

    /** The schema of {@code owner}'s cases, reached directly through a pool of {@code poolSize}. */
    public IdempotencyDatabase(Class<?> owner, int poolSize) {
        this(owner, poolSize, false);
    }

    private IdempotencyDatabase(Class<?> owner, int poolSize, boolean throughPgBouncer) {
        this.owner = owner;
        this.poolSize = poolSize;
        this.throughPgBouncer = throughPgBouncer;
    }

    /**
     * The schema behind a pgbouncer of its own in transaction mode ({@code prepareThreshold=0}): each transaction may
     * get another server connection, so nothing of the store may rest on session state. Emptied directly.
     */
    public static IdempotencyDatabase throughPgBouncer(Class<?> owner, int poolSize) {
        return new IdempotencyDatabase(owner, poolSize, true);
    }

    private TestDatabase database() {
        if (database == null) {
            database = TestDatabase.create(owner, poolSize);
            if (throughPgBouncer) {
                pgBouncer = PgBouncer.start(database.schema());
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(pgBouncer.jdbcUrl());
                config.setMaximumPoolSize(poolSize);
                config.setPoolName(database.schema() + "-pgbouncer");
                pooled = new HikariDataSource(config);
                TransactionPooling.requireNoServerPreparedStatements(pooled, "the pooled URL");
            }
        }
        return database;
    }

    /** Where the store under test connects: the pooler when there is one, else the schema directly. */
    public DataSource dataSource() {
        TestDatabase direct = database();
        return pooled != null ? pooled : direct.dataSource();
    }

    /** Deletes every key, as a fresh store has none. */
    public void empty() {
        database().execute("DELETE FROM idempotency_keys");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (pooled != null) {
            pooled.close();
            pgBouncer.close();
        }
        if (database != null) {
            database.close();
        }
    }
}
