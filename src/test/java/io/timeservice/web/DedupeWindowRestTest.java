package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A clock's {@code dedupeWindow} over HTTP: set by {@code PUT}, shown in the clock's answer, an add of a reserved id
 * answered 409 {@code duplicate_id} with {@code previous}, {@code DELETE .../reservations/{id}}, and
 * {@code onConflict} on {@code POST /timers} and a batch's adds. The stores' behaviour is
 * {@code store.DedupeStoreContract}'s.
 */
class DedupeWindowRestTest extends RestTestSupport {

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aReservedId_isAnswered409WithPrevious_untilTheWindowPasses_orItIsReleased() {
        json("{\"dedupeWindow\":60000}").put("/clocks/d").then().statusCode(201).body("dedupeWindow", equalTo(60000));
        json("{\"dedupeWindow\":60000}").put("/clocks/d").then().statusCode(200);
        assertProblem(json("{\"dedupeWindow\":1}").put("/clocks/d"), 409, "clock_conflict");
        assertProblem(json("{\"dedupeWindow\":2592000001}").put("/clocks/e"), 400, "invalid_request");
        given().get("/clocks/default").then().body("dedupeWindow", equalTo(0));

        int sequence = json("{\"id\":\"order-1\",\"delay\":10}").post("/clocks/d/timers").then().statusCode(201)
                .extract().path("sequence");   // a clock's sequences need not start at 1 (a clock made again)
        json("{\"by\":10}").post("/clocks/d/advance").then().statusCode(200).body("firedCount", equalTo(1));
        double refusedBefore = metric("timer_dedupe_refused_total");
        assertThat(metric("timer_dedupe_reservations")).isGreaterThanOrEqualTo(1);
        json("{\"id\":\"order-1\",\"delay\":10}").post("/clocks/d/timers").then().statusCode(409)
                .body("code", equalTo("duplicate_id"))
                .body("previous.state", equalTo("fired"))
                .body("previous.time", equalTo(10))
                .body("previous.sequence", equalTo(sequence));
        assertThat(metric("timer_dedupe_refused_total")).isEqualTo(refusedBefore + 1);

        given().delete("/clocks/d/reservations/order-1").then().statusCode(200)
                .body("id", equalTo("order-1")).body("state", equalTo("fired")).body("time", equalTo(10));
        assertProblem(given().delete("/clocks/d/reservations/order-1"), 404, "reservation_not_found");
        json("{\"id\":\"order-1\",\"delay\":10}").post("/clocks/d/timers").then().statusCode(201);
        given().delete("/clocks/d/timers/order-1").then().statusCode(204);
        assertProblem(json("{\"ops\":[{\"op\":\"add\",\"id\":\"order-1\",\"delay\":1}]}").post("/clocks/d/batch"),
                409, "duplicate_id");

        json("{\"by\":60000}").post("/clocks/d/advance").then().statusCode(200);
        json("{\"id\":\"order-1\",\"delay\":10}").post("/clocks/d/timers").then().statusCode(201);
        assertProblem(given().delete("/reservations/x"), 404, "reservation_not_found");
    }

    @Test
    void aSnapshot_keepsTheWindowAndTheReservedIds_andALoadedClockRefusesThem() {
        json("{\"dedupeWindow\":60000,\"delivery\":\"queue\"}").put("/clocks/s").then().statusCode(201);
        json("{\"id\":\"a\",\"delay\":10}").post("/clocks/s/timers").then().statusCode(201);
        json("{\"by\":10}").post("/clocks/s/advance").then().statusCode(200);
        String saved = given().get("/clocks/s/snapshot").then().statusCode(200)
                .body("clock.dedupeWindow", equalTo(60000))
                .body("reservations[0].id", equalTo("a"))
                .body("reservations[0].state", equalTo("fired"))
                .extract().asString();

        json(saved).put("/clocks/s2/snapshot").then().statusCode(201);
        given().get("/clocks/s2").then().body("dedupeWindow", equalTo(60000));
        json("{\"id\":\"a\",\"delay\":10}").post("/clocks/s2/timers").then().statusCode(409)
                .body("previous.state", equalTo("fired"));
        given().get("/clocks/s2/snapshot").then().body("reservations[0].id", equalTo("a"));
        assertProblem(json("{\"format\":1,\"clock\":{},\"reservations\":[{\"id\":\"a\",\"state\":\"fired\","
                + "\"time\":1,\"sequence\":1}]}").put("/clocks/s3/snapshot"), 400, "invalid_snapshot");
    }

