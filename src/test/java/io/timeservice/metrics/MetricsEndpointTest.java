package io.timeservice.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;
import java.util.Map;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.demo.enabled=true", "timeservice.capacity=50"})
class MetricsEndpointTest {

    @LocalServerPort
    int port;

    @BeforeEach
    void resetQueue() {
        RestAssured.port = port;
        given().post("/demo/reset").then().statusCode(200);
    }

    @Test
    void scrape_afterKnownOperations_countsEachExactlyAndNeverNamesAnId() {
        String marker = "marker-" + System.nanoTime();
        PrometheusScrape before = scrape();

        add(marker + "-a", 5, 201);
        add(marker + "-b", 5, 201);
        add(marker + "-c", 10, 201);
        add(marker + "-a", 5, 409);                       // duplicate: conflict, rejected{duplicate_id}
        add("bad id!", 5, 400);                           // rejected{invalid_id}
        given().contentType(ContentType.JSON).body("{\"delay\":3}")
                .patch("/timers/" + marker + "-c").then().statusCode(200);
        given().delete("/timers/" + marker + "-b").then().statusCode(204);
        given().delete("/timers/" + marker + "-gone").then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"by\":5}")
                .post("/clock/advance").then().statusCode(200);   // fires -c (3) and -a (5)
        given().get("/timers/" + marker + "-a").then().statusCode(404);
        given().get("/timers").then().statusCode(200);
        given().get("/queue/next").then().statusCode(404);

