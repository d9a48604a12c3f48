package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * {@code Idempotency-Key} on the running service (memory store, open to loopback), every answer checked against
 * openapi.yaml: a retried add answers its first answer again and adds nothing, another body is 422, a refusal of the
 * request itself is kept, a retried advance does not advance twice.
 */
class IdempotencyKeyRestTest extends RestTestSupport {

    private static String key() {
        return UUID.randomUUID().toString();
    }

    @Test
    void aRetriedAddAnswersItsFirstAnswerAndAddsOnce() {
        String key = key();
        Response first = json("{\"id\":\"A\",\"delay\":5}").header("Idempotency-Key", key).post("/timers");
        first.then().statusCode(201);

        Response retry = json("{\"id\":\"A\",\"delay\":5}").header("Idempotency-Key", key).post("/timers");

        retry.then().statusCode(201).header("Idempotent-Replayed", "true")
                .header("ETag", first.header("ETag")).header("Location", first.header("Location"));
        assertThat(retry.asString()).isEqualTo(first.asString());
        given().get("/timers").then().body("timers.size()", equalTo(1));
        json("{\"id\":\"A\",\"delay\":6}").header("Idempotency-Key", key).post("/timers")
                .then().statusCode(422).contentType(PROBLEM_JSON).body("code", equalTo("idempotency_key_reused"));
    }

    @Test
    void aKeptRefusalIsAnsweredAgainAndARetriedAdvanceAdvancesOnce() {
        add("A", 5);
        String key = key();
        json("{\"id\":\"A\",\"delay\":5}").header("Idempotency-Key", key).post("/timers").then().statusCode(409)
                .body("code", equalTo("duplicate_id"));
        given().delete("/timers/A").then().statusCode(204);
        json("{\"id\":\"A\",\"delay\":5}").header("Idempotency-Key", key).post("/timers").then().statusCode(409)
                .header("Idempotent-Replayed", "true").body("code", equalTo("duplicate_id"));

        String advanceKey = key();
        json("{\"by\":10}").header("Idempotency-Key", advanceKey).post("/clock/advance").then().statusCode(200)
                .body("now", equalTo(10));
        json("{\"by\":10}").header("Idempotency-Key", advanceKey).post("/clock/advance").then().statusCode(200)
                .header("Idempotent-Replayed", "true").body("now", equalTo(10));
        given().get("/clock").then().body("now", equalTo(10));
    }

    @Test
    void aKeyThatIsNotVisibleAsciiIs400() {
        json("{\"id\":\"A\",\"delay\":5}").header("Idempotency-Key", "x".repeat(256)).post("/timers")
                .then().statusCode(400).contentType(PROBLEM_JSON).body("code", equalTo("invalid_request"));
        given().get("/timers").then().body("timers.size()", equalTo(0));
    }
}
