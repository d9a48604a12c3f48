package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.timeservice.model.ClockSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every statement of the PostgreSQL store that reads or writes {@code timers}, {@code deliveries} or {@code flow_keys}
 * (or {@code timer_counts}) is planned with an index at 1,000,000 rows in each of the first two (1,000 clocks of 1,000
 * timers and 1,000 deliveries, 60% of them acked, every delivery under a flow key), 10,000 keys of one clock in
 * {@code flow_keys} (beside 100 of each other clock) and 16 pending counts of each clock in {@code timer_counts}:
 * {@code EXPLAIN (FORMAT JSON)} with the parameters a call binds must show no sequential scan of any of them, and,
 * where one index is the point of the statement, that index. The statements are found by reflection (every
 * {@code static final String} of the package's classes that starts as SQL and names one of the tables,
 * {@link StoreStatements#named}), so a new statement without a case here fails
 * {@link #everyStatementOfTheStore_hasAPlanCase}; {@link NamedStatementsTest} keeps every statement a named constant.
 *
 * <p>The plans are the custom plans of the first executions; pgjdbc prepares server-side after five, and PostgreSQL
 * keeps a generic plan only when it costs no more than these.
 */
class StatementPlansTest {

    private static final int ROWS = 1_000_000;
    private static final int CLOCKS = 1_000;
    /** Scanned whole by design, never on a request's path: the gauges' sample and the invariant report. */
    private static final Map<String, String> WHOLE_TABLE = Map.of(
            "StoreSql.SAMPLE", "the gauges' sample, every sample-period on its own thread",
            "StoreSql.BUDGET_AND_ROWS", "the invariant report sums every pending row",
            "StoreSql.RECOUNT_DELIVERIES", "the deliveries counted once at each start");
    private static final Pattern TABLES = Pattern.compile("(?i)\\b(FROM|JOIN|UPDATE|INTO|USING)\\s+(ONLY\\s+)?(timers|deliveries|flow_keys|timer_counts)\\b");

    private static TestDatabase database;

    /**
     * A statement's parameters as a call binds them, and the index its plan must use (null: any index; several
     * joined by {@code +}: each of them; joined by {@code |}: one of them; one after {@code !}: not that one).
     */
    private record Case(String index, Object... parameters) {
    }

    /** The indexes the firing loop's look reads: the global ones of system clocks' rows, and the scaled clocks'. */
    private static final String LOOK_INDEXES = QueryPlans.LOOK_GLOBAL_INDEXES + "+clocks_scaled";
    /** The firing loop's window (the default round size), in the look's text. */
    private static final int WINDOW = 10_000;
    private static final UUID CLAIM = UUID.randomUUID();
    private static final Map<String, Case> CASES = new TreeMap<>();
    /**
     * A timer by (clock, id): the primary key, or V46's {@code timers_id_prefix} on the same columns, whose
     * {@code text_pattern_ops} serve equality too (the planner takes either at the same cost).
     */
    private static final String BY_ID = "timers_pkey|timers_id_prefix";

    static {
        String sys = "c2";   // a system clock (even numbers)
        String virt = "c1";  // a virtual clock (odd numbers)
        String[] ids = ids("d", 100);
        UUID[] claims = new UUID[100];
        java.util.Arrays.fill(claims, CLAIM);
        CASES.put("DeliverySql.CLAIM", new Case("deliveries_ready", 30_000L, virt, 100));
        CASES.put("DeliverySql.CLAIM_OF", new Case("deliveries_ready", 30_000L, virt, 1L, 100));
        CASES.put("FiringSql.FIRE_DUE", new Case("timers_firing_order", sys, System.currentTimeMillis(), 10_000));
        CASES.put("DeliverySql.ACK", new Case("deliveries_claim", virt, "d1", CLAIM, 0L));
        CASES.put("DeliverySql.ALREADY_ACKED", new Case("deliveries_claim", virt, "d1", CLAIM));
        // found by their claims, locked by primary key: never by the clock's whole in-flight range
        CASES.put("DeliverySql.ACK_ALL", new Case("deliveries_claim+!deliveries_leases", claims, ids, claims, virt, 0L));
        CASES.put("DeliverySql.ACKED_BEFORE", new Case("deliveries_claim", claims, ids, claims, virt));
        CASES.put("DeliverySql.EXTEND", new Case("deliveries_claim", 30_000L, virt, "d1", CLAIM, 0L));
        CASES.put("DeliverySql.NACKED", new Case("deliveries_claim", virt, "d1", CLAIM, 0L));
        CASES.put("DeliverySql.FAILED", new Case("deliveries_pkey", longs(100), repeat("waiting", 100),
                ints(100), longs(100), new Long[100], new String[100]));
        CASES.put("DeliverySql.EXPIRED", new Case("deliveries_leases", sys, 500L, 1_000L));
        CASES.put("DeliverySql.RETRY", new Case("deliveries_waiting", sys, 500L, 1_000L));
        CASES.put("DeliverySql.PURGE_ACKED", new Case("deliveries_acked", 300_000L, 10_000));
        CASES.put("DeliverySql.LIST_DEAD", new Case("deliveries_dead", virt, 0L, 100));
        CASES.put("DeliverySql.REDRIVE", new Case(null, 0L, virt, "d19", null, null));
        CASES.put("DeliverySql.DELETE_DEAD", new Case(null, virt, "d19", null, null));
        Object[] noFilter = {null, null, null, null, null, null, null, null};
        CASES.put("DeliverySql.LIST", new Case("deliveries_dead", concat(new Object[] {virt, "dead", 0L}, noFilter, 100)));
        CASES.put("DeliverySql.REDRIVE_CHUNK", new Case("deliveries_dead", concat(new Object[] {0L, virt, 0L}, noFilter, 1_000)));
        CASES.put("DeliverySql.DELETE_CHUNK", new Case("deliveries_dead", concat(new Object[] {virt, 0L}, noFilter, 1_000)));
        CASES.put("DeliverySql.COUNT_MATCHING", new Case(null, concat(new Object[] {virt}, new Object[] {"dead",
                null, null, null, null, null, null, null}, null)));
        CASES.put("DeliverySql.COUNTS", new Case("deliveries_pending_by_clock", virt));
        CASES.put("DeliverySql.COUNT_IN_STATE", new Case(null, virt, "ready"));
        CASES.put("DeliverySql.ANY_DUE", new Case("timers_firing_order", sys, System.currentTimeMillis()));
        CASES.put("TimerSql.GET", new Case(BY_ID, "t1", virt));
        CASES.put("TimerSql.PENDING", new Case(BY_ID, virt, "t1"));
        // a clock's pending count: its rows of timer_counts (V45), never a count of its timers
        CASES.put("TimerSql.DUE_BY", new Case("timers_firing_order+timer_counts_pkey", virt, virt, 500L, 100, virt));
        CASES.put("TimerSql.PAGE", new Case("timers_firing_order+timer_counts_pkey", virt, virt, 100, virt));
        CASES.put("TimerSql.PAGE_AFTER", new Case("timers_firing_order+timer_counts_pkey", virt, virt, 500L, 0, 500L,
                100, virt));
        // c1's ids t99001, t990001, ..., t999001 (11 of its 1,000): the prefix's range of the index, not the clock's
        CASES.put("TimerSql.PAGE_PREFIX", new Case("timers_id_prefix+timer_counts_pkey", virt, virt, "t99",
                "t99\u007F", 100, virt));
        CASES.put("TimerSql.PAGE_PREFIX_AFTER", new Case("timers_id_prefix+timer_counts_pkey", virt, virt, 500L, 0,
                500L, "t99", "t99\u007F", 100, virt));
        CASES.put("TimerSql.COUNT_AND_ROWS", new Case("timer_counts_pkey", virt, virt));
        CASES.put("TimerSql.STATUS", new Case("timers_oldest_pending+timers_firing_order+timer_counts_pkey", virt,
                virt, virt, virt));
        CASES.put("TimerSql.INSERT", new Case(BY_ID, virt, "new", 5L, 0, 0L, null, 3L, false, null, null,
                virt, "new"));
        CASES.put("TimerSql.INSERT_RUN", new Case(null, virt, 0L, false, ids("n", 100), longs(100), ints(100),
                new String[100], longs(100), new String[100], new String[100]));
        CASES.put("TimerSql.LOCK", new Case(BY_ID, virt, "t1"));
        CASES.put("TimerSql.EDIT", new Case("timers_seq", 9L, 0, 2, 1L));
        CASES.put("TimerSql.REPLACE", new Case("timers_seq", 9L, 0, 2L, null, 5L, 1L));
        CASES.put("TimerSql.CANCEL", new Case("timers_seq", 1L));
        CASES.put("FiringSql.COUNT_DUE", new Case("timers_firing_order", virt, 500L, 10_001L));
        CASES.put("FiringSql.FIRE", new Case("timers_firing_order", virt, 500L, 10_000L, true));
        CASES.put("FiringSql.NEXT_EVENT", new Case(null, sys, sys, sys));
        CASES.put("FiringSql.OVERDUE", new Case("timers_firing_order", virt));
        CASES.put("ClockSql.RESET_TIMERS", new Case(null, virt));
        CASES.put("ClockSql.RESET_DELIVERIES", new Case("deliveries_by_clock", virt));
        CASES.put("ClockSql.DELETE_ROWS", new Case("deliveries_by_clock", virt, virt));
        CASES.put("ClockSql.DELETE_COUNTS", new Case("timer_counts_pkey", virt));
        CASES.put("ClockSql.COPY_ROWS", new Case(null, virt, "c5", 0L));
        CASES.put("ClockSql.SAVED_ROWS", new Case(null, virt, virt));
        CASES.put("ClockSql.LOAD_TIMERS", new Case(null, virt, virt, ids("s", 100), longs(100), ints(100),
                longs(100), ints(100), longs(100), new String[100], longs(100), new String[100], new Boolean[100],
                new String[100], new String[100]));
        CASES.put("ClockSql.LOAD_DELIVERIES", new Case(null, virt, virt, ids("s", 100), longs(100),
                ints(100), longs(100), new String[100], longs(100), repeat("ready", 100), ints(100), new Long[100],
                longs(100), new String[100], new String[100], new String[100], new String[100]));
        long now = System.currentTimeMillis();
        CASES.put("ScheduleSql.TAKE_DUE", new Case("timers_firing_order", sys, now, 10_000));
        CASES.put("ScheduleSql.FIRST_OCCURRENCE_DUE", new Case(null, sys, now));
        CASES.put("ScheduleSql.ANY_DUE", new Case(null, sys, now));
        CASES.put("ScheduleSql.DELIVER", new Case(null, null, sys, "o1", now, 0, 1L, now, null, 5L, now, "s1", null,
                null, null, sys));
        CASES.put("ScheduleSql.SCHEDULES_DUE", new Case(null, sys, now, 10_000));
        CASES.put("ScheduleSql.TAKE_OCCURRENCES_DUE", new Case(null, sys, "s1", now));
        CASES.put("ScheduleSql.REMOVE_OCCURRENCE", new Case(BY_ID, sys, "o1"));
        CASES.put("ScheduleSql.INSERT_OCCURRENCE", new Case(null, sys, "o1", now, 0, now, null, 5L, "s1",
                true, sys, null, null));
        CASES.put("FiringLookSql.LOOK", new Case(LOOK_INDEXES));
        // flow control (issue 44): the clock c1's 10,000 keys, 1,000 of them with deliveries
        String[] keys = new String[100];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = "k" + (i * 7);
        }
        CASES.put("FlowSql.LOCK_CLOCK", new Case(null, virt)); // an insert: its conflict check is the primary key
        CASES.put("FlowSql.CLOCK_IN_FLIGHT", new Case("flow_keys_in_flight", virt));
        CASES.put("FlowSql.RING", new Case("flow_keys_ring", virt, Long.MIN_VALUE, 100));
        CASES.put("FlowSql.TAKE", new Case("deliveries_flow_ready", 30_000L, keys, ints(100), virt, null, null));
        CASES.put("FlowSql.KEY_COUNTS", new Case("flow_keys_pkey", virt));
        CASES.put("FlowSql.ROW_COUNTS", new Case(null, virt));
        CASES.put("FlowSql.KEY_ROW", new Case("flow_keys_pkey", virt, "k7"));
        CASES.put("FlowSql.RETUNE", new Case("flow_keys_pkey", 3, 5L, 5L, 3, virt, "k7"));
        CASES.put("ClockSql.RETUNE_CLOCK_BUCKET", new Case("flow_keys_pkey", 5L, 5L, virt));
        CASES.put("FlowSql.BUSIEST", new Case("flow_keys_pkey", virt, 100));
        CASES.put("FlowSql.SERVED", new Case("flow_keys_pkey", keys, ints(100), longs(100), longs(100), virt));
        CASES.put("FiringLookSql.NEXT_ON", new Case("timers_firing_order+deliveries_leases+deliveries_waiting",
                (Object) new String[] {sys, "c4"}));
    }

    @BeforeAll
    static void fillEachTableWithAMillionRows() {
        database = TestDatabase.create(StatementPlansTest.class, 2);
        PostgresStore.open(database.dataSource(), 10 * ROWS, Long.MAX_VALUE / 2, 10 * CLOCKS,
                ClockSettings.Mode.VIRTUAL);
        database.execute("""
                INSERT INTO clocks (name, mode, now_ms, initial_now, delivery)
                SELECT 'c' || n, CASE WHEN n %% 2 = 0 THEN 'system' ELSE 'virtual' END, 0, 0, 'queue'
                  FROM generate_series(0, %d) AS n""".formatted(CLOCKS - 1));
        database.execute("""
                INSERT INTO timers (clock, id, fire_time, priority, seq, created_at, payload, bytes, system_clock)
                SELECT 'c' || n %% %d, 't' || n, CASE WHEN n %% 2 = 0 THEN db_now_ms() - 100 + n / 100 ELSE n END, 0, n, 0,
                       NULL, 5, n %% 2 = 0
                  FROM generate_series(1, %d) AS n"""
                .formatted(CLOCKS, ROWS));
        // the fill's one statement counted each clock's timers in one row (V45's trigger); beside it 15 stripes more,
        // as concurrent changes leave them
        database.execute("""
                INSERT INTO timer_counts (clock, stripe, pending)
                SELECT 'c' || n, s, 0 FROM generate_series(0, %d) AS n, generate_series(-15, -1) AS s"""
                .formatted(CLOCKS - 1));
        // by n % 20: 12 acked (done_at 10 s past a 5 min retention for the first 10,000: the purge's front),
        // 4 ready, 2 in flight, 1 waiting, 1 dead
        // every delivery under a flow key (c1's spread over 1,000 keys), without the trigger that counts them: the
        // key rows are filled below, 10,000 keys of c1 and 100 of each other clock
        database.execute("ALTER TABLE deliveries DISABLE TRIGGER deliveries_flow_insert");
        database.execute("""
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, bytes, state,
                                        claim, lease_until, retry_at, ready_at, done_at, system_clock, flow_key)
                SELECT %1$d + n, 'c' || n %% %2$d, 'd' || n, n, 0, 1, 0, 5, s.state,
                       CASE WHEN s.state IN ('acked', 'in_flight') THEN gen_random_uuid() END,
                       CASE WHEN s.state = 'in_flight' THEN n END, CASE WHEN s.state = 'waiting' THEN n END, n,
                       CASE WHEN s.state IN ('acked', 'dead') THEN db_now_ms() - 310000 + n END, n %% 2 = 0,
                       'k' || (n / %2$d)
                  FROM generate_series(1, %1$d) AS n,
                       LATERAL (SELECT CASE WHEN n %% 20 < 12 THEN 'acked' WHEN n %% 20 < 16 THEN 'ready'
                                            WHEN n %% 20 < 18 THEN 'in_flight' WHEN n %% 20 = 18 THEN 'waiting'
                                            ELSE 'dead' END AS state) s""".formatted(ROWS, CLOCKS));
        database.execute("ALTER TABLE deliveries ENABLE TRIGGER deliveries_flow_insert");
        database.execute("""
                INSERT INTO flow_keys (clock, key, ready, in_flight, max_in_flight, turn)
                SELECT 'c1', 'k' || n, n %% 5, n %% 3, 2, n * 100000 FROM generate_series(0, 9999) AS n
                UNION ALL
                SELECT 'c' || c, 'k' || n, n %% 5, n %% 3, 2, n * 100000
                  FROM generate_series(0, %d) AS c, generate_series(0, 99) AS n WHERE c <> 1""".formatted(CLOCKS - 1));
        database.queryLong("SELECT setval('timer_sequence', %d)".formatted(2L * ROWS));
        database.analyze();
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Test
    void everyStatementOfTheStore_hasAPlanCase() throws Exception {
        Map<String, String> statements = StoreStatements.named(TABLES);

        assertThat(statements).as("statements found by reflection").hasSizeGreaterThan(30);
        TreeSet<String> unchecked = new TreeSet<>(statements.keySet());
        unchecked.removeAll(CASES.keySet());
        unchecked.removeAll(WHOLE_TABLE.keySet());
        assertThat(unchecked).as("statements on timers or deliveries with no plan case in this test").isEmpty();
        TreeSet<String> stale = new TreeSet<>(CASES.keySet());
        stale.removeAll(statements.keySet());
        assertThat(stale).as("plan cases of statements that no longer exist").isEmpty();
    }

    @Test
    void everyStatementOnTimersOrDeliveries_usesAnIndexAtAMillionRows() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, String> statement : StoreStatements.named(TABLES).entrySet()) {
            Case planCase = CASES.get(statement.getKey());
            if (planCase == null) {
                continue; // whole-table by design, or reported by everyStatementOfTheStore_hasAPlanCase
            }
            for (String variant : variants(statement.getValue())) {
                failures.addAll(QueryPlans.failures(statement.getKey(), planCase.index(),
                        plan(variant, planCase.parameters())));
            }
        }
        assertThat(failures).isEmpty();
    }

    /**
     * The look runs on a plan PostgreSQL made once for the connection: pgjdbc prepares it on the server from its
     * fifth execution, and with no parameter PostgreSQL keeps its generic plan (with the window a parameter it
     * planned each execution again at this size: only custom plans). That cached plan, shown by
     * {@code EXPLAIN EXECUTE} of pgjdbc's statement on the same connection, reads the global indexes.
     */
    @Test
    void theLook_runsOnOneCachedPlan_thatReadsTheGlobalIndexes() throws SQLException {
        String look = FiringLookSql.look(WINDOW);
        try (Connection connection = database.dataSource().getConnection()) {
            QueryPlans.run(connection, look, 10);

            QueryPlans.Cached cached = QueryPlans.cachedPlan(connection, look);
            assertThat(cached.customPlans()).as("custom plans").isZero();
            assertThat(cached.genericPlans()).as("executions on the generic plan").isGreaterThanOrEqualTo(5);
            assertThat(QueryPlans.failures("the look's cached plan", LOOK_INDEXES, cached.plan())).isEmpty();
        }
    }

    /**
     * The firing loop's look finds system clocks' rows by their {@code system_clock} flag (V18); V18's trigger sets
     * it only for instances older than the flag, at a cost per row, so every insert of this version names it.
     */
    @Test
    void everyInsertIntoTimersOrDeliveries_setsTheSystemClockFlag() throws Exception {
        Pattern insert = Pattern.compile("(?is)\\bINSERT\\s+INTO\\s+(timers|deliveries)\\s*\\(([^)]*)\\)");
        List<String> inserts = new ArrayList<>();
        List<String> withoutFlag = new ArrayList<>();
        for (Map.Entry<String, String> statement : StoreStatements.named(TABLES).entrySet()) {
            Matcher columns = insert.matcher(statement.getValue());
            while (columns.find()) {
                inserts.add(statement.getKey());
                if (!columns.group(2).contains("system_clock")) {
                    withoutFlag.add(statement.getKey() + " into " + columns.group(1));
                }
            }
        }

        assertThat(inserts).as("inserts found").hasSizeGreaterThanOrEqualTo(10);
        assertThat(withoutFlag).isEmpty();
    }

    /**
     * A statement with a {@code %s} lock clause in both forms the store runs: with and without SKIP LOCKED; the look,
     * with its window ({@code %1$d}) as the loop writes it in.
     */
    private static List<String> variants(String sql) {
        if (sql.contains("%1$d")) {
            return List.of(sql.formatted(WINDOW));
        }
        return sql.contains("%s") ? List.of(sql.formatted(" SKIP LOCKED"), sql.formatted("")) : List.of(sql);
    }

    /** The plan PostgreSQL chooses for {@code sql} with these parameters (not run: EXPLAIN without ANALYZE). */
    private static JsonNode plan(String sql, Object... parameters) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement explain = connection.prepareStatement("EXPLAIN (FORMAT JSON) " + sql)) {
            for (int i = 0; i < parameters.length; i++) {
                bind(connection, explain, i + 1, parameters[i]);
            }
            try (ResultSet row = explain.executeQuery()) {
                row.next();
                return QueryPlans.parse(row.getString(1));
            }
        }
    }

    private static void bind(Connection connection, PreparedStatement statement, int index, Object value)
            throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.OTHER); // typed by the statement's cast
        } else if (value instanceof Object[] values) {
            String type = values instanceof String[] ? "text" : values instanceof UUID[] ? "uuid"
                    : values instanceof Long[] ? "bigint" : values instanceof Boolean[] ? "boolean" : "integer";
            statement.setArray(index, connection.createArrayOf(type, values));
        } else {
            statement.setObject(index, value);
        }
    }

    private static String[] ids(String prefix, int count) {
        String[] ids = new String[count];
        for (int i = 0; i < count; i++) {
            ids[i] = prefix + (i * 20 + 16); // in flight, by the fill's pattern
        }
        return ids;
    }

    private static String[] repeat(String text, int count) {
        String[] texts = new String[count];
        java.util.Arrays.fill(texts, text);
        return texts;
    }

    private static Long[] longs(int count) {
        Long[] values = new Long[count];
        for (int i = 0; i < count; i++) {
            values[i] = ROWS + 1L + i * 7919L;
        }
        return values;
    }

    private static Integer[] ints(int count) {
        Integer[] values = new Integer[count];
        java.util.Arrays.fill(values, 2);
        return values;
    }

    /** {@code head}, then {@code filter}, then {@code last}: a statement's parameters around a filter's six. */
    private static Object[] concat(Object[] head, Object[] filter, Object last) {
        Object[] all = java.util.Arrays.copyOf(head, head.length + filter.length + 1);
        System.arraycopy(filter, 0, all, head.length, filter.length);
        all[all.length - 1] = last;
        return all;
    }
}
