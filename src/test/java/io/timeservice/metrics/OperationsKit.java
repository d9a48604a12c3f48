package io.timeservice.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operations kit as the tests read it: the Grafana dashboard's queries and the alert rules, from the files that
 * ship in {@code ops/} (the tests run in the project directory).
 */
final class OperationsKit {

    static final Path DASHBOARD = Path.of("ops/grafana/timeservice-dashboard.json");
    static final Path ALERTS = Path.of("ops/prometheus/timeservice-alerts.yml");
    static final Path ALERT_TESTS = Path.of("ops/prometheus/timeservice-alerts.test.yml");

    /** What Grafana puts in place of its variables when the tests evaluate a panel's query. */
    private static final Map<String, String> GRAFANA_VARIABLES = Map.of(
            "$__rate_interval", "1m", "$__interval", "15s", "$__range", "5m", "$instance", ".*");

    private static final Set<String> PROMQL_WORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private OperationsKit() {
    }

    /** One panel query: the panel's title, its refId, and the PromQL as written in the dashboard. */
    record PanelQuery(String panel, String refId, String expr) {

        /** The query as Grafana sends it, its variables replaced by concrete values. */
        String concrete() {
            String concrete = expr;
            for (Map.Entry<String, String> variable : GRAFANA_VARIABLES.entrySet()) {
                concrete = concrete.replace(variable.getKey(), variable.getValue());
            }
            return concrete;
        }
    }

    /** One alerting rule: its name, expression and annotations. */
    record AlertRule(String name, String expr, Map<String, String> annotations) {
    }

    static JsonNode dashboard() {
        return JsonMapper.builder().build().readTree(read(DASHBOARD));
    }

    /** Every query of every panel, rows' nested panels included. */
    static List<PanelQuery> panelQueries() {
        List<PanelQuery> queries = new ArrayList<>();
        for (JsonNode panel : panels()) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new PanelQuery(panel.path("title").asString(), target.path("refId").asString(),
                        target.path("expr").asString()));
            }
        }
        return queries;
    }

    /** The panels that show data (rows excluded), rows' nested panels included. */
    static List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard().path("panels")) {
            if (panel.path("type").asString().equals("row")) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    @SuppressWarnings("unchecked")
    static List<AlertRule> alertRules() {
        Map<String, Object> file = new Yaml().load(read(ALERTS));
        List<AlertRule> rules = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                if (rule.containsKey("alert")) {
                    rules.add(new AlertRule((String) rule.get("alert"), (String) rule.get("expr"),
                            (Map<String, String>) rule.getOrDefault("annotations", Map.of())));
                }
            }
        }
        return rules;
    }

    /**
     * The metric names a PromQL expression selects: identifiers outside label matchers, ranges, strings and
     * grouping clauses that are neither a function (followed by a parenthesis) nor a keyword. Enough for the kit's
     * own queries, which is all it is for.
     */
    static Set<String> metricNames(String expr) {
        String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = IDENTIFIER.matcher(bare);
        while (matcher.find()) {
            String name = matcher.group();
            boolean function = bare.substring(matcher.end()).matches("(?s)\\s*\\(.*");
            boolean number = matcher.start() > 0 && Character.isDigit(bare.charAt(matcher.start() - 1));
            if (!function && !number && !PROMQL_WORDS.contains(name.toLowerCase(Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }
}
