package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code POST /clocks/{clock}/advance {"next": true}} over HTTP: each event kind, nothing pending, and refusals. */
class AdvanceToNextRestTest extends RestTestSupport {

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    private Response next(String clock) {
        Response response = json("{\"next\":true}").post("/clocks/" + clock + "/advance");
        response.then().statusCode(200);
        return response;
    }

    @Test
    void next_stepsThroughATimerALeaseEndAndARetry_namingEach() {
        json("{\"mode\":\"virtual\",\"delivery\":\"queue\",\"now\":100,"
                + "\"retry\":{\"initialBackoff\":500,\"jitter\":0}}").put("/clocks/steps").then().statusCode(201);
        json("{\"id\":\"job\",\"delay\":20}").post("/clocks/steps/timers").then().statusCode(201);

        next("steps").then().body("event", equalTo("timer")).body("now", equalTo(120))
                .body("fired.id", equalTo(List.of("job"))).body("firedCount", equalTo(1));
        json("{\"max\":1,\"lease\":1000}").post("/clocks/steps/deliveries/claim").then().statusCode(200);
        next("steps").then().body("event", equalTo("lease")).body("now", equalTo(1_120))
                .body("fired", equalTo(List.of()));
        next("steps").then().body("event", equalTo("retry")).body("now", equalTo(1_620));
        given().get("/clocks/steps").then().body("deliveries.ready", equalTo(1));
    }

    @Test
    void next_withNothingPending_leavesTheClock_andAnswersNoEvent() {
        json("{\"now\":7}").put("/clocks/idle").then().statusCode(201);

        next("idle").then().body("now", equalTo(7)).body("fired", equalTo(List.of()))
                .body("complete", equalTo(true)).body("event", nullValue());
    }

    @Test
    void next_withByOrTo_orFalse_isInvalidRequest_andASystemClockIsNotVirtual() {
        assertProblem(json("{\"next\":true,\"by\":1}").post("/clock/advance"), 400, "invalid_request");
        assertProblem(json("{\"next\":true,\"to\":1}").post("/clock/advance"), 400, "invalid_request");
        assertProblem(json("{\"next\":false}").post("/clock/advance"), 400, "invalid_request");
        assertProblem(json("{\"next\":1}").post("/clock/advance"), 400, "invalid_request");
        json("{\"mode\":\"system\"}").put("/clocks/wall").then().statusCode(201);
        assertProblem(json("{\"next\":true}").post("/clocks/wall/advance"), 409, "clock_not_virtual");
    }
}
