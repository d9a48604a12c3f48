package io.timeservice.web;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scaled clocks over HTTP: {@code PUT} with {@code mode: scaled} and a rate, {@code PATCH} of the rate, the refusals,
 * and one real-time run. Frozen clocks (rate 0) keep every answer exact; the real-time test waits for the event.
 */
class ScaledClocksRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void put_createsAScaledClock_sameSettings200_otherRateOrNow409() {
        json("{\"mode\":\"scaled\",\"rate\":0,\"now\":5000}").put("/clocks/soak").then().statusCode(201)
                .header("Location", "/clocks/soak")
                .body("mode", equalTo("scaled")).body("rate", equalTo(0.0f)).body("now", equalTo(5000))
                .body("delivery", equalTo("queue")).body("deliveries.ready", equalTo(0));
        json("{\"mode\":\"scaled\",\"rate\":0.0,\"now\":5000}").put("/clocks/soak").then().statusCode(200)
                .body("now", equalTo(5000));
        assertProblem(json("{\"mode\":\"scaled\",\"rate\":1,\"now\":5000}").put("/clocks/soak"), 409,
                "clock_conflict");
        assertProblem(json("{\"mode\":\"scaled\",\"rate\":0,\"now\":1}").put("/clocks/soak"), 409,
                "clock_conflict");
        assertProblem(json("{\"mode\":\"system\"}").put("/clocks/soak"), 409, "clock_conflict");

