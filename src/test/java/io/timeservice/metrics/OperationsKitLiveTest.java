package io.timeservice.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.timeservice.metrics.OperationsKit.AlertRule;
import io.timeservice.metrics.OperationsKit.PanelQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The operations kit against a running service: the service (journaling, fsync=always) takes a little traffic, a real
 * Prometheus server scrapes it every second and evaluates the alert rules, and then every dashboard query must parse
 * and return at least one series, every alert expression must evaluate, every metric an alert reads must be
 * exported, and Prometheus must report each rule healthy. Waits poll Prometheus's API for a condition, with a bound.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.durability=journal", "timeservice.fsync=always", "timeservice.capacity=100"})
@DirtiesContext
class OperationsKitLiveTest {

    private static final Path DATA_DIR = NoServerPathInAnswersTest.freshDataDir("ops-kit");
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String DELIVERY_CLOCK = "ops-workers";
    private static final String FLOW_CLOCK = "ops-flow";

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) {
        registry.add("timeservice.data-dir", DATA_DIR::toString);
    }

    @LocalServerPort
    int port;

    @TempDir
    Path prometheusDir;

    @Test
    void everyDashboardQueryReturnsData_andEveryAlertEvaluates_againstARealScrape() throws IOException {
        RestAssured.port = port;
        makeAGcPauseToReport();
        driveTraffic("first");

        try (PrometheusServer prometheus = PrometheusServer.start(prometheusDir, port, "/actuator/prometheus",
                OperationsKit.ALERTS)) {
            await("Prometheus ready").atMost(DEADLINE).until(prometheus::ready);
            await("two scrapes of the service").atMost(DEADLINE)
                    .until(() -> scrapes(prometheus) >= 2);
            driveTraffic("second");   // so that rates over the window are not all zero
            long scrapesBefore = scrapes(prometheus);
            await("a scrape after the second round of traffic").atMost(DEADLINE)
                    .until(() -> scrapes(prometheus) > scrapesBefore);
            await("every alert rule evaluated").atMost(DEADLINE)
                    .until(() -> rules(prometheus).stream().noneMatch(rule -> rule.path("lastEvaluation")
                            .asString().startsWith("0001-")));

            List<String> problems = new ArrayList<>();
            assertThat(prometheus.query("up{job=\"timeservice\"} == 1").path("data").path("result").size())
                    .as("the service is up for Prometheus").isEqualTo(1);
            List<PanelQuery> panelQueries = OperationsKit.panelQueries();
            assertThat(panelQueries).hasSizeGreaterThan(10);
            for (PanelQuery query : panelQueries) {
                String what = "panel \"" + query.panel() + "\" " + query.refId() + ": " + query.concrete();
                assertThat(query.concrete()).as(what).doesNotContain("$");
                JsonNode answer = prometheus.query(query.concrete());
                if (!"success".equals(answer.path("status").asString())) {
                    problems.add(what + " -> " + answer.path("error").asString());
                } else if (answer.path("data").path("result").isEmpty()) {
                    problems.add(what + " -> no series");
                }
                problems.addAll(missingMetrics(prometheus, what, query.concrete()));
            }
            List<AlertRule> alerts = OperationsKit.alertRules();
            assertThat(alerts).hasSizeGreaterThanOrEqualTo(6);
            for (AlertRule alert : alerts) {
                String what = "alert " + alert.name() + ": " + alert.expr();
                JsonNode answer = prometheus.query(alert.expr());
                if (!"success".equals(answer.path("status").asString())) {
                    problems.add(what + " -> " + answer.path("error").asString());
                }
                problems.addAll(missingMetrics(prometheus, what, alert.expr()));
            }
            for (JsonNode rule : rules(prometheus)) {
                if (!"ok".equals(rule.path("health").asString())) {
                    problems.add("rule " + rule.path("name").asString() + " is " + rule.path("health").asString()
                            + ": " + rule.path("lastError").asString());
                }
            }
            assertThat(rules(prometheus)).extracting(rule -> rule.path("name").asString())
                    .containsExactlyInAnyOrderElementsOf(alerts.stream().map(AlertRule::name).toList());
            for (String counted : new String[] {"timer_deliveries_total{event=\"claimed\"}",
                    "timer_deliveries_total{event=\"acked\"}", "timer_deliveries_total{event=\"nacked\"}",
                    "timer_deliveries_total{event=\"dead\"}", "timer_delivery_lateness_seconds_count",
                    "timer_fire_lag_seconds_count", "timer_delivery_queue_depth{state=\"dead\"}",
                    "timer_firing_thread_alive", "timer_flow_held_back", "timer_flow_keys_at_limit",
                    "timer_flow_tokens_denied_total"}) {
                assertThat(prometheus.query("sum(" + counted + ") > 0").path("data").path("result").isEmpty())
                        .as("Prometheus saw the delivery traffic in %s", counted).isFalse();
            }
            await("the dead delivery alerted").atMost(DEADLINE).until(() -> !firingAlerts(prometheus).isEmpty());
            assertThat(firingAlerts(prometheus)).as("the only alert is for the delivery sent to the dead letters")
                    .containsExactly("TimeServiceDeadDeliveries");
            assertThat(problems).as("queries that failed or returned nothing").isEmpty();
        }
    }

    /** A JVM that has not collected since the GC meters were bound has no pause to report; one collection does. */
    private static void makeAGcPauseToReport() {
        System.gc();
        await("the GC pause meter").atMost(DEADLINE).until(() -> given().get("/actuator/prometheus")
                .then().statusCode(200).extract().asString().contains("jvm_gc_pause_seconds_count{"));
    }

    /** Adds, edits, cancels, an advance that fires, reads, refused requests of several codes, and deliveries. */
    private static void driveTraffic(String round) {
        driveDeliveries(round);
        driveFlowControl(round);
        for (int i = 0; i < 5; i++) {
            given().contentType(ContentType.JSON)
                    .body("{\"id\":\"" + round + "-" + i + "\",\"delay\":" + (i + 1) + ",\"payload\":{\"n\":" + i
                            + "}}")
                    .post("/timers").then().statusCode(201);
        }
        given().contentType(ContentType.JSON).body("{\"delay\":9}").patch("/timers/" + round + "-0")
                .then().statusCode(200);
        given().delete("/timers/" + round + "-1").then().statusCode(204);
        given().get("/timers/" + round + "-2").then().statusCode(200);
        given().get("/timers").then().statusCode(200);
        given().get("/queue/next").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"by\":3}").post("/clock/advance").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + round + "-0\",\"delay\":1}").post("/timers")
                .then().statusCode(409);                                   // duplicate_id
        given().delete("/timers/" + round + "-gone").then().statusCode(404); // timer_not_found
        given().contentType(ContentType.JSON).body("{\"id\":\"bad id!\",\"delay\":1}").post("/timers")
                .then().statusCode(400);                                   // invalid_id
    }

    /**
     * Deliveries on a system clock with one attempt per delivery: three timers due at once, fired by the firing
     * thread, claimed by a long poll (the claim answers as soon as they are ready), two acknowledged and one nacked,
     * which sends it to the dead letters.
     */
    private static void driveDeliveries(String round) {
        given().contentType(ContentType.JSON).body("{\"mode\":\"system\",\"retry\":{\"maxAttempts\":1}}")
                .put("/clocks/" + DELIVERY_CLOCK).then().statusCode(anyOf(is(201), is(200)));
        for (int i = 0; i < 3; i++) {
            given().contentType(ContentType.JSON).body("{\"id\":\"" + round + "-job-" + i + "\",\"delay\":0}")
                    .post("/clocks/" + DELIVERY_CLOCK + "/timers").then().statusCode(201);
        }
        List<Map<String, Object>> claimed = new ArrayList<>();
        await("three deliveries claimed").atMost(DEADLINE).until(() -> {
            claimed.addAll(given().contentType(ContentType.JSON).body("{\"max\":3,\"wait\":5000}")
                    .post("/clocks/" + DELIVERY_CLOCK + "/deliveries/claim").then().statusCode(200)
                    .extract().<List<Map<String, Object>>>path("deliveries"));
            return claimed.size() == 3;
        });
        for (Map<String, Object> delivery : claimed.subList(0, 2)) {
            given().contentType(ContentType.JSON).body("{\"claim\":\"" + delivery.get("claim") + "\"}")
                    .post("/clocks/" + DELIVERY_CLOCK + "/deliveries/" + delivery.get("id") + "/ack")
                    .then().statusCode(204);
        }
        Map<String, Object> failed = claimed.get(2);
        given().contentType(ContentType.JSON).body("{\"claim\":\"" + failed.get("claim") + "\"}")
                .post("/clocks/" + DELIVERY_CLOCK + "/deliveries/" + failed.get("id") + "/nack")
                .then().statusCode(200).body("state", equalTo("dead"));
    }

    /**
     * A virtual clock whose keys take one delivery a minute: a claim of two deliveries of one key takes one and holds
     * the other back, out of tokens, and a claim of the next round finds the key still without a token.
     */
    private static void driveFlowControl(String round) {
        given().contentType(ContentType.JSON).body("{\"delivery\":\"queue\",\"flow\":{\"rate\":{\"limit\":1,"
                + "\"period\":60000}}}").put("/clocks/" + FLOW_CLOCK).then().statusCode(anyOf(is(201), is(200)));
        for (int i = 0; i < 2; i++) {
            given().contentType(ContentType.JSON).body("{\"id\":\"" + round + "-flow-" + i + "\",\"delay\":0,"
                    + "\"key\":\"tenant-" + round + "\"}").post("/clocks/" + FLOW_CLOCK + "/timers").then()
                    .statusCode(201);
        }
        given().contentType(ContentType.JSON).body("{\"by\":0}").post("/clocks/" + FLOW_CLOCK + "/advance").then()
                .statusCode(200);
        given().contentType(ContentType.JSON).body("{\"max\":2}").post("/clocks/" + FLOW_CLOCK
                + "/deliveries/claim").then().statusCode(200).body("deliveries.size()", equalTo(1));
        given().contentType(ContentType.JSON).body("{\"max\":2}").post("/clocks/" + FLOW_CLOCK
                + "/deliveries/claim").then().statusCode(200).body("deliveries.size()", equalTo(0));
    }

    private static List<String> firingAlerts(PrometheusServer prometheus) {
        List<String> names = new ArrayList<>();
        for (JsonNode alert : prometheus.query("ALERTS{alertstate=\"firing\"}").path("data").path("result")) {
            names.add(alert.path("metric").path("alertname").asString());
        }
        return names;
    }

    private static long scrapes(PrometheusServer prometheus) {
        JsonNode result = prometheus.query("count_over_time(up{job=\"timeservice\"}[5m])").path("data")
                .path("result");
        return result.isEmpty() ? 0 : Long.parseLong(result.get(0).path("value").get(1).asString());
    }

    private static List<JsonNode> rules(PrometheusServer prometheus) {
        List<JsonNode> rules = new ArrayList<>();
        for (JsonNode group : prometheus.get("rules").path("groups")) {
            group.path("rules").forEach(rules::add);
        }
        return rules;
    }

    /** The metrics {@code expr} selects that Prometheus has no series of: an alert on them could never fire. */
    private static List<String> missingMetrics(PrometheusServer prometheus, String what, String expr) {
        Set<String> missing = new TreeSet<>();
        for (String metric : OperationsKit.metricNames(expr)) {
            if (prometheus.query("count({__name__=\"" + metric + "\"})").path("data").path("result").isEmpty()) {
                missing.add(metric);
            }
        }
        return missing.isEmpty() ? List.of() : List.of(what + " -> the service exports no " + missing);
    }
}
