package io.timeservice.web;

import static io.timeservice.web.RestTestSupport.assertProblem;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code timeservice.deliveries.max} bounds the deliveries of all clocks: an advance of a queueing virtual clock
 * fires only what has room ({@code complete: false}); with no room its time still moves ({@code complete: false},
 * nothing fired), so leases end; at its target already it is refused with 429 {@code capacity_exceeded}; it goes on
 * once deliveries are acknowledged. A system clock keeps what has no room pending, says {@code firingHeldBack}, and
 * its firing thread fires it once an ack makes room. Run on both stores ({@code DeliveryLimitRestPostgresTest}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.durability=none", "timeservice.deliveries.max=2"})
class DeliveryLimitRestTest {

    @LocalServerPort
    int port;

    /** The limit is over all clocks: each test's clock goes, with its deliveries, before the next test. */
    @AfterEach
    void deleteClocks() {
        for (String clock : List.of("full", "held", "wall")) {
            given().delete("/clocks/" + clock);
        }
    }

    @Test
    void anAdvance_firesOnlyWhatTheDeliveryLimitHasRoomFor() {
        json("{\"delivery\":\"queue\"}").put("/clocks/full").then().statusCode(201);
        for (String id : List.of("a", "b", "c")) {
            json("{\"id\":\"" + id + "\",\"delay\":1}").post("/clocks/full/timers").then().statusCode(201);
        }

        json("{\"by\":1}").post("/clocks/full/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("a", "b"))).body("complete", equalTo(false));
        assertProblem(json("{\"to\":1}").post("/clocks/full/advance"), 429, "capacity_exceeded");
        // held back is a clock that fires by itself: a virtual clock's advance is bounded or refused instead
        given().get("/clocks/full").then().body("size", equalTo(1)).body("deliveries.ready", equalTo(2))
                .body("deliveries.firingHeldBack", equalTo(false));

        String claim = json("{}").post("/clocks/full/deliveries/claim").jsonPath().getString("deliveries[0].claim");
        json("{\"claim\":\"" + claim + "\"}").post("/clocks/full/deliveries/a/ack").then().statusCode(204);
        json("{\"to\":1}").post("/clocks/full/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("c"))).body("complete", equalTo(true));
    }

    @Test
    void anAdvanceWithoutRoom_stillMovesTime_soALeaseEnds_andTheDeliveryIsClaimedAgain() {
        json("{\"delivery\":\"queue\"}").put("/clocks/held").then().statusCode(201);
        for (String id : List.of("a", "b", "c")) {
            json("{\"id\":\"" + id + "\",\"delay\":1}").post("/clocks/held/timers").then().statusCode(201);
        }
        json("{\"by\":1}").post("/clocks/held/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("a", "b")));
        String claim = json("{\"max\":1,\"lease\":1000}").post("/clocks/held/deliveries/claim")
                .jsonPath().getString("deliveries[0].claim");               // a, leased until 1001

        json("{\"to\":60000}").post("/clocks/held/advance").then().statusCode(200)
                .body("now", equalTo(60_000)).body("fired", equalTo(List.of())).body("complete", equalTo(false));

        given().get("/clocks/held").then().body("now", equalTo(60_000)).body("size", equalTo(1))
                .body("deliveries.inFlight", equalTo(0)).body("deliveries.ready", equalTo(2));
        assertProblem(json("{\"claim\":\"" + claim + "\"}").post("/clocks/held/deliveries/a/ack"), 409,
                "claim_lost");
        json("{\"max\":2}").post("/clocks/held/deliveries/claim").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("b", "a"))).body("deliveries[1].attempt", equalTo(2));
    }

    @Test
    void aSystemClockAtTheLimit_keepsADueTimerPending_saysSo_andFiresItOnceAnAckMakesRoom() {
        json("{\"mode\":\"system\"}").put("/clocks/wall").then().statusCode(201);
        for (String id : List.of("a", "b", "c")) {
            json("{\"id\":\"" + id + "\",\"delay\":0}").post("/clocks/wall/timers").then().statusCode(201);
        }

        // the firing thread fires what has room and holds the rest back
        awaitClock("a and b ready, c held back", clock -> clock.getInt("deliveries.ready") == 2
                && clock.getInt("size") == 1 && clock.getBoolean("deliveries.firingHeldBack"));
        List<Map<String, Object>> first = json("{\"max\":1}").post("/clocks/wall/deliveries/claim").jsonPath()
                .getList("deliveries");
        json("{\"claim\":\"" + first.get(0).get("claim") + "\"}").post("/clocks/wall/deliveries/a/ack").then()
                .statusCode(204);

        // the ack made room: c fires, in order after b
        List<Object> claimed = new ArrayList<>();
        await("b and c delivered").atMost(Duration.ofSeconds(60)).pollInSameThread().until(() -> {
            claimed.addAll(json("{\"max\":2,\"wait\":5000}").post("/clocks/wall/deliveries/claim").jsonPath()
                    .getList("deliveries.id"));
            return claimed.size() >= 2;
        });
        assertEquals(List.of("b", "c"), claimed);
        given().get("/clocks/wall").then().body("size", equalTo(0))
                .body("deliveries.firingHeldBack", equalTo(false));
    }

    /** Reads the clock {@code wall} until {@code shows} holds, within 60 s. */
    private void awaitClock(String what, Predicate<JsonPath> shows) {
        await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> shows.test(given().get("/clocks/wall").then().statusCode(200).extract().jsonPath()));
    }

    private RequestSpecification json(String body) {
        return given().contentType(ContentType.JSON).body(body);
    }

    private RequestSpecification given() {
        return RestAssured.given().spec(new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build());
    }
}
