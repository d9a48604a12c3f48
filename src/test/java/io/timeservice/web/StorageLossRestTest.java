package io.timeservice.web;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.timeservice.TimeServiceApplication;
import io.timeservice.store.postgres.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The PostgreSQL store's database goes away under the service and comes back (issue 18): meanwhile calls answer 503
 * {@code storage_unavailable} (problem+json) and readiness is DOWN with the {@code store} component DOWN; afterwards
 * the same service serves again by itself and what it acknowledged before is there. The service runs on a database
 * of its own, which the test closes to connections and whose backends it terminates (nothing shared is restarted).
 */
class StorageLossRestTest {

    private static final Duration RECOVERY = Duration.ofSeconds(30);

    private String databaseName;
    private ConfigurableApplicationContext service;
    private RequestSpecification api;
    private RequestSpecification actuator;

    @BeforeEach
    void startServiceOnADatabaseOfItsOwn() {
        databaseName = TestDatabase.schemaNameFor(StorageLossRestTest.class);
        admin("CREATE DATABASE " + databaseName);
        String url = TestDatabase.urlOfDatabase(databaseName);
        service = new SpringApplicationBuilder(TimeServiceApplication.class).run("--server.port=0",
                "--timeservice.durability=none", "--timeservice.store=postgresql", "--spring.datasource.url=" + url,
                "--spring.datasource.hikari.connection-timeout=500");
        int port = ((WebServerApplicationContext) service).getWebServer().getPort();
        api = new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build();
        actuator = new RequestSpecBuilder().setPort(port).build();
    }

    @AfterEach
    void stopAndDrop() {
        if (service != null) {
            service.close();
        }
        admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS true");
        admin("DROP DATABASE IF EXISTS " + databaseName + " WITH (FORCE)");
    }

    @Test
    void whileTheDatabaseIsAway_callsAre503StorageUnavailable_andReadinessIsDown_thenItServesAgainByItself() {
        RestAssured.given(api).contentType(ContentType.JSON).body("{\"id\":\"kept\",\"delay\":5}").post("/timers")
                .then().statusCode(201);
        RestAssured.given(actuator).get("/actuator/health/readiness").then()
                .statusCode(200).body("components.store.status", equalTo("UP"));

        admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS false");
        admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + databaseName + "'");

        RestAssured.given(api).contentType(ContentType.JSON).body("{\"id\":\"lost\",\"delay\":5}").post("/timers")
                .then().statusCode(503).contentType("application/problem+json")
                .body("code", equalTo("storage_unavailable"));
        RestAssured.given(api).get("/timers/kept").then().statusCode(503)
                .body("code", equalTo("storage_unavailable"));
        RestAssured.given(api).get("/clocks").then().statusCode(503).body("code", equalTo("storage_unavailable"));
        RestAssured.given(actuator).get("/actuator/health/readiness").then()
                .statusCode(503).body("status", equalTo("DOWN")).body("components.store.status", equalTo("DOWN"));
        RestAssured.given(actuator).get("/actuator/health/liveness").then().statusCode(200);

        admin("ALTER DATABASE " + databaseName + " WITH ALLOW_CONNECTIONS true");

        awaitReadinessUp();
        RestAssured.given(api).get("/timers/kept").then().statusCode(200).body("fireTime", equalTo(5));
        RestAssured.given(api).contentType(ContentType.JSON).body("{\"id\":\"after\",\"delay\":5}").post("/timers")
                .then().statusCode(201);
    }

    /** Readiness asks the database each time (each answer waits up to the pool's 500 ms): bounded by RECOVERY. */
    private void awaitReadinessUp() {
        await("readiness UP after the database came back").atMost(RECOVERY).pollInterval(Duration.ofMillis(20))
                .until(() -> RestAssured.given(actuator).get("/actuator/health/readiness").statusCode() == 200);
    }

    private static void admin(String sql) {
        TestDatabase.admin(sql);
    }
}
