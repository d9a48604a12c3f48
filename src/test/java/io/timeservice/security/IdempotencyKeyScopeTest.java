package io.timeservice.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * With tokens configured, an {@code Idempotency-Key} is the caller's: the same key and request from another token
 * runs as a request of its own, and each token's repeat gets its own kept answer.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "timeservice.security.write-tokens=" + IdempotencyKeyScopeTest.FIRST + "," + IdempotencyKeyScopeTest.SECOND,
        "timeservice.durability=none"})
class IdempotencyKeyScopeTest {

    static final String FIRST = "first-write-token-0123456789";
    static final String SECOND = "second-write-token-9876543210";

    @LocalServerPort
    int port;

    private RequestSpecification add(String token) {
        return given().port(port).auth().oauth2(token).contentType(ContentType.JSON)
                .header("Idempotency-Key", "retry-1").body("{\"id\":\"scoped\",\"delay\":5}");
    }

    @Test
    void theSameKeyOfTwoTokensNamesTwoRequests() {
        add(FIRST).post("/clocks/default/timers").then().statusCode(201)
                .header("Idempotent-Replayed", nullValue());

        add(SECOND).post("/clocks/default/timers").then().statusCode(409).body("code", equalTo("duplicate_id"))
                .header("Idempotent-Replayed", nullValue());

        add(FIRST).post("/clocks/default/timers").then().statusCode(201).header("Idempotent-Replayed", "true");
        add(SECOND).post("/clocks/default/timers").then().statusCode(409).header("Idempotent-Replayed", "true");
    }
}
