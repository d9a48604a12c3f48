package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * REST tests against the real service on a random port, every response checked against openapi.yaml by
 * {@link ContractFilter}. All subclasses share one application context (same configuration); each test starts on
 * an empty queue at virtual time 0, by {@code POST /demo/reset}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "timeservice.demo.enabled=true")
abstract class RestTestSupport {

    static final String PROBLEM_JSON = "application/problem+json";
    static final long MAX_DELAY = 1_000_000_000_000_000L;

    @LocalServerPort
    int port;

    private RequestSpecification spec;

    @BeforeEach
    void connectAndReset() {
        spec = new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build();
        given().post("/demo/reset").then().statusCode(200).body("now", equalTo(0));
    }

    /** A request to the service under test, checked against the contract. */
    RequestSpecification given() {
        return RestAssured.given().spec(spec);
    }

    /** Deletes every clock but {@code default}: what a test of clocks calls after each test. */
    void deleteClocksButDefault() {
        for (String name : given().queryParam("limit", 1000).get("/clocks").jsonPath()
                .getList("clocks.name", String.class)) {
            if (!name.equals("default")) {
                given().delete("/clocks/" + name).then().statusCode(204);
            }
        }
    }

    /** A request with a JSON body, sent verbatim. */
    RequestSpecification json(String body) {
        return given().contentType(ContentType.JSON).body(body);
    }

    Response add(String id, long delay) {
        return add("{\"id\":\"" + id + "\",\"delay\":" + delay + "}");
    }

    Response add(String id, long delay, int priority) {
        return add("{\"id\":\"" + id + "\",\"delay\":" + delay + ",\"priority\":" + priority + "}");
    }

    Response add(String body) {
        Response response = json(body).post("/timers");
        response.then().statusCode(201);
        return response;
    }

    Response advance(long by) {
        Response response = json("{\"by\":" + by + "}").post("/clock/advance");
        response.then().statusCode(200);
        return response;
    }

    List<String> firedIds(Response advance) {
        return advance.jsonPath().getList("fired.id", String.class);
    }

    /** The ids in heap slots 0, 1, ... (the whole array while the queue holds at most 1023 timers). */
    List<String> heapSlots() {
        Response heap = given().queryParam("limit", 1023).get("/queue/heap");
        heap.then().statusCode(200);
        assertEquals(heap.jsonPath().getInt("size"), heap.jsonPath().getList("slots").size(),
                "the heap view shows every slot");
        return heap.jsonPath().getList("slots.id", String.class);
    }

    /**
     * Everything a client can read about the queue: the clock, every timer in firing order with all its members,
     * and the heap layout (GET /queue only derives from these), without the time the invariants were checked.
     */
    String observableState() {
        return given().queryParam("limit", 1000).get("/timers").asString() + "\n"
                + withoutCheckTime(given().queryParam("limit", 1023).get("/queue/heap").asString());
    }

    /**
     * A heap view's text without its invariant report's {@code checkedAt}, which says when the checks ran (the
     * PostgreSQL store checks at every read), not what the queue holds.
     */
    static String withoutCheckTime(String heapView) {
        return heapView.replaceAll("\"checkedAt\":\\d+", "\"checkedAt\":_");
    }

    /**
     * The sequence that the next accepted add gets, learned without changing anything a client can see: a probe
     * timer due last (largest delay and priority) sits in the last heap slot, and cancelling the last slot moves
     * nothing else.
     */
    long nextSequence() {
        Response probe = add("{\"id\":\"zz-probe\",\"delay\":" + MAX_DELAY + ",\"priority\":2147483647}");
        given().delete("/timers/zz-probe").then().statusCode(204);
        return probe.jsonPath().getLong("sequence");
    }

    /** Asserts a problem answer: status, problem+json and code. */
    static void assertProblem(Response response, int status, String code) {
        response.then()
                .statusCode(status)
                .contentType(PROBLEM_JSON)
                .body("code", equalTo(code))
                .body("status", equalTo(status));
    }

    /** Polls the clock's counts until they are {@code expected} (ready, inFlight, waiting, dead), within 60 s. */
    void awaitDeliveries(String clock, String expected) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            var counts = given().get("/clocks/" + clock + "/deliveries").jsonPath();
            String seen = "{\"ready\":" + counts.getInt("ready") + ",\"inFlight\":" + counts.getInt("inFlight")
                    + ",\"waiting\":" + counts.getInt("waiting") + ",\"dead\":" + counts.getInt("dead") + "}";
            assertThat(seen).as("deliveries of " + clock).isEqualTo(expected);
        });
    }
}
