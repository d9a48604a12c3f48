package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.timeservice.TimeServiceApplication;
import io.timeservice.store.postgres.PostgresStore;
import io.timeservice.store.postgres.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gauges and the {@code firing} health component on the PostgreSQL store: the service (on a schema of its own,
 * with a system default clock and a 100 ms sample period) fires an added timer by its firing loop, and the scrape
 * shows it ready under the memory store's names, with the skew gauge beside them and the memory-only gauges absent;
 * the {@code firing} component and the alive gauge follow the loop's thread. Known operations over HTTP count
 * exactly as on the memory store ({@link MetricsEndpointTest}): operations by outcome, added and fired timers,
 * delivery events, and lateness and fire lag on the system clock. The schedules' gauge counts by state as on the
 * memory store ({@link QueueGaugesTest}), from the sample.
 */
class PostgresStoreMetricsTest {

    private String schema;
    private ConfigurableApplicationContext service;
    private RequestSpecification http;

    @BeforeEach
    void start() {
        schema = TestDatabase.schemaNameFor(PostgresStoreMetricsTest.class);
        TestDatabase.createSchema(schema); // migrated at once, not by the service's Flyway (StoreSelectionTest's)
        start("--timeservice.deliveries.max=100000");
    }

    /** Starts the service on the test's schema, with {@code setting} besides the common ones. */
    private void start(String setting) {
        service = new SpringApplicationBuilder(TimeServiceApplication.class).run("--server.port=0",
                "--timeservice.durability=none", "--timeservice.store=postgresql", "--timeservice.clock.mode=system",
                "--timeservice.postgresql.sample-period=100ms", setting,
                "--spring.datasource.url=" + TestDatabase.withSchema(TestDatabase.URL, schema),
                "--spring.flyway.schemas=" + schema);
        int port = ((WebServerApplicationContext) service).getWebServer().getPort();
        http = new RequestSpecBuilder().setPort(port).build();
    }

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
        TestDatabase.dropSchema(schema);
    }

    @Test
    void aTimerFiredByTheLoop_showsAsReadyInTheSampledGauges_withTheSkewBeside_andFiringFollowsTheLoop()
            throws Exception {
        RestAssured.given(http).contentType(ContentType.JSON).body("{\"id\":\"now\",\"delay\":0}").post("/timers")
                .then().statusCode(201);
        RestAssured.given(http).contentType(ContentType.JSON).body("{\"id\":\"later\",\"delay\":3600000}")
                .post("/timers").then().statusCode(201);

        // a sample taken after both adds: one before the second add's commit could show the fired one alone
        PrometheusScrape scrape = awaitSample(1, 1);

        assertThat(scrape.value("timer_queue_depth")).isEqualTo(1);
        assertThat(scrape.value("timer_queue_payload_bytes")).isEqualTo("later".length());
        assertThat(scrape.value("timer_clocks", "mode=\"system\"")).isEqualTo(1); // the default clock
        assertThat(scrape.value("timer_clocks", "mode=\"virtual\"")).isZero();
        assertThat(scrape.value("timer_delivery_queue_depth", "state=\"in_flight\"")).isZero();
        assertThat(scrape.value("timer_firing_thread_alive")).isEqualTo(1);
        assertThat(Math.abs(scrape.value("timer_store_clock_skew_seconds"))).isLessThan(5);
        assertThat(scrape.value("timer_delivery_held_back")).isZero();
        assertThat(scrape.value("timer_delivery_capacity")).isEqualTo(100_000);
        assertThat(scrape.text()).doesNotContain("timer_queue_invariants_ok", "timer_queue_serving");
        RestAssured.given(http).get("/actuator/health").then().statusCode(200)
                .body("components.firing.status", equalTo("UP"))
                .body("components.firing.details.thread", equalTo("running"))
                .body("components.firing.details.heldBackClocks", equalTo(0));

        service.getBean(PostgresStore.class).firing().close();

        RestAssured.given(http).get("/actuator/health").then()
                .body("components.firing.status", equalTo("DOWN"));
        assertThat(PrometheusScrape.parse(RestAssured.given(http).get("/actuator/prometheus").then().statusCode(200)
                .extract().asString()).value("timer_firing_thread_alive")).isZero();
    }

    /**
     * At {@code timeservice.deliveries.max=1} the loop fires one of two due timers and holds the other back: the
     * sampled gauge, the delivery counts and the {@code firing} component (still UP) say so, as on the memory store.
     */
    @Test
    void aClockHeldBackByTheDeliveryLimit_showsInTheGauge_theCounts_andTheFiringHealth() throws Exception {
        service.close();
        start("--timeservice.deliveries.max=1");
        for (String id : new String[] {"first", "second"}) {
            RestAssured.given(http).contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"delay\":0}")
                    .post("/timers").then().statusCode(201);
        }

        PrometheusScrape scrape = awaitSample(1, 1);

        assertThat(scrape.value("timer_delivery_held_back")).isEqualTo(1);
        assertThat(scrape.value("timer_delivery_capacity")).isEqualTo(1);
        RestAssured.given(http).get("/clocks/default").then().statusCode(200)
                .body("deliveries.ready", equalTo(1)).body("deliveries.firingHeldBack", equalTo(true));
        RestAssured.given(http).get("/actuator/health").then().statusCode(200)
                .body("components.firing.status", equalTo("UP"))
                .body("components.firing.details.heldBackClocks", equalTo(1));
    }

    /** {@code timer_clocks_paused} follows a pause and a resume (sampled, so awaited). */
    @Test
    void aPausedClock_countsInThePausedGauge_untilItsResume() {
        json("{\"mode\":\"virtual\",\"delivery\":\"queue\"}").put("/clocks/held").then().statusCode(201);
        RestAssured.given(http).post("/clocks/held/pause").then().statusCode(200);
        await("the pause sampled").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> scrape().value("timer_clocks_paused"), paused -> paused == 1);

        RestAssured.given(http).post("/clocks/held/resume").then().statusCode(200);
        await("the resume sampled").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> scrape().value("timer_clocks_paused"), paused -> paused == 0);
    }

    @Test
    void knownOperations_countExactlyUnderTheMemoryStoresMeters_withLatenessAndFireLagOnTheSystemClock() {
        PrometheusScrape before = scrape();

        add("/timers", "a", 3_600_000, 201);
        add("/timers", "b", 3_600_000, 201);
        add("/timers", "a", 5, 409);
        add("/timers", "bad id!", 5, 400);
        json("{\"delay\":7200000}").patch("/timers/b").then().statusCode(200);
        RestAssured.given(http).delete("/timers/b").then().statusCode(204);
        RestAssured.given(http).delete("/timers/gone").then().statusCode(404);
        RestAssured.given(http).get("/timers/a").then().statusCode(200);
        RestAssured.given(http).get("/timers/gone").then().statusCode(404);
        RestAssured.given(http).get("/timers").then().statusCode(200);

        // a virtual queue clock, two attempts, 1 s backoff: expiry and retries by advancing it
        json("{\"mode\":\"virtual\",\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":2,\"initialBackoff\":1000,"
                + "\"jitter\":0}}").put("/clocks/mq").then().statusCode(201);
        RestAssured.given(http).get("/clocks/mq/queue/next").then().statusCode(404);
        for (String id : new String[] {"j1", "j2", "j3"}) {
            add("/clocks/mq/timers", id, 5, 201);
        }
        advance(5);                                            // fires 3
        List<Map<String, Object>> first = claim("/clocks/mq", "{\"max\":3,\"lease\":1000}", 3);
        deliveryCall("/clocks/mq", first.get(0), "ack", 204);  // acked
        deliveryCall("/clocks/mq", first.get(0), "ack", 204);  // a repeat: no new event
        deliveryCall("/clocks/mq", first.get(1), "nack", 200); // nacked, waits 1 s
        advance(5_000);  // the third's lease ends (expired, waits until 2 s), both become ready again (redelivered)
        List<Map<String, Object>> again = claim("/clocks/mq", "{\"max\":3,\"lease\":1000}", 2);
        deliveryCall("/clocks/mq", again.get(0), "nack", 200); // its last attempt: nacked and dead
        RestAssured.given(http).get("/clocks/mq/deliveries/dead").then().statusCode(200);
        RestAssured.given(http).post("/clocks/mq/deliveries/dead/" + again.get(0).get("id") + "/redrive").then()
                .statusCode(200);

        // the system default clock: the firing loop fires it (fire lag), then it is claimed (lateness); waiting for
        // it here, not in a long poll, which would count one claim per look
        add("/timers", "now", 0, 201);
        awaitReadyOnTheDefaultClock();
        Map<String, Object> due = claim("", "{\"max\":1}", 1).get(0);
        json("{\"acks\":[{\"id\":\"now\",\"claim\":\"" + due.get("claim") + "\"}]}").post("/deliveries/ack")
                .then().statusCode(200);                       // a batch ack: acked

        PrometheusScrape after = scrape();
        assertThat(after.since(before, "timer_added_total")).isEqualTo(6);
        assertThat(after.since(before, "timer_edited_total")).isEqualTo(1);
        assertThat(after.since(before, "timer_cancelled_total")).isEqualTo(1);
        assertThat(after.since(before, "timer_fired_total")).isEqualTo(4);
        assertThat(after.since(before, "timer_advance_fired_count")).as("two advances, one round of the loop")
                .isEqualTo(3);
        assertOperations(before, after, "add", "success", 6);
        assertOperations(before, after, "add", "conflict", 1);
        assertOperations(before, after, "add", "rejected", 1);
        assertOperations(before, after, "edit", "success", 1);
        assertOperations(before, after, "cancel", "success", 1);
        assertOperations(before, after, "cancel", "not_found", 1);
        assertOperations(before, after, "get", "success", 1);
        assertOperations(before, after, "get", "not_found", 1);
        assertOperations(before, after, "list", "success", 1);
        assertOperations(before, after, "peek", "not_found", 1);
        assertOperations(before, after, "advance", "success", 3);
        assertOperations(before, after, "claim", "success", 3);
        assertOperations(before, after, "ack", "success", 3);
        assertOperations(before, after, "nack", "success", 2);
        assertOperations(before, after, "dead_letters", "success", 2);
        assertEvents(before, after, "claimed", 6);
        assertEvents(before, after, "acked", 2);
        assertEvents(before, after, "nacked", 2);
        assertEvents(before, after, "expired", 1);
        assertEvents(before, after, "redelivered", 2);
        assertEvents(before, after, "dead", 1);
        assertEvents(before, after, "redriven", 1);
        assertThat(after.since(before, "timer_delivery_lateness_seconds_count"))
                .as("only the system clock's claim: a virtual clock's lateness is not wall time").isEqualTo(1);
        assertThat(after.since(before, "timer_fire_lag_seconds_count")).isEqualTo(1);
        assertThat(after.text()).doesNotContain("mq", "j1", "bad id");
    }

    @Test
    void schedules_countByStateInTheSample_overAllClocks() throws InterruptedException {
        json("{\"mode\":\"virtual\",\"now\":0}").put("/clocks/sa").then().statusCode(201);
        json("{\"mode\":\"virtual\",\"now\":0}").put("/clocks/sb").then().statusCode(201);
        json("{\"every\":1000}").put("/clocks/sa/schedules/on").then().statusCode(201);
        json("{\"every\":1000,\"paused\":true}").put("/clocks/sa/schedules/held").then().statusCode(201);
        json("{\"every\":1000}").put("/clocks/sb/schedules/on").then().statusCode(201);
        json("{\"every\":1000,\"limit\":1}").put("/clocks/sb/schedules/once").then().statusCode(201);
        json("{\"by\":1000}").post("/clocks/sb/advance").then().statusCode(200); // once fires its only occurrence
        RestAssured.given(http).get("/clocks/sb/schedules/once").then().statusCode(200)
                .body("state", equalTo("done"));

        PrometheusScrape scrape = awaitSchedules(2, 1, 1);

        assertThat(scrape.value("timer_schedules", "state=\"active\"")).isEqualTo(2);
        assertThat(scrape.value("timer_schedules", "state=\"paused\"")).isEqualTo(1);
        assertThat(scrape.value("timer_schedules", "state=\"done\"")).isEqualTo(1);

        RestAssured.given(http).post("/clocks/sa/schedules/held/resume").then().statusCode(200);
        RestAssured.given(http).delete("/clocks/sb").then().statusCode(204); // its schedules go with it

        awaitSchedules(2, 0, 0);
    }

    /**
     * Issue 44's flow gauges as on the memory store ({@link DeliveryGaugesTest}): the held-back deliveries and the
     * keys holding them, from the key rows of the sample, and the tokens denied, counted by the claims.
     */
    @Test
    void flowGauges_countTheReadyDeliveriesHeldBack_andTheirKeys_andTokensDeniedAreCounted() {
        PrometheusScrape before = scrape();
        json("{\"mode\":\"virtual\",\"delivery\":\"queue\",\"flow\":{\"concurrency\":1,"
                + "\"rate\":{\"limit\":1,\"period\":1000},\"burst\":5}}").put("/clocks/flow").then().statusCode(201);
        for (String id : new String[] {"a0", "a1", "a2", "b0"}) {
            json("{\"id\":\"" + id + "\",\"delay\":10,\"key\":\"" + id.charAt(0) + "\"}").post("/clocks/flow/timers")
                    .then().statusCode(201);
        }
        json("{\"by\":10}").post("/clocks/flow/advance").then().statusCode(200);

        List<Map<String, Object>> claimed = claim("/clocks/flow", "{\"max\":10,\"lease\":60000}", 2);

        assertThat(claimed).extracting(d -> d.get("id")).containsExactly("a0", "b0");
        awaitFlow(2, 1);
        deliveryCall("/clocks/flow", claimed.get(0), "ack", 204);
        awaitFlow(0, 0); // a may give again
        assertThat(claim("/clocks/flow", "{\"max\":10,\"lease\":60000}", 1)).extracting(d -> d.get("id"))
                .containsExactly("a1");
        assertThat(scrape().since(before, "timer_flow_tokens_denied_total")).as("a's bucket of 5 had tokens for each")
                .isZero();
        json("{\"mode\":\"virtual\",\"delivery\":\"queue\",\"flow\":{\"rate\":{\"limit\":1,\"period\":1000}}}")
                .put("/clocks/tight").then().statusCode(201);
        for (String id : new String[] {"t0", "t1"}) {
            json("{\"id\":\"" + id + "\",\"delay\":1,\"key\":\"t\"}").post("/clocks/tight/timers").then()
                    .statusCode(201);
        }
        json("{\"by\":1}").post("/clocks/tight/advance").then().statusCode(200);
        claim("/clocks/tight", "{\"max\":10}", 1);
        claim("/clocks/tight", "{\"max\":10}", 0);
        assertThat(scrape().since(before, "timer_flow_tokens_denied_total"))
                .as("t spent its last token with t1 ready: counted once; then it waits").isEqualTo(1);
        awaitFlow(2, 2); // a (a1 in flight at a concurrency of 1, a2 ready) and t (no token), over both clocks
    }

    /** Scrapes until a sample shows these flow gauges; fails after 60 s. */
    private void awaitFlow(int heldBack, int keysAtLimit) {
        await("a sample with " + heldBack + " held back of " + keysAtLimit + " keys").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20)).until(this::scrape,
                        scrape -> scrape.value("timer_flow_held_back") == heldBack
                                && scrape.value("timer_flow_keys_at_limit") == keysAtLimit);
    }

    private RequestSpecification json(String body) {
        return RestAssured.given(http).contentType(ContentType.JSON).body(body);
    }

    private void add(String path, String id, long delay, int expectedStatus) {
        json("{\"id\":\"" + id + "\",\"delay\":" + delay + "}").post(path).then().statusCode(expectedStatus);
    }

    private void advance(long by) {
        json("{\"by\":" + by + "}").post("/clocks/mq/advance").then().statusCode(200);
    }

    private List<Map<String, Object>> claim(String clockPath, String body, int expected) {
        List<Map<String, Object>> claimed = json(body).post(clockPath + "/deliveries/claim").then().statusCode(200)
                .extract().path("deliveries");
        assertThat(claimed).hasSize(expected);
        return claimed;
    }

    private void deliveryCall(String clockPath, Map<String, Object> delivery, String call, int expectedStatus) {
        json("{\"claim\":\"" + delivery.get("claim") + "\"}").post(clockPath + "/deliveries/" + delivery.get("id")
                + "/" + call).then().statusCode(expectedStatus);
    }

    private static void assertOperations(PrometheusScrape before, PrometheusScrape after, String operation,
                                         String outcome, int count) {
        assertThat(after.since(before, "timer_operation_seconds_count", "operation=\"" + operation + "\"",
                "outcome=\"" + outcome + "\"")).as("%s %s", operation, outcome).isEqualTo(count);
    }

    private static void assertEvents(PrometheusScrape before, PrometheusScrape after, String event, int count) {
        assertThat(after.since(before, "timer_deliveries_total", "event=\"" + event + "\"")).as(event)
                .isEqualTo(count);
    }

    private PrometheusScrape scrape() {
        return PrometheusScrape.parse(RestAssured.given(http).get("/actuator/prometheus").then().statusCode(200)
                .extract().asString());
    }

    /** Polls the default clock's delivery counts until one is ready; fails after 60 s. */
    private void awaitReadyOnTheDefaultClock() {
        await("a ready delivery on the default clock").atMost(Duration.ofSeconds(60))
                .until(() -> RestAssured.given(http).get("/deliveries").then().statusCode(200).extract()
                        .<Integer>path("ready") > 0);
    }

    /** Scrapes until a sample shows these schedule counts by state; fails after 60 s. */
    private PrometheusScrape awaitSchedules(int active, int paused, int done) {
        return await("a sample with " + active + " active, " + paused + " paused and " + done + " done schedules")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(this::scrape,
                        scrape -> scrape.value("timer_schedules", "state=\"active\"") == active
                                && scrape.value("timer_schedules", "state=\"paused\"") == paused
                                && scrape.value("timer_schedules", "state=\"done\"") == done);
    }

    /** Scrapes until a sample shows {@code ready} ready deliveries and {@code pending} timers; fails after 60 s. */
    private PrometheusScrape awaitSample(int ready, int pending) {
        return await("a sample with " + ready + " ready and " + pending + " pending").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20)).until(this::scrape,
                        scrape -> scrape.value("timer_delivery_queue_depth", "state=\"ready\"") == ready
                                && scrape.value("timer_queue_depth") == pending);
    }
}
