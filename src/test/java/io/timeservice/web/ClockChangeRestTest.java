package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A live clock's changes over HTTP (issue 47: {@code POST /clocks/{c}/pause}, {@code /resume}, {@code PATCH /clocks/{c}}
 * with a retry policy or clock-wide flow limits), on the memory store (ClockChangeRestPostgresTest: on PostgreSQL).
 */
class ClockChangeRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aPausedClock_firesButHandsNothingOut_untilItsResume() {
        json("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201).body("paused", equalTo(false));
        given().post("/clocks/q/pause").then().statusCode(200).body("paused", equalTo(true));
        json("{\"id\":\"b\",\"delay\":2}").post("/clocks/q/timers").then().statusCode(201);
        json("{\"id\":\"a\",\"delay\":1}").post("/clocks/q/timers").then().statusCode(201);
        json("{\"by\":5}").post("/clocks/q/advance").then().statusCode(200);

        json("{\"max\":10}").post("/clocks/q/deliveries/claim").then().statusCode(200)
                .body("deliveries", equalTo(List.of()));
        given().get("/clocks/q").then().statusCode(200).body("paused", equalTo(true))
                .body("deliveries.ready", equalTo(2));
        json("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(200).body("paused", equalTo(true));

        given().post("/clocks/q/resume").then().statusCode(200).body("paused", equalTo(false));
        json("{\"max\":10}").post("/clocks/q/deliveries/claim").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("a", "b")));
    }

    @Test
    void aPatch_changesTheRetryPolicyMemberByMember_andAFlowClocksOwnLimits() {
        json("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":3,\"jitter\":0}}").put("/clocks/q").then()
                .statusCode(201).body("retry", not(hasKey("maxRetryDuration")));
        json("{\"retry\":{\"maxAttempts\":5,\"maxRetryDuration\":60000}}").patch("/clocks/q").then().statusCode(200)
                .body("retry.maxAttempts", equalTo(5)).body("retry.jitter", equalTo(0.0f))
                .body("retry.maxRetryDuration", equalTo(60000));
        json("{\"paused\":true}").patch("/clocks/q").then().statusCode(200).body("paused", equalTo(true));
        String document = given().get("/clocks/q/snapshot").then().statusCode(200)
                .body("clock.retry.maxRetryDuration", equalTo(60000)).extract().asString();
        json(document).put("/clocks/loaded/snapshot").then().statusCode(201)
                .body("retry.maxRetryDuration", equalTo(60000)).body("paused", equalTo(false));

        json("{\"delivery\":\"queue\",\"clockConcurrency\":1}").put("/clocks/f").then().statusCode(201);
        json("{\"clockConcurrency\":4,\"clockRate\":{\"limit\":9,\"period\":1000}}").patch("/clocks/f").then()
                .statusCode(200).body("clockConcurrency", equalTo(4)).body("clockRate.limit", equalTo(9));
        given().get("/clocks/f").then().body("clockConcurrency", equalTo(4));
    }

    @Test
    void badChanges_areProblems_andChangeNothing() {
        json("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201);
        assertProblem(json("{}").patch("/clocks/q"), 400, "invalid_request");
        assertProblem(json("{\"rate\":2,\"paused\":true}").patch("/clocks/q"), 400, "invalid_request");
        assertProblem(json("{\"clockConcurrency\":2}").patch("/clocks/q"), 400, "invalid_request");
        assertProblem(json("{\"retry\":{\"maxRetryDuration\":-1}}").patch("/clocks/q"), 400, "invalid_request");
        assertProblem(json("{\"paused\":\"yes\"}").patch("/clocks/q"), 400, "invalid_request");
        assertProblem(json("{\"paused\":null}").patch("/clocks/q"), 400, "invalid_request");
        assertProblem(given().post("/clocks/default/pause"), 400, "invalid_request");
        assertProblem(given().post("/clocks/none/pause"), 404, "clock_not_found");

        given().get("/clocks/q").then().statusCode(200).body("paused", equalTo(false))
                .body("retry.maxAttempts", equalTo(10)).body("$", not(hasKey("clockConcurrency")));
        given().get("/clocks/default").then().statusCode(200).body("paused", equalTo(false));
    }
}