    @Test
    void onConflict_answers201Added_200KeptOrReplaced_withResult() {
        json("{\"dedupeWindow\":60000}").put("/clocks/c").then().statusCode(201);
        json("{\"id\":\"x\",\"delay\":10,\"onConflict\":\"replace\"}").post("/clocks/c/timers").then()
                .statusCode(201).body("result", equalTo("added")).body("version", equalTo(1));
        json("{\"id\":\"x\",\"delay\":20,\"payload\":{\"n\":2},\"onConflict\":\"replace\"}")
                .post("/clocks/c/timers").then().statusCode(200).body("result", equalTo("replaced"))
                .body("fireTime", equalTo(20)).body("version", equalTo(2)).body("payload.n", equalTo(2));
        json("{\"id\":\"x\",\"delay\":30,\"onConflict\":\"keep\"}").post("/clocks/c/timers").then()
                .statusCode(200).body("result", equalTo("kept")).body("fireTime", equalTo(20));
        json("{\"by\":20}").post("/clocks/c/advance").then().statusCode(200).body("firedCount", equalTo(1));
        json("{\"id\":\"x\",\"delay\":30,\"onConflict\":\"keep\"}").post("/clocks/c/timers").then()
                .statusCode(200).body("result", equalTo("kept")).body("previous.state", equalTo("fired"));
        assertProblem(json("{\"id\":\"x\",\"delay\":30,\"onConflict\":\"replace\"}").post("/clocks/c/timers"),
                409, "duplicate_id");
        assertProblem(json("{\"id\":\"y\",\"delay\":30,\"onConflict\":\"merge\"}").post("/clocks/c/timers"),
                400, "invalid_request");
    }

    @Test
    void aBatchsAdds_takeOnConflict_eachAnsweringItsResult_andARefusedOneLeavesNothing() {
        json("{\"dedupeWindow\":60000}").put("/clocks/b").then().statusCode(201);
        int p = json("{\"id\":\"p\",\"delay\":10}").post("/clocks/b/timers").then().statusCode(201)
                .extract().path("sequence");
        json("{\"id\":\"f\",\"delay\":1}").post("/clocks/b/timers").then().statusCode(201);
        json("{\"by\":1}").post("/clocks/b/advance").then().statusCode(200);

        json("{\"ops\":[{\"op\":\"add\",\"id\":\"p\",\"delay\":20,\"payload\":{\"n\":2},"
                + "\"onConflict\":\"replace\"},"
                + "{\"op\":\"add\",\"id\":\"p\",\"delay\":5,\"onConflict\":\"keep\"},"
                + "{\"op\":\"add\",\"id\":\"f\",\"delay\":5,\"onConflict\":\"keep\"},"
                + "{\"op\":\"add\",\"id\":\"n\",\"delay\":5,\"onConflict\":\"error\"},"
                + "{\"op\":\"add\",\"id\":\"m\",\"delay\":5}]}").post("/clocks/b/batch").then()
                .statusCode(200)
                .body("results[0].result", equalTo("replaced")).body("results[0].version", equalTo(2))
                .body("results[0].fireTime", equalTo(21)).body("results[0].payload.n", equalTo(2))
                .body("results[0].etag", equalTo("\"" + p + "-2\""))
                .body("results[1].result", equalTo("kept")).body("results[1].fireTime", equalTo(21))
                .body("results[2].result", equalTo("kept")).body("results[2].id", equalTo("f"))
                .body("results[2].previous.state", equalTo("fired")).body("results[2].previous.time", equalTo(1))
                .body("results[3].result", equalTo("added"))
                .body("results[4].containsKey('result')", equalTo(false));

        Response refused = json("{\"ops\":[{\"op\":\"add\",\"id\":\"p\",\"delay\":50,"
                + "\"onConflict\":\"replace\"},{\"op\":\"add\",\"id\":\"f\",\"delay\":5,"
                + "\"onConflict\":\"replace\"}]}").post("/clocks/b/batch");
        assertProblem(refused, 409, "duplicate_id");
        refused.then().body("op", equalTo(1)).body("previous.state", equalTo("fired"));
        given().get("/clocks/b/timers/p").then().statusCode(200).body("fireTime", equalTo(21))
                .body("version", equalTo(2));
        Response invalid = json("{\"ops\":[{\"op\":\"add\",\"id\":\"q\",\"delay\":5,"
                + "\"onConflict\":\"merge\"}]}").post("/clocks/b/batch");
        assertProblem(invalid, 400, "invalid_request");
        invalid.then().body("op", equalTo(0));
        given().get("/clocks/b/timers/q").then().statusCode(404);
    }

    /** A metric without labels as the Prometheus endpoint shows it now. */
    private double metric(String name) {
        String scrape = io.restassured.RestAssured.given().port(port).get("/actuator/prometheus").then()
                .statusCode(200).extract().asString();
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError("no metric " + name);
    }
}
