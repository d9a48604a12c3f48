package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With tracing off (no OTLP endpoint) the service still keeps the W3C trace context a caller sent with the request
 * that added a timer, directly or in a batch, and hands it to the worker with the delivery: the worker continues the
 * caller's trace. A malformed {@code traceparent} is ignored, never refused.
 */
class TraceContextRestTest extends RestTestSupport {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    static final String OTHER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void theAddingRequestsContext_reachesTheClaimedDelivery() {
        json("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201);
        json("{\"id\":\"traced\",\"delay\":5}").header("traceparent", PARENT).header("tracestate", "congo=t61rcWkgMzE")
                .post("/clocks/q/timers").then().statusCode(201);
        json("{\"id\":\"plain\",\"delay\":5}").post("/clocks/q/timers").then().statusCode(201);
        json("{\"id\":\"malformed\",\"delay\":5}").header("traceparent", "00-nonsense").post("/clocks/q/timers")
                .then().statusCode(201);
        json("{\"ops\":[{\"op\":\"add\",\"id\":\"b1\",\"delay\":5},{\"op\":\"add\",\"id\":\"b2\",\"delay\":5}]}")
                .header("traceparent", OTHER).post("/clocks/q/batch").then().statusCode(200);

        json("{\"by\":5}").post("/clocks/q/advance").then().statusCode(200);
        Response claimed = json("{\"max\":10}").post("/clocks/q/deliveries/claim");
        claimed.then().statusCode(200);
        Map<String, Map<String, Object>> byId = claimed.jsonPath().<Map<String, Object>>getList("deliveries")
                .stream().collect(Collectors.toMap(d -> (String) d.get("id"), Function.identity()));

        assertEquals(PARENT, byId.get("traced").get("traceparent"));
        assertEquals("congo=t61rcWkgMzE", byId.get("traced").get("tracestate"));
        assertFalse(byId.get("plain").containsKey("traceparent"));
        assertFalse(byId.get("malformed").containsKey("traceparent"));
        for (String id : List.of("b1", "b2")) {
            assertEquals(OTHER, byId.get(id).get("traceparent"));
            assertFalse(byId.get(id).containsKey("tracestate"));
        }
    }

    @Test
    void theSnapshotDocument_carriesTheContexts_asOptionalMembers_andALoadChecksThem() {
        json("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201);
        json("{\"id\":\"fired\",\"delay\":5}").header("traceparent", PARENT).header("tracestate", "a=b")
                .post("/clocks/q/timers").then().statusCode(201);
        json("{\"id\":\"pending\",\"delay\":50}").header("traceparent", OTHER).post("/clocks/q/timers").then()
                .statusCode(201);
        json("{\"id\":\"plain\",\"delay\":50}").post("/clocks/q/timers").then().statusCode(201);
        json("{\"every\":1000}").header("traceparent", OTHER).put("/clocks/q/schedules/s").then().statusCode(201);
        json("{\"by\":5}").post("/clocks/q/advance").then().statusCode(200);

        Response saved = given().get("/clocks/q/snapshot");
        saved.then().statusCode(200)
                .body("timers.find { it.id == 'pending' }.traceparent", equalTo(OTHER))
                .body("timers.find { it.id == 'pending' }", not(hasKey("tracestate")))
                .body("timers.find { it.id == 'plain' }", not(hasKey("traceparent")))
                .body("deliveries[0].traceparent", equalTo(PARENT))
                .body("deliveries[0].tracestate", equalTo("a=b"))
                .body("schedules[0].traceparent", equalTo(OTHER))
                .body("timers.find { it.id == 's:1000' }.traceparent", equalTo(OTHER));
        json(saved.asString()).put("/clocks/loaded/snapshot").then().statusCode(201);
        assertEquals(saved.asString().replace("\"name\":\"q\"", "\"name\":\"loaded\""),
                given().get("/clocks/loaded/snapshot").asString(), "save, load, save is the identity");

        String malformed = saved.asString().replace(OTHER, "00-nonsense");
        assertProblem(json(malformed).put("/clocks/bad/snapshot"), 400, "invalid_snapshot");
    }
}