        PrometheusScrape after = scrape();
        assertThat(after.since(before, "timer_added_total")).isEqualTo(3);
        assertThat(after.since(before, "timer_edited_total")).isEqualTo(1);
        assertThat(after.since(before, "timer_cancelled_total")).isEqualTo(1);
        assertThat(after.since(before, "timer_fired_total")).isEqualTo(2);
        assertThat(after.since(before, "timer_rejected_total", "reason=\"duplicate_id\"")).isEqualTo(1);
        assertThat(after.since(before, "timer_rejected_total", "reason=\"invalid_id\"")).isEqualTo(1);
        assertThat(after.since(before, "timer_rejected_total", "reason=\"timer_not_found\"")).isEqualTo(2);
        assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"add\"",
                "outcome=\"success\"")).isEqualTo(3);
        assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"add\"",
                "outcome=\"conflict\"")).isEqualTo(1);
        assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"add\"",
                "outcome=\"rejected\"")).isEqualTo(1);
        assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"cancel\"",
                "outcome=\"not_found\"")).isEqualTo(1);
        assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"peek\"",
                "outcome=\"not_found\"")).isEqualTo(1);
        assertThat(after.since(before, "timer_advance_fired_count")).isEqualTo(1);
        assertThat(after.since(before, "timer_advance_fired_sum")).isEqualTo(2);
        for (String operation : new String[] {"add", "cancel", "edit", "advance", "get", "list", "peek"}) {
            assertThat(after.text()).containsPattern(
                    "timer_operation_seconds_bucket\\{[^}]*operation=\"" + operation + "\"");
        }
        assertThat(after.hasSampleStartingWith("timer_heap_sift_levels_count")).isTrue();
        assertThat(after.text()).doesNotContain(marker);
    }

    @Test
    void depthGauge_equalsQueueSize_andAgesFollowTheOldestTimer() {
        assertThat(scrape().value("timer_queue_depth")).isZero();
        assertThat(scrape().value("timer_queue_oldest_age_virtual_seconds")).isZero();
        assertThat(scrape().value("timer_queue_oldest_age_seconds")).isZero();

        add("old", 100, 201);
        given().contentType(ContentType.JSON).body("{\"by\":30}").post("/clock/advance").then().statusCode(200);
        add("new", 100, 201);

        int size = given().get("/queue").then().extract().path("size");
        PrometheusScrape scrape = scrape();
        assertThat(scrape.value("timer_queue_depth")).isEqualTo(size).isEqualTo(2);
        assertThat(scrape.value("timer_queue_oldest_age_virtual_seconds")).isEqualTo(0.030);
        assertThat(scrape.value("timer_queue_oldest_age_seconds")).isGreaterThanOrEqualTo(0).isLessThan(600);

        given().delete("/timers/old").then().statusCode(204);
        assertThat(scrape().value("timer_queue_oldest_age_virtual_seconds")).isZero();   // "new" was created at 30
    }

    @Test
    void pausedClocksGauge_countsAPausedClock_untilItsResumeOrDeletion() {
        PrometheusScrape before = scrape();
        try {
            given().contentType(ContentType.JSON).body("{\"delivery\":\"queue\"}").put("/clocks/metrics-held")
                    .then().statusCode(201);
            given().contentType(ContentType.JSON).body("{\"delivery\":\"queue\"}").put("/clocks/metrics-running")
                    .then().statusCode(201);
            given().post("/clocks/metrics-held/pause").then().statusCode(200);
            assertThat(scrape().since(before, "timer_clocks_paused")).isEqualTo(1);

            given().post("/clocks/metrics-held/resume").then().statusCode(200);
            assertThat(scrape().since(before, "timer_clocks_paused")).isZero();

            given().post("/clocks/metrics-held/pause").then().statusCode(200);
            given().delete("/clocks/metrics-held").then().statusCode(204);
            assertThat(scrape().since(before, "timer_clocks_paused")).isZero();
        } finally {
            given().delete("/clocks/metrics-held");
            given().delete("/clocks/metrics-running");
        }
    }

    @Test
    void queueGauges_addUpEveryClock_takeTheOldestAgeOverAll_andCountTheClocks() {
        PrometheusScrape before = scrape();
        try {
            given().contentType(ContentType.JSON).body("{}").put("/clocks/metrics-1").then().statusCode(201);
            given().contentType(ContentType.JSON).body("{}").put("/clocks/metrics-2").then().statusCode(201);
            add("d", 100, 201);
            addOn("metrics-1", "{\"id\":\"a\",\"delay\":100,\"payload\":[1]}");
            advanceOn("metrics-1", 50);
            addOn("metrics-2", "{\"id\":\"b\",\"delay\":100}");
            addOn("metrics-2", "{\"id\":\"c\",\"delay\":100}");
            advanceOn("metrics-2", 20);

            PrometheusScrape both = scrape();
            assertThat(both.since(before, "timer_clocks", "mode=\"virtual\"")).isEqualTo(2);
            assertThat(both.value("timer_queue_depth")).isEqualTo(4);
            assertThat(both.value("timer_queue_payload_bytes")).isEqualTo(("d" + "a[1]" + "b" + "c").length());
            assertThat(both.value("timer_queue_oldest_age_virtual_seconds")).isEqualTo(0.050);
            assertThat(both.value("timer_queue_invariants_ok")).isEqualTo(1);
            assertThat(both.text()).doesNotContain("metrics-1", "metrics-2");

            given().delete("/clocks/metrics-1").then().statusCode(204);
            PrometheusScrape one = scrape();
            assertThat(one.since(before, "timer_clocks", "mode=\"virtual\"")).isEqualTo(1);
            assertThat(one.value("timer_queue_depth")).isEqualTo(3);
            assertThat(one.value("timer_queue_oldest_age_virtual_seconds")).isEqualTo(0.020);
        } finally {
            given().delete("/clocks/metrics-1");
            given().delete("/clocks/metrics-2");
        }
    }

    @Test
    void deliveryMeters_countEachEventExactly_andTheGaugesFollowTheStates() {
        PrometheusScrape before = scrape();
        try {
            given().contentType(ContentType.JSON).body("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":1}}")
                    .put("/clocks/metrics-q").then().statusCode(201);
            for (String id : new String[] {"mq-job-1", "mq-job-2", "mq-job-3"}) {
                addOn("metrics-q", "{\"id\":\"" + id + "\",\"delay\":5}");
            }
            advanceOn("metrics-q", 5);
            assertThat(scrape().value("timer_delivery_queue_depth", "state=\"ready\"")).isEqualTo(3);

            List<Map<String, Object>> claimed = given().contentType(ContentType.JSON).body("{\"max\":3}")
                    .post("/clocks/metrics-q/deliveries/claim").then().statusCode(200)
                    .extract().path("deliveries");
            deliveryCall(claimed.get(0), "ack", 204);
            deliveryCall(claimed.get(1), "nack", 200);            // its only attempt: dead

            PrometheusScrape after = scrape();
            assertThat(after.since(before, "timer_deliveries_total", "event=\"claimed\"")).isEqualTo(3);
            assertThat(after.since(before, "timer_deliveries_total", "event=\"acked\"")).isEqualTo(1);
            assertThat(after.since(before, "timer_deliveries_total", "event=\"nacked\"")).isEqualTo(1);
            assertThat(after.since(before, "timer_deliveries_total", "event=\"dead\"")).isEqualTo(1);
            assertThat(after.since(before, "timer_deliveries_total", "event=\"expired\"")).isZero();
            assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"claim\"",
                    "outcome=\"success\"")).isEqualTo(1);
            assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"nack\"",
                    "outcome=\"success\"")).isEqualTo(1);
            assertThat(after.since(before, "timer_delivery_lateness_seconds_count"))
                    .as("a virtual clock's lateness is not wall time").isZero();
            assertThat(after.value("timer_delivery_queue_depth", "state=\"ready\"")).isZero();
            assertThat(after.value("timer_delivery_queue_depth", "state=\"in_flight\"")).isEqualTo(1);
            assertThat(after.value("timer_delivery_queue_depth", "state=\"dead\"")).isEqualTo(1);
            assertThat(after.value("timer_delivery_oldest_ready_age_seconds")).isZero();
            assertThat(after.value("timer_firing_thread_alive")).isEqualTo(1);
            assertThat(after.text()).doesNotContain("metrics-q", "mq-job");
        } finally {
            given().delete("/clocks/metrics-q");
        }
    }

    private static void deliveryCall(Map<String, Object> delivery, String call, int expectedStatus) {
        given().contentType(ContentType.JSON).body("{\"claim\":\"" + delivery.get("claim") + "\"}")
                .post("/clocks/metrics-q/deliveries/" + delivery.get("id") + "/" + call).then()
                .statusCode(expectedStatus);
    }

    private static void addOn(String clock, String body) {
        given().contentType(ContentType.JSON).body(body).post("/clocks/" + clock + "/timers").then().statusCode(201);
    }

    private static void advanceOn(String clock, long by) {
        given().contentType(ContentType.JSON).body("{\"by\":" + by + "}").post("/clocks/" + clock + "/advance")
                .then().statusCode(200);
    }

    @Test
    void capacityGauges_reportTheLimitsAndWhatThePendingTimersHold() {
        assertThat(scrape().value("timer_queue_payload_bytes")).isZero();
        given().contentType(ContentType.JSON).body("{\"id\":\"cap\",\"delay\":5,\"payload\":{\"k\":1}}")
                .post("/timers").then().statusCode(201);

        PrometheusScrape scrape = scrape();
        assertThat(scrape.value("timer_queue_capacity")).isEqualTo(50);
        assertThat(scrape.value("timer_queue_capacity_bytes")).isEqualTo(256.0 * 1024 * 1024);
        assertThat(scrape.value("timer_queue_payload_bytes")).isEqualTo("cap".length() + "{\"k\":1}".length());
        assertThat(scrape.value("timer_queue_serving")).isEqualTo(1);
        assertThat(scrape.value("timer_queue_invariants_ok")).isEqualTo(1);
    }

    @Test
    void actuator_exposesOnlyHealthInfoMetricsAndPrometheus() {
        given().get("/actuator/health").then().statusCode(200);
        given().get("/actuator/info").then().statusCode(200);
        given().get("/actuator/metrics").then().statusCode(200);
        for (String hidden : new String[] {"env", "beans", "configprops", "heapdump", "threaddump", "loggers",
                "mappings", "shutdown"}) {
            given().get("/actuator/" + hidden).then().statusCode(404);
        }
    }

    @Test
    void health_reportsTimerQueueUpWithDetails() {
        add("h1", 5, 201);
        given().get("/actuator/health").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("components.timerQueue.status", equalTo("UP"))
                .body("components.timerQueue.details.size", equalTo(1))
                .body("components.timerQueue.details.now", equalTo(0))
                .body("components.timerQueue.details.arity", equalTo(4))
                .body("components.firing.status", equalTo("UP"))
                .body("components.firing.details.thread", equalTo("running"))
                .body("components.firing.details.heldBackClocks", equalTo(0))
                .body("components.pushClient.status", equalTo("UP"))
                .body("components.pushClient.details.ioReactor", equalTo("ACTIVE"))
                .body("components.pushClient.details.restarts", equalTo(0));
        // the firing thread's health is outside readiness: with it stopped, every request still works
        given().get("/actuator/health/readiness").then()
                .statusCode(200)
                .body("components.timerQueue.status", equalTo("UP"))
                .body("components.firing", nullValue())
                .body("components.pushClient", nullValue());
    }

    private static void add(String id, long delay, int expectedStatus) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"delay\":" + delay + "}")
                .post("/timers").then().statusCode(expectedStatus);
    }

    private static PrometheusScrape scrape() {
        return PrometheusScrape.parse(given().get("/actuator/prometheus").then().statusCode(200)
                .extract().asString());
    }
}
