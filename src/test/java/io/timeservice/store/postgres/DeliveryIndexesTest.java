package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import io.timeservice.model.ClockSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every per-clock read of deliveries is O(that clock), shown by the plans PostgreSQL chooses with 1,000,000
 * acknowledged deliveries in the table (of another clock, and 1,000 of the clock read): no statement scans the table,
 * and the counts read none of the acknowledged rows.
 */
class DeliveryIndexesTest {

    private static final int ACKED = 1_000_000;
    private static TestDatabase database;

    @BeforeAll
    static void fillWithAcknowledgedDeliveries() {
        database = TestDatabase.create(DeliveryIndexesTest.class, 2);
        PostgresStore store = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 10,
                ClockSettings.Mode.VIRTUAL);
        store.clocks().create("busy", ClockSettings.Mode.SYSTEM, 0, null);
        store.clocks().create("q", ClockSettings.Mode.SYSTEM, 0, null);
        database.execute("""
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes,
                                        state, claim, done_at)
                SELECT n, CASE WHEN n <= 1000 THEN 'q' ELSE 'busy' END, 'd-' || n, n, 0, 1, 0, NULL, 5, 'acked',
                       gen_random_uuid(), n
                  FROM generate_series(1, %d) AS n""".formatted(ACKED));
        database.execute("""
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, bytes, state)
                SELECT n, 'q', 'r-' || n, n, 0, 1, 0, 5, 'ready' FROM generate_series(%d, %d) AS n"""
                .formatted(ACKED + 1, ACKED + 10));
        database.execute("ANALYZE deliveries");
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Test
    void theCountsOfAClock_readOnlyItsUnacknowledgedRows() throws SQLException {
        String plan = plan(DeliverySql.COUNTS, "'q'");

        // the budget's 16 stripes (the delivery limit's total) are read whole, as they must be
        assertThat(plan).doesNotContain("Seq Scan on deliveries").contains("deliveries_pending_by_clock");
        assertThat(plan(DeliverySql.COUNTS, "'busy'")).doesNotContain("Seq Scan on deliveries")
                .contains("deliveries_pending_by_clock");
        assertThat(plan(DeliverySql.COUNT_IN_STATE, "'q'", "'ready'")).doesNotContain("Seq Scan");
        // executed: the 1,000,000 acknowledged rows are not read, only the clock's 10 ready ones
        assertThat(rowsRead(DeliverySql.COUNTS, "'busy'")).isZero();
        assertThat(rowsRead(DeliverySql.COUNTS, "'q'")).isEqualTo(10);
    }

    @Test
    void deletingOrResettingAClock_readsOnlyItsRows() throws SQLException {
        for (String sql : Map.of("deletion", ClockSql.DELETE_ROWS,
                "reset", "DELETE FROM deliveries WHERE clock = ? RETURNING bytes, state <> 'acked'",
                "the foreign key's cascade", "DELETE FROM ONLY deliveries WHERE clock = ?").values()) {
            assertThat(plan(sql, "'q'", "'q'")).as(sql).doesNotContain("Seq Scan on deliveries")
                    .contains("deliveries_by_clock");
        }
    }

    /** The plan of {@code sql} with its parameters replaced, in order, by the SQL literals given. */
    private static String plan(String sql, String... literals) throws SQLException {
        return explain("EXPLAIN ", sql, literals);
    }

    /** How many rows the scans of deliveries returned when {@code sql} ran (in a transaction rolled back). */
    private static long rowsRead(String sql, String... literals) throws SQLException {
        String analyzed = explain("EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) ", sql, literals);
        long rows = 0;
        for (String line : analyzed.split("\n")) {
            if (line.contains(" on deliveries") || line.contains("using deliveries")) {
                java.util.regex.Matcher actual = java.util.regex.Pattern.compile("actual rows=(\\d+)").matcher(line);
                if (actual.find()) {
                    rows += Long.parseLong(actual.group(1));
                }
            }
        }
        return rows;
    }

    private static String explain(String explain, String sql, String... literals) throws SQLException {
        String bound = sql;
        for (String literal : literals) {
            bound = bound.replaceFirst("\\?", literal);
        }
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery(explain + bound)) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            } finally {
                connection.rollback();
            }
            return plan.toString();
        }
    }
}
