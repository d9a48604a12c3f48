package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Overrides for one key over HTTP (issue 44: {@code PUT/GET/DELETE /clocks/{c}/flow/keys/{key}}, {@code ?busiest=N}),
 * on the memory store, which keeps them (the PostgreSQL store refuses them: PostgresFlowRefusalTest).
 */
class FlowKeyRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
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
