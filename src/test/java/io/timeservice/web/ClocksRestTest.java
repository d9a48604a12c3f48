package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The clocks resource and every operation under {@code /clocks/{clock}/}, checked against the contract. */
class ClocksRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void put_creates201_sameSettings200_otherNow409() {
        json("{\"now\":5000}").put("/clocks/ci-1").then().statusCode(201)
                .header("Location", "/clocks/ci-1")
                .body("name", equalTo("ci-1")).body("now", equalTo(5000)).body("size", equalTo(0))
                .body("nextFireTime", nullValue()).body("createdAt", greaterThan(0L));
        json("{\"now\":5000}").put("/clocks/ci-1").then().statusCode(200).body("now", equalTo(5000));
        assertProblem(json("{\"now\":1}").put("/clocks/ci-1"), 409, "clock_conflict");
        assertProblem(json("{}").put("/clocks/ci-1"), 409, "clock_conflict");

        json("{}").put("/clocks/zero").then().statusCode(201).body("now", equalTo(0));
        json("{}").put("/clocks/zero").then().statusCode(200);
    }

    @Test
    void put_refusesBadNamesAndBodies() {
        assertProblem(json("{}").put("/clocks/a!"), 400, "invalid_id");
        assertProblem(json("{}").put("/clocks/" + "x".repeat(65)), 400, "invalid_id");
        assertProblem(json("{\"now\":-1}").put("/clocks/a"), 400, "invalid_request");
        assertProblem(json("{\"now\":null}").put("/clocks/a"), 400, "invalid_request");
        assertProblem(json("{\"now\":\"5\"}").put("/clocks/a"), 400, "invalid_request");
        assertProblem(json("{\"later\":5}").put("/clocks/a"), 400, "invalid_request");
        json("{}").put("/clocks/" + "x".repeat(64)).then().statusCode(201);
    }

    @Test
    void getAndList_showEveryClockByName_inPages() {
        json("{}").put("/clocks/b").then().statusCode(201);
        json("{\"now\":7}").put("/clocks/a").then().statusCode(201);
        json("{\"id\":\"t\",\"delay\":3}").post("/clocks/a/timers").then().statusCode(201);

        given().get("/clocks/a").then().statusCode(200)
                .body("name", equalTo("a")).body("now", equalTo(7)).body("size", equalTo(1))
                .body("nextFireTime", equalTo(10));
        given().get("/clocks").then().statusCode(200)
                .body("clocks.name", equalTo(List.of("a", "b", "default")));
        given().queryParam("limit", 1).get("/clocks").then().body("clocks.name", equalTo(List.of("a")));
        given().queryParam("limit", 2).queryParam("after", "a").get("/clocks").then()
                .body("clocks.name", equalTo(List.of("b", "default")));
        given().queryParam("after", "default").get("/clocks").then().body("clocks.name", equalTo(List.of()));
        assertProblem(given().queryParam("limit", 0).get("/clocks"), 400, "invalid_limit");
        assertProblem(given().get("/clocks/nope"), 404, "clock_not_found");
        given().get("/clocks/default").then().statusCode(200).body("createdAt", equalTo(0));
    }

    @Test
    void clock_showsItsOldestAge_andNoDeletionTime_whileTheIdleTtlIsOff() {
        json("{\"now\":100}").put("/clocks/aging").then().statusCode(201)
                .body("oldestAge", nullValue()).body("$", not(hasKey("deletesAt")));
        json("{\"id\":\"old\",\"delay\":50}").post("/clocks/aging/timers").then().statusCode(201);
        json("{\"by\":20}").post("/clocks/aging/advance").then().statusCode(200);
        json("{\"id\":\"new\",\"delay\":50}").post("/clocks/aging/timers").then().statusCode(201);

        given().get("/clocks/aging").then().statusCode(200).body("oldestAge", equalTo(20))
                .body("$", not(hasKey("deletesAt")));
        given().get("/clocks").then().body("clocks.find { it.name == 'aging' }.oldestAge", equalTo(20));
    }

    @Test
    void delete_removesTheClockAndItsTimers_butNeverDefault() {
        json("{}").put("/clocks/gone").then().statusCode(201);
        json("{\"id\":\"t\",\"delay\":3}").post("/clocks/gone/timers").then().statusCode(201);

        given().delete("/clocks/gone").then().statusCode(204);

        assertProblem(given().get("/clocks/gone"), 404, "clock_not_found");
        assertProblem(given().get("/clocks/gone/timers/t"), 404, "clock_not_found");
        assertProblem(given().delete("/clocks/gone"), 404, "clock_not_found");
        assertProblem(given().delete("/clocks/default"), 409, "clock_undeletable");
    }

    @Test
    void clocksAreIndependent_andTheOldPathsAddressDefault() {
        json("{}").put("/clocks/x").then().statusCode(201);
        add("A", 5);
        json("{\"id\":\"A\",\"delay\":5}").post("/clocks/x/timers").then().statusCode(201)
                .header("Location", "/clocks/x/timers/A");
        json("{\"id\":\"B\",\"delay\":1}").post("/clocks/x/timers").then().statusCode(201);

        Response fired = json("{\"by\":5}").post("/clocks/x/advance");
        fired.then().statusCode(200).body("now", equalTo(5));
        assertEquals(List.of("B", "A"), firedIds(fired));

        given().get("/clock").then().body("now", equalTo(0));
        given().get("/timers/A").then().statusCode(200);
        given().get("/clocks/default/timers/A").then().statusCode(200);
        given().get("/clocks/x/timers").then().statusCode(200).body("size", equalTo(0)).body("now", equalTo(5));
        given().get("/clocks/x/queue").then().statusCode(200).body("size", equalTo(0));
        assertProblem(given().get("/clocks/x/queue/next"), 404, "queue_empty");
        assertProblem(given().get("/clocks/x/timers/A"), 404, "timer_not_found");
    }

    @Test
    void everyOperationUnderAClock_hasTodaysSemantics() {
        json("{}").put("/clocks/c").then().statusCode(201);
        Response added = json("{\"id\":\"A\",\"delay\":10,\"payload\":{\"k\":1}}").post("/clocks/c/timers");
        String etag = added.header("ETag");
        given().get("/clocks/c/timers/A").then().statusCode(200).header("ETag", etag).body("payload.k", equalTo(1));
        given().header("If-Match", etag).contentType("application/json").body("{\"priority\":3}")
                .patch("/clocks/c/timers/A").then().statusCode(200).body("version", equalTo(2));
        assertProblem(given().header("If-Match", etag).contentType("application/json").body("{\"priority\":4}")
                .patch("/clocks/c/timers/A"), 412, "precondition_failed");
        assertProblem(json("{\"id\":\"A\",\"delay\":1}").post("/clocks/c/timers"), 409, "duplicate_id");
        given().get("/clocks/c/queue/next").then().statusCode(200).body("id", equalTo("A"));
        assertHeapViewsOfClockCHoldOnlyA();
        given().queryParam("trace", true).delete("/clocks/c/timers/A").then().statusCode(200);
        assertProblem(given().delete("/clocks/c/timers/A"), 404, "timer_not_found");
        assertProblem(json("{\"by\":-1}").post("/clocks/c/advance"), 400, "invalid_advance");
        assertProblem(given().queryParam("limit", 0).get("/clocks/c/timers"), 400, "invalid_limit");
        for (String path : List.of("/timers", "/queue", "/queue/next", "/queue/invariants", "/queue/heap")) {
            assertProblem(given().get("/clocks/none" + path), 404, "clock_not_found");
        }
        assertProblem(json("{\"by\":1}").post("/clocks/none/advance"), 404, "clock_not_found");
    }

    /** The heap views of clock c, holding the one timer A (a store without heaps overrides this). */
    void assertHeapViewsOfClockCHoldOnlyA() {
        given().get("/clocks/c/queue/invariants").then().statusCode(200).body("ok", equalTo(true));
        given().get("/clocks/c/queue/heap").then().statusCode(200).body("slots.id", equalTo(List.of("A")));
    }

    @Test
    void aClockCreatedAgain_neverMatchesTheDeletedOnesETags() {
        json("{}").put("/clocks/r").then().statusCode(201);
        String oldTag = json("{\"id\":\"A\",\"delay\":10}").post("/clocks/r/timers").header("ETag");
        given().delete("/clocks/r").then().statusCode(204);
        json("{}").put("/clocks/r").then().statusCode(201);
        String newTag = json("{\"id\":\"A\",\"delay\":10}").post("/clocks/r/timers").header("ETag");

        assertNotEquals(oldTag, newTag);
        assertProblem(given().header("If-Match", oldTag).delete("/clocks/r/timers/A"), 412, "precondition_failed");
    }

    @Test
    void boundedAdvance_firesAtMostLimit_stopsAtTheLastFired_andTheSameCallContinues() {
        json("{}").put("/clocks/b").then().statusCode(201);
        for (String id : List.of("A", "B", "C")) {
            json("{\"id\":\"" + id + "\",\"delay\":5}").post("/clocks/b/timers").then().statusCode(201);
        }
        json("{\"id\":\"D\",\"delay\":7}").post("/clocks/b/timers").then().statusCode(201);

        given().queryParam("dueBy", 6).queryParam("limit", 2).get("/clocks/b/timers").then().statusCode(200)
                .body("timers.id", equalTo(List.of("A", "B"))).body("size", equalTo(4)).body("now", equalTo(0));
        given().queryParam("dueBy", 6).get("/clocks/b/timers").then()
                .body("timers.id", equalTo(List.of("A", "B", "C")));

        Response first = json("{\"to\":10}").queryParam("limit", 2).post("/clocks/b/advance");
        first.then().statusCode(200).body("complete", equalTo(false)).body("firedCount", equalTo(2))
                .body("now", equalTo(5));
        assertEquals(List.of("A", "B"), firedIds(first));

        Response second = json("{\"to\":10}").queryParam("limit", 2).post("/clocks/b/advance");
        second.then().statusCode(200).body("complete", equalTo(true)).body("firedCount", equalTo(2))
                .body("now", equalTo(10));
        assertEquals(List.of("C", "D"), firedIds(second));

        json("{\"by\":0}").post("/clocks/b/advance").then().statusCode(200).body("complete", equalTo(true))
                .body("firedCount", equalTo(0));
    }

    @Test
    void boundedAdvance_refusesBadLimitsAndBodies() {
        assertProblem(json("{\"by\":1}").queryParam("limit", 0).post("/clock/advance"), 400, "invalid_limit");
        assertProblem(json("{\"by\":1}").queryParam("limit", 10_001).post("/clock/advance"), 400, "invalid_limit");
        assertProblem(json("{\"by\":1,\"to\":1}").post("/clock/advance"), 400, "invalid_request");
        assertProblem(json("{}").post("/clock/advance"), 400, "invalid_request");
        assertProblem(json("{\"to\":\"5\"}").post("/clock/advance"), 400, "invalid_advance");
        advance(10);
        assertProblem(json("{\"to\":9}").post("/clock/advance"), 400, "invalid_advance");
        json("{\"to\":10}").post("/clock/advance").then().statusCode(200).body("now", equalTo(10));
        assertProblem(given().queryParam("dueBy", "-1").get("/timers"), 400, "invalid_request");
        assertProblem(given().queryParam("dueBy", "99999999999999999999").get("/timers"), 400, "invalid_request");
        json("{\"by\":1}").queryParam("limit", 10_000).post("/clock/advance").then().statusCode(200);
    }

    @Test
    void advance_withoutALimit_firesAtMostOneThousand() {
        // t0..t999 in one batch (its limit), then t1000: 2 requests instead of 1001, the same timers and sequences
        String thousand = IntStream.range(0, 1000).mapToObj(i -> "{\"op\":\"add\",\"id\":\"t" + i + "\",\"delay\":1}")
                .collect(Collectors.joining(","));
        json("{\"ops\":[" + thousand + "]}").post("/batch").then().statusCode(200);
        add("t1000", 1);
        json("{\"by\":1}").post("/clock/advance").then().statusCode(200)
                .body("firedCount", equalTo(1000)).body("complete", equalTo(false)).body("now", equalTo(1));
        json("{\"to\":1}").post("/clock/advance").then().statusCode(200)
                .body("firedCount", equalTo(1)).body("fired[0].id", equalTo("t1000")).body("complete", equalTo(true));
    }
}
