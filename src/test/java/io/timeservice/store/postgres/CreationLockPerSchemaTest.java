package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;

import io.timeservice.model.ClockSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The clock-creation lock is the store's own: a store in another schema of the same database creates its clocks while
 * this one holds the lock (a long fork or load, say), where one key for the whole database made it wait until its lock
 * timeout and answer 503.
 */
class CreationLockPerSchemaTest {

    private TestDatabase mine;
    private TestDatabase other;

    @BeforeEach
    void open() {
        mine = TestDatabase.create(CreationLockPerSchemaTest.class, 2);
        other = TestDatabase.create(PostgresClockRegistry.class, 2);
    }

    @AfterEach
    void close() {
        mine.close();
        other.close();
    }

    @Test
    void aStoreInAnotherSchema_createsClocks_whileThisOneHoldsItsCreationLock() throws SQLException {
        PostgresStore otherStore = PostgresStore.open(other.dataSource(), 1_000, 1_000_000, 10,
                ClockSettings.Mode.VIRTUAL);
        PostgresStore myStore = PostgresStore.open(mine.dataSource(), 1_000, 1_000_000, 10,
                ClockSettings.Mode.VIRTUAL);
        try (Connection holding = mine.dataSource().getConnection()) {
            holding.setAutoCommit(false);
            ClockRows.lockCreation(holding);

            assertThat(otherStore.clocks().create("ci", ClockSettings.Mode.VIRTUAL, 0, null).clock().name())
                    .isEqualTo("ci");
            // and the lock still serializes this store's own creations: the same key, taken by a second transaction
            try (Connection second = mine.dataSource().getConnection()) {
                second.setAutoCommit(false);
                assertThat(tryLockCreation(second)).as("the key is this store's").isFalse();
                second.rollback();
            }
            holding.rollback();
        } finally {
            myStore.close();
            otherStore.close();
        }
    }

    /** {@code pg_try_advisory_xact_lock} on the key {@link ClockRows#lockCreation} takes. */
    private static boolean tryLockCreation(Connection connection) throws SQLException {
        try (var lock = connection.prepareStatement(
                "SELECT pg_try_advisory_xact_lock(? # 'clocks'::regclass::oid::bigint)")) {
            lock.setLong(1, ClockRows.CREATION_LOCK);
            try (var row = lock.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            }
        }
    }
}
