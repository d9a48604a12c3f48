package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The firing loop's look ({@link FiringLookSql}, issue 29): it reads system clocks' passed times from global indexes
 * of their rows only ({@code system_clock}, V18), so what it finds is what is due, however many idle and virtual
 * clocks there are; a full window of passed times is followed at once by the rest; and V18 marks the rows an existing
 * database holds, and those that instances older than it insert.
 */
class FiringLookSqlTest {

    private static final Duration NEVER_IN_THIS_TEST = Duration.ofMinutes(10);
    private static final int IDLE_CLOCKS = 2_000;

    private TestDatabase database;
    private PostgresStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void aDueSystemClock_amongManyIdleAndVirtualOnes_isWhatTheLookFinds_andFires() throws Exception {
        open(IDLE_CLOCKS * 2 + 10);
        // rows inserted as an instance older than V18 would, without the flag: its trigger sets it
        database.execute("""
                INSERT INTO clocks (name, mode, now_ms, initial_now, delivery)
                SELECT CASE WHEN k %% 2 = 0 THEN 'idle-' ELSE 'virtual-' END || k,
                       CASE WHEN k %% 2 = 0 THEN 'system' ELSE 'virtual' END, 0, 0, 'queue'
                  FROM generate_series(1, %d) AS k""".formatted(2 * IDLE_CLOCKS));
        // idle system clocks: due in an hour; virtual clocks: times of their own frame, long past as the
        // database's clock, with a lease and a retry as old
        database.execute("""
                INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes)
                SELECT name, 't', CASE WHEN mode = 'system' THEN db_now_ms() + 3600000 ELSE 5 END, 0, 0, NULL, 1
                  FROM clocks WHERE name LIKE 'idle-%' OR name LIKE 'virtual-%'""");
        database.execute("""
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, bytes, state, claim,
                                        lease_until, retry_at)
                SELECT nextval('timer_sequence'), name, s.state, 5, 0, 1, 0, 1, s.state,
                       CASE WHEN s.state = 'in_flight' THEN gen_random_uuid() END,
                       CASE WHEN s.state = 'in_flight' THEN 5 END, CASE WHEN s.state = 'waiting' THEN 5 END
                  FROM clocks, (VALUES ('in_flight'), ('waiting')) AS s (state)
                 WHERE name LIKE 'virtual-%'""");
        database.analyze();
        store.clocks().create("due", ClockSettings.Mode.SYSTEM, 0, null);
        store.timerChanges().add("due", "now", 0, 0, null);

        List<String> found = new ArrayList<>();
        long passedRead;
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement look = connection.prepareStatement(FiringLookSql.look(100))) {
            try (ResultSet rows = look.executeQuery()) {
                passedRead = 0;
                while (rows.next()) {
                    passedRead = rows.getLong(2);
                    found.add(rows.getString(3));
                }
            }
        }

        assertThat(passedRead).as("passed times read").isEqualTo(1);
        // the due clock, and the clock of the first timer to come (one idle clock), nothing of a virtual clock
        assertThat(found).hasSize(2).contains("due").allMatch(name -> name.equals("due") || name.startsWith("idle-"));

