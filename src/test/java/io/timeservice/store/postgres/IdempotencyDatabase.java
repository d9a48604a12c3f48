package io.timeservice.store.postgres;

import javax.sql.DataSource;

/** A migrated schema of its own for an {@code Idempotency-Key} suite outside this package. */
public final class IdempotencyDatabase implements AutoCloseable {

    private final TestDatabase database;

    public IdempotencyDatabase(Class<?> owner, int poolSize) {
        this.database = TestDatabase.create(owner, poolSize);
    }

    public DataSource dataSource() {
        return database.dataSource();
    }

    /** Deletes every key, as a fresh store has none. */
    public void empty() {
        database.execute("DELETE FROM idempotency_keys");
    }

    @Override
    public void close() {
        database.close();
    }
}
