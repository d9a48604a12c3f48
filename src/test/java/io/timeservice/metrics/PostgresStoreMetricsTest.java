package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.concurrent.TimeUnit;

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
 * the {@code firing} component and the alive gauge follow the loop's thread.
 */
class PostgresStoreMetricsTest {

    private String schema;
    private ConfigurableApplicationContext service;
    private RequestSpecification http;

    @BeforeEach
    void start() {
        schema = TestDatabase.schemaNameFor(PostgresStoreMetricsTest.class);
        service = new SpringApplicationBuilder(TimeServiceApplication.class).run("--server.port=0",
                "--timeservice.durability=none", "--timeservice.store=postgresql", "--timeservice.clock.mode=system",
                "--timeservice.postgresql.sample-period=100ms",
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

        PrometheusScrape scrape = awaitReady(1);

        assertThat(scrape.value("timer_queue_depth")).isEqualTo(1);
        assertThat(scrape.value("timer_queue_payload_bytes")).isEqualTo("later".length());
        assertThat(scrape.value("timer_clocks")).isEqualTo(1);
        assertThat(scrape.value("timer_delivery_queue_depth", "state=\"in_flight\"")).isZero();
        assertThat(scrape.value("timer_firing_thread_alive")).isEqualTo(1);
        assertThat(Math.abs(scrape.value("timer_store_clock_skew_seconds"))).isLessThan(5);
        assertThat(scrape.text()).doesNotContain("timer_queue_invariants_ok", "timer_delivery_held_back",
                "timer_queue_serving");
        RestAssured.given(http).get("/actuator/health").then().statusCode(200)
                .body("components.firing.status", equalTo("UP"))
                .body("components.firing.details.thread", equalTo("running"));

        service.getBean(PostgresStore.class).firing().close();

        RestAssured.given(http).get("/actuator/health").then()
                .body("components.firing.status", equalTo("DOWN"));
        assertThat(PrometheusScrape.parse(RestAssured.given(http).get("/actuator/prometheus").then().statusCode(200)
                .extract().asString()).value("timer_firing_thread_alive")).isZero();
    }

    /** Scrapes until the sampled ready count reaches {@code ready}; fails after 60 s. */
    private PrometheusScrape awaitReady(int ready) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            PrometheusScrape scrape = PrometheusScrape.parse(RestAssured.given(http).get("/actuator/prometheus")
                    .then().statusCode(200).extract().asString());
            double value = scrape.value("timer_delivery_queue_depth", "state=\"ready\"");
            if (value == ready) {
                return scrape;
            }
            assertThat(System.nanoTime()).as("ready deliveries in the scrape: %s of %d within 60 s", value, ready)
                    .isLessThan(deadline);
            Thread.sleep(20); // polling the scraped gauge
        }
    }
}
