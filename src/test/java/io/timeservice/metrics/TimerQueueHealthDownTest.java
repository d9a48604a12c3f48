package io.timeservice.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.timeservice.store.memory.CorruptionHooks;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/** Breaks the heap on purpose (own context, thrown away afterwards) and expects health to say which rule broke. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "timeservice.invariants.min-check-interval=0s")
@DirtiesContext
class TimerQueueHealthDownTest {

    @LocalServerPort
    int port;

    @Autowired
    MemoryClock scheduler;

    @Test
    void health_isDownAndNamesTheBrokenInvariant_whenTheIndexNoLongerMatchesTheHeap() {
        RestAssured.port = port;
        for (String id : new String[] {"a", "b", "c"}) {
            given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"delay\":5}")
                    .post("/timers").then().statusCode(201);
        }
        given().get("/actuator/health").then().statusCode(200).body("components.timerQueue.status", equalTo("UP"));
        assertThat(scrape().value("timer_queue_invariants_ok")).isEqualTo(1);

        CorruptionHooks.swapCellsWithoutIndex(scheduler, 0, 2);

        given().get("/actuator/health").then()
                .statusCode(503)
                .body("status", equalTo("DOWN"))
                .body("components.timerQueue.status", equalTo("DOWN"))
                .body("components.timerQueue.details.brokenInvariant", equalTo("root-is-earliest"))
                .body("components.timerQueue.details.detail", containsString("fires before the root"));
        given().get("/queue/invariants").then()
                .statusCode(200)
                .body("ok", equalTo(false))
                .body("checks.find { it.name == 'index-matches-heap' }.ok", equalTo(false));
        assertThat(scrape().value("timer_queue_invariants_ok")).as("what TimeServiceInvariantsBroken alerts on")
                .isZero();
    }

    private static PrometheusScrape scrape() {
        return PrometheusScrape.parse(given().get("/actuator/prometheus").then().statusCode(200)
                .extract().asString());
    }
}
