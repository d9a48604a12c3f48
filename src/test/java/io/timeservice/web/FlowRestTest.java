package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Flow control over HTTP (issue 44): a timer's key, a clock's flow settings, and a claim they hold back. */
class FlowRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aFlowClock_showsItsLimits_andHoldsAKeyAtItsConcurrency() {
        String settings = "{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1,\"rate\":{\"limit\":10,\"period\":1000},"
                + "\"burst\":5},\"clockConcurrency\":10,\"clockRate\":{\"limit\":100,\"period\":1000}}";
        json(settings).put("/clocks/f").then().statusCode(201)
                .body("flow.concurrency", equalTo(1)).body("flow.rate.limit", equalTo(10))
                .body("flow.rate.period", equalTo(1000)).body("flow.burst", equalTo(5))
                .body("clockConcurrency", equalTo(10)).body("clockRate.limit", equalTo(100));
        json(settings).put("/clocks/f").then().statusCode(200);
        assertProblem(json("{\"delivery\":\"queue\"}").put("/clocks/f"), 409, "clock_conflict");
        json("{\"id\":\"a1\",\"delay\":1,\"key\":\"tenant-a\"}").post("/clocks/f/timers").then().statusCode(201)
                .body("key", equalTo("tenant-a"));
        json("{\"ops\":[{\"op\":\"add\",\"id\":\"a2\",\"delay\":1,\"key\":\"tenant-a\"},"
                + "{\"op\":\"add\",\"id\":\"n\",\"delay\":1}]}").post("/clocks/f/batch").then().statusCode(200)
                .body("results.key", equalTo(java.util.Arrays.asList("tenant-a", null)));
        json("{\"by\":1}").post("/clocks/f/advance").then().statusCode(200);

        json("{\"max\":10}").post("/clocks/f/deliveries/claim").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("a1", "n")))
                .body("deliveries.key", equalTo(java.util.Arrays.asList("tenant-a", null)));
        given().get("/clocks/f").then().body("deliveries.ready", equalTo(1));
        given().get("/clocks/default").then().body("$", not(hasKey("flow")));
    }

    @Test
    void aSnapshotDocument_keepsTheFlowSettingsAndTheKeys() {
        json("{\"delivery\":\"queue\",\"flow\":{\"rate\":{\"limit\":2,\"period\":500}},\"clockConcurrency\":3}")
                .put("/clocks/s").then().statusCode(201);
        json("{\"id\":\"a\",\"delay\":5,\"key\":\"tenant-a\"}").post("/clocks/s/timers").then().statusCode(201);
        String document = given().get("/clocks/s/snapshot").then().statusCode(200)
                .body("clock.flow.rate.limit", equalTo(2)).body("clock.clockConcurrency", equalTo(3))
                .body("timers[0].key", equalTo("tenant-a")).extract().asString();

        json(document).put("/clocks/t/snapshot").then().statusCode(201);

        given().get("/clocks/t").then().body("flow.rate.period", equalTo(500)).body("clockConcurrency", equalTo(3))
                .body("$", not(hasKey("clockRate")));
        given().get("/clocks/t/timers/a").then().body("key", equalTo("tenant-a"));
    }

    @Test
    void aLongPoll_takesADeliveryHeldBackByTheRate_onceItsTokenRefills() {
        json("{\"mode\":\"system\",\"flow\":{\"rate\":{\"limit\":1,\"period\":300}}}").put("/clocks/sys")
                .then().statusCode(201);
        json("{\"id\":\"a\",\"delay\":0,\"key\":\"k\"}").post("/clocks/sys/timers").then().statusCode(201);
        json("{\"id\":\"b\",\"delay\":0,\"key\":\"k\"}").post("/clocks/sys/timers").then().statusCode(201);
        json("{\"max\":2,\"wait\":10000}").post("/clocks/sys/deliveries/claim").then().statusCode(200)
                .body("deliveries.size()", equalTo(1));

        // nothing signals a token refilling: the poll looks again by itself, well before its wait ends
        json("{\"max\":2,\"wait\":20000}").post("/clocks/sys/deliveries/claim").then().statusCode(200)
                .body("deliveries.size()", equalTo(1));
    }

    @Test
    void badFlowSettingsAndKeys_areRefused() {
        assertProblem(json("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":0}}").put("/clocks/f"), 400,
                "invalid_request");
        assertProblem(json("{\"flow\":{\"concurrency\":1}}").put("/clocks/f"), 400, "invalid_request");
        assertProblem(json("{\"delivery\":\"queue\",\"clockRate\":{\"limit\":1}}").put("/clocks/f"), 400,
                "invalid_request");
        assertProblem(json("{\"delivery\":\"queue\",\"flow\":{\"burst\":2}}").put("/clocks/f"), 400,
                "invalid_request");
        assertProblem(json("{\"copyOf\":\"default\",\"clockConcurrency\":2}").put("/clocks/f"), 400,
                "invalid_request");
        assertProblem(json("{\"id\":\"t\",\"delay\":1,\"key\":\"a b\"}").post("/timers"), 400, "invalid_request");
        assertProblem(json("{\"id\":\"t\",\"delay\":1,\"key\":\"\"}").post("/timers"), 400, "invalid_request");
        assertProblem(json("{\"id\":\"t\",\"delay\":1,\"key\":null}").post("/timers"), 400, "invalid_request");
    }
}
