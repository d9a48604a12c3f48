package io.timeservice.web;

import static io.timeservice.web.RestTestSupport.assertProblem;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code timeservice.deliveries.max} bounds the deliveries of all clocks: an advance of a queueing virtual clock
 * fires only what has room ({@code complete: false}), then is refused with 429 {@code capacity_exceeded}, and goes on
 * once deliveries are acknowledged.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.durability=none", "timeservice.deliveries.max=2"})
class DeliveryLimitRestTest {

    @LocalServerPort
    int port;

    @Test
    void anAdvance_firesOnlyWhatTheDeliveryLimitHasRoomFor() {
        json("{\"delivery\":\"queue\"}").put("/clocks/full").then().statusCode(201);
        for (String id : List.of("a", "b", "c")) {
            json("{\"id\":\"" + id + "\",\"delay\":1}").post("/clocks/full/timers").then().statusCode(201);
        }

        json("{\"by\":1}").post("/clocks/full/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("a", "b"))).body("complete", equalTo(false));
        assertProblem(json("{\"to\":1}").post("/clocks/full/advance"), 429, "capacity_exceeded");
        given().get("/clocks/full").then().body("size", equalTo(1)).body("deliveries.ready", equalTo(2));

        String claim = json("{}").post("/clocks/full/deliveries/claim").jsonPath().getString("deliveries[0].claim");
        json("{\"claim\":\"" + claim + "\"}").post("/clocks/full/deliveries/a/ack").then().statusCode(204);
        json("{\"to\":1}").post("/clocks/full/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("c"))).body("complete", equalTo(true));
    }

    private RequestSpecification json(String body) {
        return given().contentType(ContentType.JSON).body(body);
    }

    private RequestSpecification given() {
        return RestAssured.given().spec(new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build());
    }
}
