package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET} and {@code PUT /clocks/{clock}/snapshot}: a saved clock loads into a clock that saves the same document
 * but for its name and then runs as the source does; every kind of bad document is refused naming its member's JSON
 * pointer, with nothing created; a large clock is written as it is generated (chunked).
 */
class SnapshotRestTest extends RestTestSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    /** A queueing clock with pending timers (one edited), deliveries waiting, dead and in flight (two). */
    private void buildScenario() {
        json("{\"now\":1000,\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":2,\"jitter\":0}}")
                .put("/clocks/source").then().statusCode(201);
        for (String body : List.of("{\"id\":\"d1\",\"delay\":10,\"payload\":{\"n\":1}}",
                "{\"id\":\"d2\",\"delay\":10,\"priority\":-3}", "{\"id\":\"d3\",\"delay\":20,\"payload\":[1,2.50]}",
                "{\"id\":\"d4\",\"delay\":20}", "{\"id\":\"later\",\"delay\":5000,\"payload\":\"text\"}",
                "{\"id\":\"edited\",\"delay\":7000,\"priority\":4}")) {
            json(body).post("/clocks/source/timers").then().statusCode(201);
        }
        json("{\"priority\":9}").patch("/clocks/source/timers/edited").then().statusCode(200);
        json("{\"by\":30}").post("/clocks/source/advance").then().statusCode(200);
        Map<String, String> claims = claimAll("source");
        nack("d2", claims, "");                          // waiting, then ready again at 2030 for attempt 2
        nack("d1", claims, ",\"retryAfter\":60000");      // waiting until 61030
        nack("d4", claims, ",\"retryAfter\":1000");       // ready again at 2030
        json("{\"by\":1000}").post("/clocks/source/advance").then().statusCode(200);
        claims = claimAll("source");                     // d2 and d4, attempt 2; d3 is still in flight
        nack("d2", claims, "");                          // its last attempt: dead
    }

    private Map<String, String> claimAll(String clock) {
        Map<String, String> claims = new java.util.HashMap<>();
        for (Object each : json("{\"max\":10,\"lease\":30000}").post("/clocks/" + clock + "/deliveries/claim")
                .then().statusCode(200).extract().jsonPath().getList("deliveries", Map.class)) {
            Map<?, ?> delivery = (Map<?, ?>) each;
            claims.put((String) delivery.get("id"), (String) delivery.get("claim"));
        }
        return claims;
    }

    private void nack(String id, Map<String, String> claims, String more) {
        json("{\"claim\":\"" + claims.get(id) + "\"" + more + "}").post("/clocks/source/deliveries/" + id + "/nack")
                .then().statusCode(200);
    }

    private JsonNode save(String clock) {
        Response saved = given().get("/clocks/" + clock + "/snapshot");
        saved.then().statusCode(200).contentType(ContentType.JSON);
        return JSON.readTree(saved.asString());
    }

    static ObjectNode withoutName(JsonNode document) {
        ObjectNode copy = (ObjectNode) document.deepCopy();
        ((ObjectNode) copy.get("clock")).remove("name");
        return copy;
    }

    @Test
    void aSavedClock_loadsIntoOneThatSavesTheSameDocumentButItsName_andRunsAsTheSourceDoes() {
        buildScenario();
        JsonNode saved = save("source");
        assertThat(saved.get("format").asInt()).isEqualTo(1);
        assertThat(saved.at("/clock/name").asString()).isEqualTo("source");
        assertThat(saved.at("/clock/now").asLong()).isEqualTo(2030);
        assertThat(saved.get("timers")).hasSize(2);
        assertThat(saved.get("schedules")).isEmpty();
        assertThat(saved.get("deliveries")).hasSize(4);
        assertThat(saved.at("/timers/1/version").asInt()).isEqualTo(2);
        List<String> states = saved.get("deliveries").valueStream().map(d -> d.get("id").asString() + ":"
                + d.get("state").asString() + ":" + d.get("attempt").asInt()).toList();
        // by sequence (d1..d4 were added first); d3 was in flight: saved ready with its attempt
        assertThat(states).containsExactly("d1:waiting:2", "d2:dead:2", "d3:ready:1", "d4:ready:2");
        assertThat(saved.at("/deliveries/0/retryAt").asLong()).isEqualTo(61030);
        assertThat(saved.at("/deliveries/2/readyAt").asLong()).isEqualTo(2030);
        assertThat(saved.at("/clock/nextSequence").asLong()).isEqualTo(7);

        json(saved.toString()).put("/clocks/loaded/snapshot").then().statusCode(201)
                .header("Location", "/clocks/loaded").body("name", equalTo("loaded")).body("now", equalTo(2030))
                .body("size", equalTo(2)).body("deliveries.ready", equalTo(2));
        JsonNode again = save("loaded");
        assertThat(again.at("/clock/name").asString()).isEqualTo("loaded");
        assertThat(withoutName(again)).isEqualTo(withoutName(saved));

        // the loaded clock runs as a fork of the source does (a fork, too, makes in-flight deliveries ready)
        json("{\"copyOf\":\"source\"}").put("/clocks/forked").then().statusCode(201);
        for (String clock : List.of("forked", "loaded")) {
            json("{\"id\":\"new\",\"delay\":1}").post("/clocks/" + clock + "/timers").then().statusCode(201);
        }
        String forked = stepAndClaim("forked");
        assertThat(forked).contains("new@1", "d3@1", "later@1", "edited@1");
        assertThat(stepAndClaim("loaded")).isEqualTo(forked);
    }

    private String stepAndClaim(String clock) {
        json("{\"by\":100000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        return json("{\"max\":10,\"lease\":30000}").post("/clocks/" + clock + "/deliveries/claim").then()
                .statusCode(200).extract().jsonPath().getList("deliveries", Map.class).stream()
                .map(d -> d.get("id") + "@" + d.get("attempt") + "/" + d.get("fireTime")).toList().toString();
    }

    @Test
    void aFrozenScaledClock_savesAndLoadsWithItsRate_andAStartedOneRunsOnFromItsTime() {
        json("{\"mode\":\"scaled\",\"rate\":0,\"now\":5000}").put("/clocks/frozen").then().statusCode(201);
        json("{\"id\":\"t\",\"delay\":100,\"payload\":{\"x\":1}}").post("/clocks/frozen/timers").then()
                .statusCode(201);
        JsonNode saved = save("frozen");
        assertThat(saved.at("/clock/mode").asString()).isEqualTo("scaled");
        assertThat(saved.at("/clock/rate").asDouble()).isZero();
        json(saved.toString()).put("/clocks/frozen-too/snapshot").then().statusCode(201)
                .body("mode", equalTo("scaled")).body("now", equalTo(5000));
        assertThat(withoutName(save("frozen-too"))).isEqualTo(withoutName(saved));

        String running = saved.toString().replace("\"rate\":0", "\"rate\":0.5");
        json(running).put("/clocks/running/snapshot").then().statusCode(201).body("rate", equalTo(0.5f));
        assertThat(save("running").at("/clock/rate").asDouble()).isEqualTo(0.5);
    }

    @Test
    void aFixtureWrittenByHand_loadsWithTheDefaultsOfWhatItLeavesOut() {
        json("{\"format\":1,\"clock\":{\"now\":1000},\"timers\":[{\"id\":\"b\",\"fireTime\":5000,\"sequence\":9},"
                + "{\"id\":\"a\",\"fireTime\":5000,\"sequence\":3,\"payload\":{\"x\":1}}]}")
                .put("/clocks/fixture/snapshot").then().statusCode(201).body("now", equalTo(1000))
                .body("size", equalTo(2)).body("mode", equalTo("virtual")).body("delivery", equalTo("response"));
        JsonNode saved = save("fixture");
        assertThat(saved.at("/clock/nextSequence").asLong()).isEqualTo(3);
        assertThat(saved.at("/timers/0/id").asString()).isEqualTo("a");
        assertThat(saved.at("/timers/0/sequence").asLong()).isEqualTo(1);
        assertThat(saved.at("/timers/1/id").asString()).isEqualTo("b");
        json("{\"by\":4000}").post("/clocks/fixture/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("a", "b")));
    }

    @Test
    void everyKindOfBadDocument_isRefusedAtItsMember_andCreatesNothing() {
        String timer = "{\"id\":\"t\",\"fireTime\":10,\"sequence\":1}";
        String queue = "\"clock\":{\"delivery\":\"queue\",\"now\":100}";
        Map<String, String> pointerByDocument = new java.util.LinkedHashMap<>();
        pointerByDocument.put("[]", "");
        pointerByDocument.put("{\"format\":1,\"clock\":{}} {}", "");
        pointerByDocument.put("{\"format\":1,\"clock\":{}", "");
        pointerByDocument.put("{\"clock\":{}}", "/format");
        pointerByDocument.put("{\"format\":2,\"clock\":{}}", "/format");
        pointerByDocument.put("{\"format\":\"1\",\"clock\":{}}", "/format");
        pointerByDocument.put("{\"format\":1}", "/clock");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"extra\":1}", "/extra");
        pointerByDocument.put("{\"format\":1,\"format\":1,\"clock\":{}}", "/format");
        pointerByDocument.put("{\"format\":1,\"clock\":[]}", "/clock");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"mode\":\"fast\"}}", "/clock/mode");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"mode\":\"system\",\"delivery\":\"response\"}}",
                "/clock");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"retry\":{\"maxAttempts\":0}}}", "/clock/retry");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"retry\":{\"later\":0}}}", "/clock/retry/later");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"mode\":\"scaled\"}}", "/clock");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"rate\":2}}", "/clock");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"mode\":\"scaled\",\"rate\":0.0000001}}", "/clock/rate");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"mode\":\"scaled\",\"rate\":\"2\"}}", "/clock/rate");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"now\":-1}}", "/clock/now");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"now\":1.5}}", "/clock/now");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"nextSequence\":0}}", "/clock/nextSequence");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":{}}", "/timers");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[" + timer + ",7]}", "/timers/1");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"sequence\":1}]}",
                "/timers/0/fireTime");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"a b\",\"fireTime\":1,"
                + "\"sequence\":1}]}", "/timers/0/id");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[" + timer + "," + timer.replace("\"sequence\":1",
                "\"sequence\":2") + "]}", "/timers/1/id");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[" + timer + "," + timer.replace("\"t\"",
                "\"u\"") + "]}", "/timers/1/sequence");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"nextSequence\":1},\"timers\":[" + timer + "]}",
                "/timers/0/sequence");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":-5,"
                + "\"sequence\":1}]}", "/timers/0/fireTime");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                + "\"priority\":2147483648}]}", "/timers/0/priority");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                + "\"version\":0}]}", "/timers/0/version");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                + "\"createdAt\":5}]}", "/timers/0/createdAt");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                + "\"payload\":\"" + "x".repeat(20_000) + "\"}]}", "/timers/0/payload");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                + "\"payload\":\"\\udc00\"}]}", "/timers/0/payload");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                + "\"payload\":{\"a\":1,\"a\":2}}]}", "/timers/0/payload");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"schedules\":[{}]}", "/schedules/0/id");
        pointerByDocument.put("{\"format\":1,\"clock\":{},\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"ready\"}]}", "/deliveries/0");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1}]}", "/deliveries/0/state");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"in_flight\"}]}", "/deliveries/0/state");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"lost\"}]}", "/deliveries/0/state");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":101,"
                + "\"sequence\":1,\"state\":\"ready\"}]}", "/deliveries/0/fireTime");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"ready\",\"attempt\":11}]}", "/deliveries/0/attempt");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"waiting\"}]}", "/deliveries/0/retryAt");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"ready\",\"retryAt\":5}]}", "/deliveries/0/retryAt");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"ready\",\"deadReason\":\"x\"}]}", "/deliveries/0/deadReason");
        pointerByDocument.put("{\"format\":1," + queue + ",\"deliveries\":[{\"id\":\"d\",\"fireTime\":0,"
                + "\"sequence\":1,\"state\":\"ready\",\"readyAt\":500}]}", "/deliveries/0/readyAt");
        pointerByDocument.put("{\"format\":1," + queue + ",\"timers\":[" + timer + "],\"deliveries\":[{\"id\":\"d\","
                + "\"fireTime\":0,\"sequence\":1,\"state\":\"ready\"}]}", "/deliveries/0/sequence");

        for (Map.Entry<String, String> bad : pointerByDocument.entrySet()) {
            Response refused = json(bad.getKey()).put("/clocks/fixture/snapshot");
            assertProblem(refused, 400, "invalid_snapshot");
            assertThat(refused.jsonPath().getString("member")).as(bad.getKey().length() > 300
                    ? bad.getKey().substring(0, 300) : bad.getKey()).isEqualTo(bad.getValue());
            given().get("/clocks/fixture").then().statusCode(404);
        }
    }

    /** Private targets are not allowed here (the default): a loaded push target meets PUT /clocks' rule. */
    @Test
    void aLoadedPushTargetOnLoopback_isRefusedAsNotAllowed_andABadOneAtItsMember_creatingNothing() {
        String push = "{\"format\":1,\"clock\":{\"delivery\":\"push\",\"push\":{\"url\":\"http://127.0.0.1:9/hooks\"";
        assertProblem(json(push + "}}}").put("/clocks/hooked/snapshot"), 400, "target_not_allowed");
        given().get("/clocks/hooked").then().statusCode(404);

        Map<String, String> pointerByDocument = Map.of(
                push + ",\"timeout\":1}}}", "/clock/push",
                push + ",\"secrets\":[1]}}}", "/clock/push/secrets/0",
                push + ",\"headers\":{\"X-A\":2}}}}", "/clock/push/headers/X-A",
                push + ",\"secretsCount\":-1}}}", "/clock/push/secretsCount",
                push + ",\"other\":1}}}", "/clock/push/other",
                "{\"format\":1,\"clock\":{\"delivery\":\"push\"}}", "/clock");
        for (Map.Entry<String, String> bad : pointerByDocument.entrySet()) {
            Response refused = json(bad.getKey()).put("/clocks/hooked/snapshot");
            assertProblem(refused, 400, "invalid_snapshot");
            assertThat(refused.jsonPath().getString("member")).as(bad.getKey()).isEqualTo(bad.getValue());
            given().get("/clocks/hooked").then().statusCode(404);
        }
    }

    @Test
    void aLoad_isRefused_forATakenOrBadName_andAtTheCapacity() {
        json("{}").put("/clocks/there").then().statusCode(201);
        String document = "{\"format\":1,\"clock\":{}}";
        assertProblem(json(document).put("/clocks/there/snapshot"), 409, "clock_conflict");
        assertProblem(json(document).put("/clocks/a!/snapshot"), 400, "invalid_id");
        assertProblem(given().get("/clocks/nowhere/snapshot"), 404, "clock_not_found");
        assertProblem(given().contentType("text/plain").body(document).put("/clocks/x/snapshot"), 415,
                "unsupported_media_type");
    }

    /** Larger than max-body-bytes (64 KiB), which does not bound a snapshot: it has its own limit. */
    @Test
    void aLargeClock_loadsPastTheBodyLimit_andIsAnsweredChunked_asItIsWritten() {
        int count = 100_000;
        StringBuilder document = new StringBuilder("{\"format\":1,\"clock\":{\"now\":0},\"timers\":[");
        for (int i = 0; i < count; i++) {
            document.append(i == 0 ? "" : ",").append("{\"id\":\"timer-").append(i).append("\",\"fireTime\":")
                    .append(1 + i % 1000).append(",\"sequence\":").append(i + 1).append('}');
        }
        document.append("]}");
        // without the contract filter: validating 100,000 timers against the schema would be most of the test
        RestAssured.given().port(port).contentType(ContentType.JSON).body(document.toString())
                .put("/clocks/large/snapshot").then().statusCode(201).body("size", equalTo(count));
        Response saved = RestAssured.given().port(port).get("/clocks/large/snapshot");
        saved.then().statusCode(200).header("Transfer-Encoding", "chunked").header("Content-Length",
                org.hamcrest.Matchers.nullValue());
        JsonNode tree = JSON.readTree(saved.asString());
        assertThat(tree.get("timers")).hasSize(count);
        assertThat(tree.at("/timers/99999/id").asString()).isEqualTo("timer-99999");
        assertThat(tree.at("/clock/nextSequence").asLong()).isEqualTo(count + 1);
    }
}
