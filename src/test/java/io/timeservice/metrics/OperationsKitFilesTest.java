package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import io.timeservice.metrics.OperationsKit.AlertRule;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The operations kit's files on their own (no service): the alert rules pass {@code promtool check rules} and their
 * unit tests ({@code promtool test rules}), each alert links a runbook section docs/OPERATIONS.md has, and the dashboard
 * reads from the data source its user picks. {@link OperationsKitLiveTest} runs every query against a real scrape.
 */
class OperationsKitFilesTest {

    @Test
    void alertRules_passPromtoolCheckRules() {
        Promtool.Report report = Promtool.run("check", "rules", OperationsKit.ALERTS.toString());

        assertThat(report.exitCode()).as("promtool check rules: %s", report.problems()).isZero();
        assertThat(report.problems()).as("promtool check rules").noneMatch(line -> line.contains("WARNING"))
                .anyMatch(line -> line.contains("SUCCESS"));
    }

    @Test
    void alertRules_passTheirPromtoolUnitTests() {
        Promtool.Report report = Promtool.run("test", "rules", OperationsKit.ALERT_TESTS.toString());

        assertThat(report.exitCode()).as("promtool test rules: %s", String.join("\n", report.problems())).isZero();
    }

    @Test
    void everyAlert_hasUnitTestsThatFireItAndKeepItQuiet() throws IOException {
        String tests = Files.readString(OperationsKit.ALERT_TESTS);
        for (AlertRule rule : OperationsKit.alertRules()) {
            assertThat(tests).as("a test in which %s fires", rule.name())
                    .containsPattern("alertname: " + rule.name() + "\\s+exp_alerts:\\s+- exp_labels");
            assertThat(tests).as("a test in which %s stays quiet", rule.name())
                    .containsPattern("alertname: " + rule.name() + "\\s+exp_alerts: \\[]");
        }
    }

    @Test
    void everyAlert_linksARunbookSectionOfTheOperationsGuide() throws IOException {
        String guide = Files.readString(Path.of("docs/OPERATIONS.md"));
        List<AlertRule> rules = OperationsKit.alertRules();
        assertThat(rules).isNotEmpty();
        for (AlertRule rule : rules) {
            assertThat(rule.annotations()).as(rule.name()).containsKeys("summary", "description")
                    .containsEntry("runbook", "docs/OPERATIONS.md#" + rule.name().toLowerCase(Locale.ROOT));
            assertThat(guide.lines().anyMatch(line -> line.matches("#{3,4} " + rule.name())))
                    .as("docs/OPERATIONS.md has a heading \"#### %s\" (the runbook's anchor)", rule.name()).isTrue();
        }
    }

    @Test
    void dashboard_readsEveryPanelFromTheDatasourceVariable() {
        JsonNode dashboard = OperationsKit.dashboard();
        JsonNode datasource = dashboard.path("templating").path("list").get(0);
        assertThat(datasource.path("name").asString()).isEqualTo("datasource");
        assertThat(datasource.path("type").asString()).isEqualTo("datasource");
        assertThat(datasource.path("query").asString()).isEqualTo("prometheus");
        assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);

        List<JsonNode> panels = OperationsKit.panels();
        assertThat(panels).isNotEmpty();
        for (JsonNode panel : panels) {
            String title = panel.path("title").asString();
            assertThat(panel.path("datasource").path("uid").asString()).as(title).isEqualTo("${datasource}");
            assertThat(panel.path("targets").isEmpty()).as("%s has queries", title).isFalse();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").asString()).as(title).isEqualTo("${datasource}");
                assertThat(target.path("expr").asString()).as(title).isNotBlank();
            }
        }
    }

    @Test
    void dashboard_hasAFlowControlRow_showingEachFlowMetric() {
        JsonNode panels = OperationsKit.dashboard().path("panels");
        List<String> rowTitles = new java.util.ArrayList<>();
        java.util.Map<String, java.util.Set<String>> metricsByRow = new java.util.LinkedHashMap<>();
        String row = null;
        for (JsonNode panel : panels) {
            if ("row".equals(panel.path("type").asString())) {
                row = panel.path("title").asString();
                rowTitles.add(row);
                continue;
            }
            for (JsonNode target : panel.path("targets")) {
                metricsByRow.computeIfAbsent(row, r -> new java.util.TreeSet<>())
                        .addAll(OperationsKit.metricNames(target.path("expr").asString()));
            }
        }

        assertThat(rowTitles).containsSubsequence("Push", "Flow control", "Operations");
        assertThat(metricsByRow.get("Flow control")).contains("timer_flow_held_back", "timer_flow_keys_at_limit",
                "timer_flow_tokens_denied_total");
    }

    @Test
    void metricNames_areTheSelectorsOfAnExpression() {
        assertThat(OperationsKit.metricNames("histogram_quantile(0.99, sum by (operation, le) "
                + "(rate(timer_operation_seconds_bucket{instance=~\"$instance\"}[5m])))"))
                .containsExactly("timer_operation_seconds_bucket");
        assertThat(OperationsKit.metricNames("sum by (job, instance) (increase(timer_rejected_total"
                + "{reason=\"storage_unavailable\"}[5m])) > 0 or up{job=\"x\"} == 0 and on (instance) 1e3"))
                .containsExactly("timer_rejected_total", "up");
    }
}
