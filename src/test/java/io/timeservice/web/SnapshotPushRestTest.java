package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Snapshot documents of push clocks: the document carries the target but never its write-only secrets (only their
 * number), so a saved push clock loads unsigned unless the document is given {@code secrets}. The target is on
 * 127.0.0.1, allowed here by {@code timeservice.push.allow-private-targets}; nothing fires, so nothing is pushed.
 */
@TestPropertySource(properties = "timeservice.push.allow-private-targets=true")
class SnapshotPushRestTest extends RestTestSupport {

    private static final String URL = "http://127.0.0.1:9/hooks";

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    private JsonNode save(String clock) {
        Response saved = given().get("/clocks/" + clock + "/snapshot");
        saved.then().statusCode(200);
        return SnapshotRestTest.JSON.readTree(saved.asString());
    }

    @Test
    void aSavedPushClock_showsItsTargetButNoSecret_andLoadsUnsigned_orSignedWhenSecretsAreAdded() {
        json("{\"delivery\":\"push\",\"now\":100,\"push\":{\"url\":\"" + URL + "\",\"timeout\":2000,"
                + "\"concurrency\":4,\"headers\":{\"X-Tenant\":\"acme\"},\"secrets\":[\"" + PushRestTest.SECRET
                + "\",\"second-secret\"]}}").put("/clocks/hooks").then().statusCode(201);
        json("{\"id\":\"later\",\"delay\":60000}").post("/clocks/hooks/timers").then().statusCode(201);

        Response raw = given().get("/clocks/hooks/snapshot");
        assertThat(raw.asString()).doesNotContain(PushRestTest.SECRET).doesNotContain("second-secret");
        JsonNode saved = SnapshotRestTest.JSON.readTree(raw.asString());
        JsonNode push = saved.at("/clock/push");
        assertThat(saved.at("/clock/delivery").asString()).isEqualTo("push");
        assertThat(push.get("url").asString()).isEqualTo(URL);
        assertThat(push.get("timeout").asLong()).isEqualTo(2000);
        assertThat(push.get("concurrency").asInt()).isEqualTo(4);
        assertThat(push.at("/headers/X-Tenant").asString()).isEqualTo("acme");
        assertThat(push.get("secretsCount").asInt()).isEqualTo(2);
        assertThat(push.has("secrets")).isFalse();

        json(saved.toString()).put("/clocks/unsigned/snapshot").then().statusCode(201)
                .body("delivery", equalTo("push")).body("push.url", equalTo(URL))
                .body("push.headers.X-Tenant", equalTo("acme")).body("push.secretsCount", equalTo(0))
                .body("size", equalTo(1));
        ObjectNode unsigned = SnapshotRestTest.withoutName(save("unsigned"));
        ObjectNode expected = SnapshotRestTest.withoutName(saved);
        ((ObjectNode) expected.at("/clock/push")).put("secretsCount", 0);
        assertThat(unsigned).isEqualTo(expected);

        ObjectNode withSecrets = (ObjectNode) saved.deepCopy();
        ((ObjectNode) withSecrets.at("/clock/push")).putArray("secrets").add(PushRestTest.SECRET).add("second-secret");
        json(withSecrets.toString()).put("/clocks/signed/snapshot").then().statusCode(201)
                .body("push.secretsCount", equalTo(2));
        assertThat(SnapshotRestTest.withoutName(save("signed"))).isEqualTo(SnapshotRestTest.withoutName(saved));
    }
}
