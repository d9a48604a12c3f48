package io.timeservice.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Everything the service exposes at /actuator/prometheus passes Prometheus's own linter, {@code promtool check
 * metrics}: ours and the JVM's, Tomcat's and Spring's meters alike, with no allow-list. Meters that carry no
 * information for a stateless API (Tomcat sessions) are turned off rather than excused.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.demo.enabled=true", "timeservice.capacity=50"})
class PrometheusLintTest {

    /** Prometheus's classic text format: the one promtool check metrics reads. */
    private static final String PROMETHEUS_TEXT = "text/plain;version=0.0.4";

    @LocalServerPort
    int port;

    @BeforeEach
    void resetQueue() {
        RestAssured.port = port;
        given().post("/demo/reset").then().statusCode(200);
    }

    @Test
    void scrape_afterEveryKindOfOperation_passesPromtoolWithoutAnyProblem() {
        exerciseEveryMeter();

        String exposition = given().accept(PROMETHEUS_TEXT).get("/actuator/prometheus").then().statusCode(200)
                .extract().asString();
        Promtool.Report report = Promtool.checkMetrics(exposition);

        // the lint must have seen our meters, each with samples
        assertThat(exposition).contains("\ntimer_queue_depth ", "\ntimer_queue_oldest_age_seconds ",
                "\ntimer_queue_oldest_age_virtual_seconds ", "timer_operation_seconds_bucket{",
                "timer_added_total", "timer_cancelled_total", "timer_edited_total", "timer_fired_total",
                "timer_rejected_total{", "timer_advance_fired_count", "timer_heap_sift_levels_count",
                "\ntimer_queue_capacity ", "\ntimer_queue_capacity_bytes ", "\ntimer_queue_payload_bytes ",
                "\ntimer_queue_serving ", "\ntimer_queue_invariants_ok ",
                "\ntimer_clocks{mode=\"virtual\"} ", "timer_journal_fsync_seconds_bucket{",
                "timer_journal_batch_records_count", "timer_journal_batch_bytes_count",
                "timer_journal_snapshot_seconds_count", "timer_journal_snapshot_pause_seconds_count",
                "timer_journal_snapshot_failed_total", "timer_deliveries_total{event=\"claimed\"}",
                "timer_delivery_lateness_seconds_bucket{", "timer_fire_lag_seconds_bucket{",
                "timer_delivery_queue_depth{state=\"ready\"}", "\ntimer_delivery_oldest_ready_age_seconds ",
                "\ntimer_delivery_held_back ", "\ntimer_delivery_capacity ", "\ntimer_firing_thread_lag_seconds ",
                "\ntimer_firing_thread_alive ");
        assertThat(report.problems()).as("promtool check metrics on /actuator/prometheus").isEmpty();
        assertThat(report.exitCode()).as("promtool's exit code").isZero();
        assertThat(exposition).doesNotContain("tomcat_sessions");
    }

    private static void exerciseEveryMeter() {
        add("lint-a", 5, 201);
        add("lint-b", 10, 201);
        add("lint-a", 5, 409);
        given().contentType(ContentType.JSON).body("{\"delay\":3}").patch("/timers/lint-b").then().statusCode(200);
        given().get("/timers/lint-b").then().statusCode(200);
        given().get("/timers").then().statusCode(200);
        given().get("/queue/next").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"by\":4}").post("/clock/advance").then().statusCode(200);
        given().delete("/timers/lint-a").then().statusCode(204);
        given().delete("/timers/lint-a").then().statusCode(404);
    }

    private static void add(String id, long delay, int expectedStatus) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"delay\":" + delay + "}")
                .post("/timers").then().statusCode(expectedStatus);
    }
}