        store.startFiring(new PostgresFiringLoop.Settings(NEVER_IN_THIS_TEST, 100, Duration.ofMinutes(5),
                NEVER_IN_THIS_TEST));
        Counts.awaitAtLeast(() -> (int) database.queryLong(
                "SELECT count(*) FROM deliveries WHERE clock = 'due' AND state = 'ready'"), 1, "the due timer ready");
        assertThat(database.queryLong("SELECT count(*) FROM timers WHERE clock LIKE 'virtual-%'"))
                .as("virtual clocks' timers, which only an advance fires").isEqualTo(IDLE_CLOCKS);
        assertThat(database.queryLong("SELECT count(*) FROM deliveries WHERE clock LIKE 'virtual-%' AND state"
                + " IN ('in_flight', 'waiting')")).as("virtual clocks' leases and retries").isEqualTo(2L * IDLE_CLOCKS);
        assertThat(store.firing().failedLooks()).isZero();
    }

    @Test
    void aFullWindowOfPassedTimes_isFollowedAtOnce_byTheRest() throws Exception {
        open(20);
        int clocks = 5;
        int perClock = 30;
        for (int c = 0; c < clocks; c++) {
            store.clocks().create("s" + c, ClockSettings.Mode.SYSTEM, 0, null);
            List<BatchOp> adds = new ArrayList<>();
            for (int i = 0; i < perClock; i++) {
                adds.add(new BatchOp.Add("t" + i, 0, 0, null));
            }
            store.timerChanges().batch("s" + c, adds);
        }

        // windows and rounds of 10: each look sees a tenth of what is due; only looking again at once (the slow
        // poll is 10 minutes) fires the rest
        store.startFiring(new PostgresFiringLoop.Settings(NEVER_IN_THIS_TEST, 10, Duration.ofMinutes(5),
                NEVER_IN_THIS_TEST));

        Counts.awaitAtLeast(() -> (int) database.queryLong("SELECT count(*) FROM deliveries WHERE state = 'ready'"),
                clocks * perClock, "every timer ready");
        assertThat(database.queryLong("SELECT count(*) FROM timers")).isZero();
    }

    /**
     * The look runs on one plan per connection (it has no parameter): a plan made while the tables were analysed empty
     * reads them whole, and an {@code ANALYZE} that sees them grown makes the connection plan the look again, on the
     * global indexes.
     */
    @Test
    void theLooksCachedPlan_madeOnEmptyTables_isMadeAgainOnTheIndexes_afterAnAnalyzeOfTheGrownTables()
            throws Exception {
        open(10);
        store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
        database.analyze();
        String look = FiringLookSql.look(100);
        try (Connection connection = database.dataSource().getConnection()) {
            QueryPlans.run(connection, look, 6);
            assertThat(QueryPlans.failures("made on empty tables", QueryPlans.LOOK_GLOBAL_INDEXES,
                    QueryPlans.cachedPlan(connection, look).plan())).as("sequential scans").isNotEmpty();

            // 100,000 timers and deliveries in an order of their own (n * 7919 mod 100,000), none due
            database.execute("""
                    INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes, system_clock)
                    SELECT 's', 't' || n, db_now_ms() + 3600000 + n * 7919 % 100000, 0, 0, NULL, 1, true
                      FROM generate_series(1, 100000) AS n""");
            database.execute("""
                    INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, bytes, state,
                                            claim, lease_until, retry_at, system_clock)
                    SELECT nextval('timer_sequence'), 's', 'd' || n, 0, 0, 1, 0, 1, s.state,
                           CASE WHEN s.state = 'in_flight' THEN gen_random_uuid() END,
                           CASE WHEN s.state = 'in_flight' THEN db_now_ms() + 3600000 + n * 7919 % 100000 END,
                           CASE WHEN s.state = 'waiting' THEN db_now_ms() + 3600000 + n * 7919 % 100000 END, true
                      FROM generate_series(1, 100000) AS n,
                           LATERAL (SELECT CASE n % 4 WHEN 0 THEN 'in_flight' WHEN 1 THEN 'waiting'
                                                       ELSE 'ready' END AS state) s""");
            database.analyze();
            QueryPlans.run(connection, look, 1);

            QueryPlans.Cached cached = QueryPlans.cachedPlan(connection, look);
            assertThat(cached.customPlans()).as("custom plans").isZero();
            assertThat(QueryPlans.failures("made after the ANALYZE", QueryPlans.LOOK_GLOBAL_INDEXES, cached.plan()))
                    .isEmpty();
        }
    }

    @Test
    void v18_marksTheRowsOfSystemClocks_inAnExistingDatabase() throws Exception {
        String schema = TestDatabase.schemaNameFor(FiringLookSqlTest.class);
        try {
            migrate(schema, "17");
            flagsAfterV18(schema);
        } finally {
            TestDatabase.dropSchema(schema);
        }
    }

    /** Rows of a system, a virtual and a scaled clock inserted before V18, then the flagged ones after it. */
    private static void flagsAfterV18(String schema) throws Exception {
        try (Connection connection = DriverManager.getConnection(TestDatabase.withSchema(TestDatabase.URL, schema));
             Statement statement = connection.createStatement()) {
            statement.execute("""
                    INSERT INTO clocks (name, mode, now_ms, initial_now, delivery, rate_millionths, anchor_wall)
                    VALUES ('s', 'system', 0, 0, 'queue', NULL, NULL), ('v', 'virtual', 0, 0, 'queue', NULL, NULL),
                           ('x', 'scaled', 0, 0, 'queue', 2000000, 0)""");
            statement.execute("""
                    INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes)
                    SELECT name, 't', 5, 0, 0, NULL, 1 FROM clocks""");
            statement.execute("""
                    INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, bytes, state,
                                            retry_at)
                    SELECT nextval('timer_sequence'), name, 'd', 5, 0, 1, 0, 1, 'waiting', 5 FROM clocks""");

            migrate(schema, "latest");

            try (ResultSet flagged = statement.executeQuery("""
                    SELECT 'timers ' || clock FROM timers WHERE system_clock
                    UNION ALL SELECT 'deliveries ' || clock FROM deliveries WHERE system_clock""")) {
                List<String> rows = new ArrayList<>();
                while (flagged.next()) {
                    rows.add(flagged.getString(1));
                }
                assertThat(rows).containsExactlyInAnyOrder("timers s", "deliveries s");
            }
        }
    }

    private static void migrate(String schema, String target) {
        Flyway.configure().dataSource(TestDatabase.URL, null, null).schemas(schema).defaultSchema(schema)
                .locations(PostgresStore.MIGRATIONS).configuration(PostgresStore.FLYWAY_SETTINGS).target(target)
                .load().migrate();
    }

    private void open(int maxClocks) {
        database = TestDatabase.create(FiringLookSqlTest.class, 4);
        store = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, maxClocks,
                ClockSettings.Mode.VIRTUAL);
    }
}
