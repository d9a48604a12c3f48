package io.timeservice.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.timeservice.store.memory.RecordingLog;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Fail-stop over HTTP (issue 13, item 4): once the journal fails, every queue call, reads included, answers 503
 * {@code storage_unavailable} and readiness goes DOWN, while liveness stays UP. Own context (thrown away afterwards),
 * journaling into a {@link RecordingLog} that the test fails on purpose.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.demo.enabled=true", "timeservice.capacity=999"})
@DirtiesContext
class FailStopRestTest {

    private static final String PROBLEM_JSON = "application/problem+json";

    @LocalServerPort
    int port;

    @Autowired
    MemoryClock scheduler;

    @Test
    void afterAJournalFailure_everyQueueCallIs503_andReadinessIsDown() {
        RecordingLog journal = new RecordingLog();
        scheduler.attachLog(journal);
        RequestSpecification api = new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build();
        RequestSpecification actuator = new RequestSpecBuilder().setPort(port).build();

        RestAssured.given(api).contentType(ContentType.JSON).body("{\"id\":\"a\",\"delay\":5}").post("/timers")
                .then().statusCode(201);
        RestAssured.given(api).get("/timers/a").then().statusCode(200);
        RestAssured.given(actuator).get("/actuator/health/readiness").then()
                .statusCode(200).body("status", equalTo("UP"));

        journal.fail();

        for (String read : new String[] {"/timers/a", "/timers", "/queue", "/queue/next", "/clock",
                "/queue/invariants", "/queue/heap"}) {
            RestAssured.given(api).get(read).then()
                    .statusCode(503)
                    .contentType(PROBLEM_JSON)
                    .header("Retry-After", "1")
                    .body("code", equalTo("storage_unavailable"))
                    .body("detail", containsString("until it is restarted"));
        }
        RestAssured.given(api).contentType(ContentType.JSON).body("{\"id\":\"b\",\"delay\":5}").post("/timers")
                .then().statusCode(503).body("code", equalTo("storage_unavailable"));
        RestAssured.given(api).contentType(ContentType.JSON).body("{\"by\":10}").post("/clock/advance")
                .then().statusCode(503).body("code", equalTo("storage_unavailable"));
        RestAssured.given(api).contentType(ContentType.JSON).body("{\"delay\":1}").patch("/timers/a")
                .then().statusCode(503).body("code", equalTo("storage_unavailable"));
        RestAssured.given(api).delete("/timers/a")
                .then().statusCode(503).body("code", equalTo("storage_unavailable"));
        RestAssured.given(api).post("/demo/reset")
                .then().statusCode(503).body("code", equalTo("storage_unavailable"));

        RestAssured.given(actuator).get("/actuator/health/readiness").then()
                .statusCode(503)
                .body("status", equalTo("DOWN"))
                .body("components.timerQueue.status", equalTo("DOWN"))
                .body("components.timerQueue.details.stopped", containsString("the journal failed"));
        RestAssured.given(actuator).get("/actuator/health/liveness").then()
                .statusCode(200).body("status", equalTo("UP"));
        RestAssured.given(actuator).get("/actuator/prometheus").then()   // what TimeServiceStopped alerts on
                .statusCode(200).body(containsString("\ntimer_queue_serving 0.0\n"));
    }
}
