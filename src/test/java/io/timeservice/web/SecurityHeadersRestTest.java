package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * Spring Security's response headers are on every answer of the real server, success or problem, whichever way the
 * body leaves (they are written before the request is handled, not when the response commits).
 */
class SecurityHeadersRestTest extends RestTestSupport {

    @Test
    void everyKindOfAnswer_carriesTheSecurityHeaders() {
        Response created = add("A", 5);
        List<Response> answers = List.of(created,
                given().get("/timers/A"),
                json("{\"delay\":7}").patch("/timers/A"),
                given().get("/timers"),
                given().get("/timers/missing"),
                json("{\"id\":\"B\",\"delay\":-1}").post("/timers"),
                json("{\"ops\":[{\"op\":\"add\",\"id\":\"C\",\"delay\":1}]}").post("/batch"),
                given().delete("/timers/A"),
                given().get("/nope"));
        for (Response answer : answers) {
            String status = "status " + answer.statusCode();
            assertEquals("nosniff", answer.header("X-Content-Type-Options"), status);
            assertEquals("DENY", answer.header("X-Frame-Options"), status);
            assertEquals("no-cache, no-store, max-age=0, must-revalidate", answer.header("Cache-Control"), status);
        }
        assertEquals(List.of(201, 200, 200, 200, 404, 400, 200, 204, 404),
                answers.stream().map(Response::statusCode).toList());
        given().get("/timers").then().body("size", equalTo(1));
    }
}