        json("{\"mode\":\"scaled\",\"rate\":60.5}").put("/clocks/fast").then().statusCode(201)
                .body("rate", equalTo(60.5f)).body("now", greaterThanOrEqualTo(0));
        given().get("/clocks/soak").then().statusCode(200).body("rate", equalTo(0.0f)).body("now", equalTo(5000));
        given().get("/clocks").then().statusCode(200).body("clocks.name", equalTo(List.of("default", "fast", "soak")))
                .body("clocks.rate", equalTo(java.util.Arrays.asList(null, 60.5f, 0.0f)));
    }

    @Test
    void put_refusesBadRates_andARateWithoutScaledMode_creatingNothing() {
        for (String body : List.of("{\"rate\":2}", "{\"mode\":\"virtual\",\"rate\":2}",
                "{\"mode\":\"system\",\"rate\":2}", "{\"mode\":\"scaled\"}", "{\"mode\":\"scaled\",\"rate\":-1}",
                "{\"mode\":\"scaled\",\"rate\":100000.5}", "{\"mode\":\"scaled\",\"rate\":0.0000001}",
                "{\"mode\":\"scaled\",\"rate\":\"60\"}", "{\"mode\":\"scaled\",\"rate\":null}",
                "{\"mode\":\"scaled\",\"rate\":true}", "{\"mode\":\"scaled\",\"rate\":60,\"delivery\":\"response\"}",
                "{\"mode\":\"scaled\",\"rate\":60,\"now\":-1}", "{\"copyOf\":\"default\",\"rate\":60}")) {
            assertProblem(json(body).put("/clocks/bad"), 400, "invalid_request");
        }
        assertProblem(given().get("/clocks/bad"), 404, "clock_not_found");
        json("{\"mode\":\"scaled\",\"rate\":100000}").put("/clocks/fastest").then().statusCode(201)
                .body("rate", equalTo(100000.0f));
        json("{\"mode\":\"scaled\",\"rate\":0.000001}").put("/clocks/slowest").then().statusCode(201);
    }

    @Test
    void patch_changesTheRate_fromTheClocksTimeNowOn() {
        json("{\"mode\":\"scaled\",\"rate\":0,\"now\":1000}").put("/clocks/soak").then().statusCode(201);
        json("{\"id\":\"t\",\"delay\":3600000}").post("/clocks/soak/timers").then().statusCode(201)
                .body("fireTime", equalTo(3_601_000));
        json("{\"rate\":0}").patch("/clocks/soak").then().statusCode(200).body("now", equalTo(1000))
                .body("rate", equalTo(0.0f)).body("size", equalTo(1)).body("nextFireTime", equalTo(3_601_000));

        json("{\"rate\":2.5}").patch("/clocks/soak").then().statusCode(200).body("rate", equalTo(2.5f))
                .body("now", greaterThanOrEqualTo(1000));
        Response frozen = json("{\"rate\":0}").patch("/clocks/soak");
        frozen.then().statusCode(200).body("now", greaterThanOrEqualTo(1000));
        long stoppedAt = frozen.jsonPath().getLong("now");
        given().get("/clocks/soak").then().body("now", equalTo((int) stoppedAt)); // frozen: exactly there
        // PUT compares with the current rate: the first body (rate 0, now 1000) again is the clock as it is
        json("{\"mode\":\"scaled\",\"rate\":0,\"now\":1000}").put("/clocks/soak").then().statusCode(200);
        assertProblem(json("{\"mode\":\"scaled\",\"rate\":2.5,\"now\":1000}").put("/clocks/soak"), 409,
                "clock_conflict");
    }

    @Test
    void patch_refusesOtherClocks_andBadBodies_changingNothing() {
        json("{}").put("/clocks/ci").then().statusCode(201);
        json("{\"mode\":\"system\"}").put("/clocks/jobs").then().statusCode(201);
        assertProblem(json("{\"rate\":2}").patch("/clocks/ci"), 409, "clock_not_scaled");
        assertProblem(json("{\"rate\":2}").patch("/clocks/jobs"), 409, "clock_not_scaled");
        assertProblem(json("{\"rate\":2}").patch("/clocks/default"), 409, "clock_not_scaled");
        assertProblem(json("{\"rate\":2}").patch("/clocks/nobody"), 404, "clock_not_found");
        json("{\"mode\":\"scaled\",\"rate\":0,\"now\":7}").put("/clocks/soak").then().statusCode(201);
        for (String body : List.of("{}", "{\"rate\":-1}", "{\"rate\":100001}", "{\"rate\":1.0000001}",
                "{\"rate\":\"2\"}", "{\"rate\":null}", "{\"rate\":2,\"now\":5}", "[]")) {
            assertProblem(json(body).patch("/clocks/soak"), 400, "invalid_request");
        }
        given().get("/clocks/soak").then().body("rate", equalTo(0.0f)).body("now", equalTo(7));
        given().get("/clocks/ci").then().body("mode", equalTo("virtual"));
    }

    @Test
    void aScaledClock_refusesAdvance_andItsForkRunsOnTheSameFunction() {
        json("{\"mode\":\"scaled\",\"rate\":0,\"now\":42}").put("/clocks/soak").then().statusCode(201);
        assertProblem(json("{\"by\":1}").post("/clocks/soak/advance"), 409, "clock_not_virtual");
        assertProblem(json("{\"next\":true}").post("/clocks/soak/advance"), 409, "clock_not_virtual");
        json("{\"id\":\"t\",\"delay\":10}").post("/clocks/soak/timers").then().statusCode(201)
                .body("fireTime", equalTo(52));
        json("{\"copyOf\":\"soak\"}").put("/clocks/variant").then().statusCode(201)
                .body("mode", equalTo("scaled")).body("rate", equalTo(0.0f)).body("now", equalTo(42))
                .body("size", equalTo(1));
    }

    @Test
    void aTimerDueInAClockMinute_onARate1000Clock_firesByItself() {
        json("{\"mode\":\"scaled\",\"rate\":1000}").put("/clocks/fast").then().statusCode(201);
        json("{\"id\":\"job\",\"delay\":60000,\"payload\":{\"n\":1}}").post("/clocks/fast/timers").then()
                .statusCode(201);
        // generous: the machine is shared
        List<Map<String, Object>> claimed = await("the timer delivered").atMost(Duration.ofSeconds(60)).until(() -> {
            Response claim = json("{\"wait\":20000,\"lease\":60000}").post("/clocks/fast/deliveries/claim");
            claim.then().statusCode(200);
            return claim.jsonPath().<Map<String, Object>>getList("deliveries");
        }, deliveries -> !deliveries.isEmpty());
        assertEquals(1, claimed.size(), "the timer fired and was delivered");
        assertEquals("job", claimed.get(0).get("id"));
        assertEquals(Map.of("n", 1), claimed.get(0).get("payload"));
    }
}
