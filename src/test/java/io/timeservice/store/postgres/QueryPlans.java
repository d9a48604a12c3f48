package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * PostgreSQL's plans as the tests read them: an {@code EXPLAIN (FORMAT JSON)} checked against the indexes a statement
 * must use, and the plan a connection keeps for a statement that pgjdbc prepared on the server.
 */
final class QueryPlans {

    /** The global indexes of system clocks' rows that the firing loop's look reads (V19–V21). */
    static final String LOOK_GLOBAL_INDEXES = "timers_system_due+deliveries_system_leases+deliveries_system_retries";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * A statement's cached plan on one connection.
     *
     * @param genericPlans executions on the generic plan
     * @param customPlans  executions planned for their parameters
     * @param plan         the plan {@code EXPLAIN (FORMAT JSON) EXECUTE} shows now
     */
    record Cached(long genericPlans, long customPlans, JsonNode plan) {
    }

    private QueryPlans() {
    }

    /** The {@code EXPLAIN (FORMAT JSON)} output in {@code explain}'s first column, parsed. */
    static JsonNode parse(String explain) {
        return JSON.readTree(explain);
    }

    /**
     * Runs {@code sql}, which has no parameter, {@code times} times on {@code connection} as one prepared statement,
     * reading every row.
     */
    static void run(Connection connection, String sql, int times) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < times; i++) {
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        rows.getObject(1);
                    }
                }
            }
        }
    }

    /**
     * The plan {@code connection} keeps for {@code sql}, which pgjdbc has prepared on the server (from its fifth
     * execution): found in {@code pg_prepared_statements} by its text, shown by {@code EXPLAIN EXECUTE} of its name.
     */
    static Cached cachedPlan(Connection connection, String sql) throws SQLException {
        String name;
        long generic;
        long custom;
        try (PreparedStatement prepared = connection.prepareStatement(
                "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = ?")) {
            prepared.setString(1, sql);
            try (ResultSet row = prepared.executeQuery()) {
                assertThat(row.next()).as("the statement prepared on the server").isTrue();
                name = row.getString(1);
                generic = row.getLong(2);
                custom = row.getLong(3);
            }
        }
        try (PreparedStatement explain = connection.prepareStatement(
                "EXPLAIN (FORMAT JSON) EXECUTE \"" + name + "\"");
             ResultSet row = explain.executeQuery()) {
            row.next();
            return new Cached(generic, custom, parse(row.getString(1)));
        }
    }

    /**
     * What {@code plan} shows against {@code indexes}, empty when nothing: a sequential scan of {@code timers},
     * {@code deliveries}, {@code flow_keys} or {@code timer_counts}, an index not used, an index used that must not be. {@code indexes}: null for any index,
     * several joined by {@code +} for each of them, alternatives joined by {@code |} for one of them, one after
     * {@code !} for not that one.
     */
    static List<String> failures(String statement, String indexes, JsonNode plan) {
        List<String> failures = new ArrayList<>();
        List<JsonNode> nodes = new ArrayList<>();
        collect(plan.get(0).get("Plan"), nodes);
        for (JsonNode node : nodes) {
            String relation = node.path("Relation Name").asString("");
            if (node.path("Node Type").asString("").equals("Seq Scan")
                    && (relation.equals("timers") || relation.equals("deliveries")
                        || relation.equals("flow_keys") || relation.equals("timer_counts"))) {
                failures.add(statement + ": Seq Scan on " + relation);
            }
        }
        for (String index : indexes == null ? new String[0] : indexes.split("\\+")) {
            boolean forbidden = index.startsWith("!");
            String name = forbidden ? index.substring(1) : index;
            List<String> anyOf = List.of(name.split("\\|"));
            if (forbidden == nodes.stream().anyMatch(node -> anyOf.contains(node.path("Index Name").asString("")))) {
                failures.add(statement + (forbidden ? ": uses " : ": does not use ") + name + ": " + nodes.stream()
                        .map(node -> node.path("Node Type").asString("") + " " + node.path("Relation Name")
                                .asString("") + " " + node.path("Index Name").asString("") + " "
                                + node.path("Index Cond").asString("") + node.path("Filter").asString(""))
                        .toList());
            }
        }
        return failures;
    }

    private static void collect(JsonNode node, List<JsonNode> into) {
        into.add(node);
        for (JsonNode child : node.path("Plans")) {
            collect(child, into);
        }
    }
}
