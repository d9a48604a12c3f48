package io.timeservice.web;

import static io.timeservice.web.RestTestSupport.assertProblem;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * With {@code timeservice.clock.mode=system} the paths without a clock address a system clock: {@code /clock/advance}
 * is 409 {@code clock_not_virtual}, and what fires is claimed and acknowledged under {@code /deliveries}, as the
 * contract documents.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.durability=none", "timeservice.clock.mode=system"})
class SystemDefaultClockRestTest {

    @LocalServerPort
    int port;

    @Test
    void theDefaultClock_firesByItself_andIsClaimedWithoutAClockInThePath() {
        long before = System.currentTimeMillis();
        given().get("/clocks/default").then().statusCode(200).body("mode", equalTo("system"))
                .body("delivery", equalTo("queue")).body("deliveries.ready", equalTo(0));
        given().get("/clock").then().statusCode(200).body("now", greaterThan(before - 1));
        assertProblem(given().contentType(ContentType.JSON).body("{\"by\":1}").post("/clock/advance"), 409,
                "clock_not_virtual");

        given().contentType(ContentType.JSON).body("{\"id\":\"ping\",\"delay\":0}").post("/timers").then()
                .statusCode(201);
        List<Map<String, Object>> claimed = await("delivered").atMost(Duration.ofSeconds(60)).until(() -> {
            Response claim = given().contentType(ContentType.JSON).body("{\"wait\":5000}").post("/deliveries/claim");
            claim.then().statusCode(200);
            return claim.jsonPath().<Map<String, Object>>getList("deliveries");
        }, deliveries -> !deliveries.isEmpty());

        assertEquals(1, claimed.size(), "delivered within 60 s");
        assertEquals("ping", claimed.get(0).get("id"));
        given().contentType(ContentType.JSON).body("{\"claim\":\"" + claimed.get(0).get("claim") + "\"}")
                .post("/deliveries/ping/ack").then().statusCode(204);
        given().get("/deliveries").then().statusCode(200).body("inFlight", equalTo(0)).body("ready", equalTo(0));
        given().get("/deliveries/dead").then().statusCode(200).body("deliveries", equalTo(List.of()));
    }

    private RequestSpecification given() {
        return RestAssured.given().spec(new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build());
    }
}
