package io.timeservice.web;

import static io.timeservice.web.RestTestSupport.assertProblem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * A service with a capacity of 3 pending timers and the demo reset off (its default), as in production. Without
 * the reset, each test starts by cancelling whatever is pending.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestPropertySource(properties = "timeservice.capacity=3")
class CapacityAndDemoOffRestTest {

    @LocalServerPort
    int port;

    private RequestSpecification spec;

    @BeforeEach
    void connectAndEmpty() {
        spec = new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build();
        for (String id : given().get("/timers").jsonPath().getList("timers.id", String.class)) {
            given().delete("/timers/" + id).then().statusCode(204);
        }
        given().get("/queue").then().body("size", equalTo(0));
    }

    @Test
    void aFullQueue_refusesAdds_withCapacityExceeded_andChangesNothing() {
        add("a");
        add("b");
        add("c");
        String before = state();

        assertProblem(json("{\"id\":\"d\",\"delay\":1}").post("/timers"), 429, "capacity_exceeded");

        assertEquals(before, state());
        assertProblem(given().get("/timers/d"), 404, "timer_not_found");
    }

    @Test
    void aFullQueue_stillCancelsEditsAndAdvances_andTakesAddsOnceThereIsRoom() {
        add("a");
        add("b");
        add("c");

        json("{\"delay\":1,\"priority\":-1}").patch("/timers/c").then().statusCode(200).body("fireTime", equalTo(1));
        given().delete("/timers/b").then().statusCode(204);
        add("d");
        assertProblem(json("{\"id\":\"e\",\"delay\":1}").post("/timers"), 429, "capacity_exceeded");

        Response fired = json("{\"by\":1}").post("/clock/advance");

        fired.then().statusCode(200);
        assertEquals(List.of("c"), fired.jsonPath().getList("fired.id", String.class));
        add("e");
        given().get("/queue").then().body("size", equalTo(3));
    }

    @Test
    void aFullQueue_reportsAPendingIdAsDuplicate() {
        add("a");
        add("b");
        add("c");

        assertProblem(json("{\"id\":\"a\",\"delay\":1}").post("/timers"), 409, "duplicate_id");
    }

    @Test
    void demoIsOff_andResetIsRefused_withoutTouchingTheQueue() {
        add("a");
        json("{\"by\":2}").post("/clock/advance").then().statusCode(200);
        String before = state();

        given().get("/demo").then().statusCode(200).body("enabled", equalTo(false));
        assertProblem(given().post("/demo/reset"), 404, "demo_disabled");

        assertEquals(before, state());
    }

    private RequestSpecification given() {
        return RestAssured.given().spec(spec);
    }

    private RequestSpecification json(String body) {
        return given().contentType(ContentType.JSON).body(body);
    }

    private void add(String id) {
        json("{\"id\":\"" + id + "\",\"delay\":10}").post("/timers").then().statusCode(201);
    }

    private String state() {
        return given().get("/queue").asString() + given().get("/timers").asString();
    }
}
