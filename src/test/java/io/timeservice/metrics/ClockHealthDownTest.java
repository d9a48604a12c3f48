package io.timeservice.metrics;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.CorruptionHooks;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/** Health checks every clock, not only {@code default}: a broken heap on another clock is DOWN, naming the clock. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "timeservice.invariants.min-check-interval=0s")
@DirtiesContext
class ClockHealthDownTest {

    @LocalServerPort
    int port;

    @Autowired
    ClockRegistry clocks;

    @Test
    void health_isDownAndNamesTheClock_whenAnotherClocksHeapBreaks() {
        RestAssured.port = port;
        given().contentType(ContentType.JSON).body("{}").put("/clocks/other").then().statusCode(201);
        for (String id : new String[] {"a", "b", "c"}) {
            given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"delay\":5}")
                    .post("/clocks/other/timers").then().statusCode(201);
        }
        given().get("/actuator/health").then().statusCode(200)
                .body("components.timerQueue.status", equalTo("UP"))
                .body("components.timerQueue.details.clocks", equalTo(2))
                .body("components.timerQueue.details.size", equalTo(3));

        CorruptionHooks.swapCellsWithoutIndex(clocks.scheduler("other"), 0, 2);

        given().get("/actuator/health").then()
                .statusCode(503)
                .body("components.timerQueue.status", equalTo("DOWN"))
                .body("components.timerQueue.details.clock", equalTo("other"))
                .body("components.timerQueue.details.brokenInvariant", equalTo("root-is-earliest"));
    }
}
