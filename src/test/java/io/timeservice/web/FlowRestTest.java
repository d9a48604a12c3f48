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

    @Test
    void aKeysOverride_isSetReplacedReadListedAndDeleted() {
        json("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1}}").put("/clocks/f").then().statusCode(201);
        json("{\"concurrency\":3}").put("/clocks/f/flow/keys/tenant-a").then().statusCode(201)
                .header("Location", "/clocks/f/flow/keys/tenant-a")
                .body("key", equalTo("tenant-a")).body("concurrency", equalTo(3)).body("$", not(hasKey("rate")));
        json("{\"concurrency\":2,\"rate\":{\"limit\":5,\"period\":1000}}").put("/clocks/f/flow/keys/tenant-a")
                .then().statusCode(200).body("concurrency", equalTo(2)).body("rate.limit", equalTo(5));
        given().get("/clocks/f/flow/keys/tenant-a").then().statusCode(200).body("concurrency", equalTo(2))
                .body("rate.period", equalTo(1000));
        for (String id : List.of("a1", "a2", "a3")) {
            json("{\"id\":\"" + id + "\",\"delay\":1,\"key\":\"tenant-a\"}").post("/clocks/f/timers").then()
                    .statusCode(201);
        }
        json("{\"id\":\"b1\",\"delay\":1,\"key\":\"tenant-b\"}").post("/clocks/f/timers").then().statusCode(201);
        json("{\"by\":1}").post("/clocks/f/advance").then().statusCode(200);
        json("{\"max\":10}").post("/clocks/f/deliveries/claim").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("a1", "b1", "a2")));

        given().get("/clocks/f/flow/keys?busiest=1").then().statusCode(200)
                .body("keys.key", equalTo(List.of("tenant-a"))).body("keys[0].ready", equalTo(1))
                .body("keys[0].inFlight", equalTo(2)).body("keys[0].heldBack", equalTo(1))
                .body("keys[0].concurrency", equalTo(2)).body("keys[0].rate.limit", equalTo(5))
                .body("keys[0].tokens", equalTo(3)).body("keys[0].overridden", equalTo(true));
        given().get("/clocks/f/flow/keys").then().statusCode(200)
                .body("keys.key", equalTo(List.of("tenant-a", "tenant-b")))
                .body("keys[1].concurrency", equalTo(1)).body("keys[1].overridden", equalTo(false))
                .body("keys[1]", not(hasKey("rate")));

        json("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1}}").put("/clocks/f").then().statusCode(200)
                .body("flow.concurrency", equalTo(1)); // the clock's settings, its overrides aside

        given().delete("/clocks/f/flow/keys/tenant-a").then().statusCode(204);
        assertProblem(given().get("/clocks/f/flow/keys/tenant-a"), 404, "flow_key_not_found");
        assertProblem(given().delete("/clocks/f/flow/keys/tenant-a"), 404, "flow_key_not_found");
    }

    @Test
    void badOverrides_andBadBusiestCounts_areRefused_andChangeNothing() {
        json("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1}}").put("/clocks/f").then().statusCode(201);
        json("{\"delivery\":\"queue\"}").put("/clocks/plain").then().statusCode(201);
        assertProblem(json("{}").put("/clocks/f/flow/keys/a"), 400, "invalid_request");
        assertProblem(json("{\"concurrency\":null}").put("/clocks/f/flow/keys/a"), 400, "invalid_request");
        assertProblem(json("{\"concurrency\":0}").put("/clocks/f/flow/keys/a"), 400, "invalid_request");
        assertProblem(json("{\"burst\":2}").put("/clocks/f/flow/keys/a"), 400, "invalid_request");
        assertProblem(json("{\"rate\":{\"limit\":1}}").put("/clocks/f/flow/keys/a"), 400, "invalid_request");
        assertProblem(json("{\"concurrency\":1}").put("/clocks/f/flow/keys/a~b!"), 400, "invalid_request");
        assertProblem(json("{\"concurrency\":1}").put("/clocks/plain/flow/keys/a"), 400, "invalid_request");
        assertProblem(json("{\"concurrency\":1}").put("/clocks/nope/flow/keys/a"), 404, "clock_not_found");
        assertProblem(given().get("/clocks/f/flow/keys?busiest=0"), 400, "invalid_limit");
        assertProblem(given().get("/clocks/f/flow/keys?busiest=101"), 400, "invalid_limit");
        assertProblem(given().get("/clocks/nope/flow/keys"), 404, "clock_not_found");
        assertProblem(given().get("/clocks/f/flow/keys/a"), 404, "flow_key_not_found");
        given().get("/clocks/plain/flow/keys").then().statusCode(200).body("keys", equalTo(List.of()));
    }

    @Test
    void aSnapshotDocument_keepsTheOverrides_andRefusesBadOnes() {
        json("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1}}").put("/clocks/s").then().statusCode(201);
        json("{\"rate\":{\"limit\":4,\"period\":100}}").put("/clocks/s/flow/keys/tenant-a").then().statusCode(201);
        String document = given().get("/clocks/s/snapshot").then().statusCode(200)
                .body("clock.flowKeys.tenant-a.rate.limit", equalTo(4))
                .body("clock.flowKeys.tenant-a", not(hasKey("concurrency"))).extract().asString();

        json(document).put("/clocks/t/snapshot").then().statusCode(201);
        given().get("/clocks/t/flow/keys/tenant-a").then().statusCode(200).body("rate.period", equalTo(100));

        assertProblem(json(document.replace("\"limit\":4", "\"limit\":0")).put("/clocks/u/snapshot"), 400,
                "invalid_snapshot");
        assertProblem(json(document.replace("\"flowKeys\":{\"tenant-a\":{", "\"flowKeys\":{\"a b\":{"))
                .put("/clocks/u/snapshot"), 400, "invalid_snapshot");
        assertProblem(given().get("/clocks/u"), 404, "clock_not_found");
    }
}
