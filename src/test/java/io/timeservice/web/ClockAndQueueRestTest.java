package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** The clock, the queue views and the demo switch. */
class ClockAndQueueRestTest extends RestTestSupport {

    private static final List<String> CHECKS = List.of("root-is-earliest", "index-matches-heap", "heap-order",
            "no-overdue");

    @Test
    void clock_startsAtZero_andMovesOnlyByAdvance() {
        given().get("/clock").then().statusCode(200).body("now", equalTo(0));

        advance(0).then().body("now", equalTo(0)).body("fired", equalTo(List.of()));
        advance(250).then().body("now", equalTo(250));
        advance(MAX_DELAY).then().body("now", equalTo(MAX_DELAY + 250));

        given().get("/clock").then().body("now", equalTo(MAX_DELAY + 250));
    }

    @Test
    void advance_firesEverythingDueAtOrBeforeTheNewTime_inFiringOrder() {
        add("c", 30);
        add("a", 10);
        add("b", 20, 9);
        add("b0", 20, -9);
        add("d", 31);

        Response fired = advance(30);

        assertEquals(List.of("a", "b0", "b", "c"), firedIds(fired));
        fired.then().body("now", equalTo(30));
        given().get("/timers").then().body("timers.id", equalTo(List.of("d")));
    }

    @Test
    void queue_whenEmpty_hasNullDeadlines() {
        given().get("/queue").then()
                .statusCode(200)
                .body("now", equalTo(0))
                .body("size", equalTo(0))
                .body("nextFireTime", nullValue())
                .body("oldestCreatedAt", nullValue());
    }

    @Test
    void queue_showsSizeNextDeadlineAndOldestPendingTimer() {
        add("first", 50);
        advance(5);
        add("second", 10);
        advance(2);

        given().get("/queue").then()
                .body("now", equalTo(7))
                .body("size", equalTo(2))
                .body("nextFireTime", equalTo(15))
                .body("oldestCreatedAt", equalTo(0));

        given().delete("/timers/first").then().statusCode(204);
        given().get("/queue").then().body("oldestCreatedAt", equalTo(5)).body("nextFireTime", equalTo(15));
    }

    @Test
    void next_isTheFirstInFiringOrder() {
        add("later", 9);
        add("sooner", 4);

        given().get("/queue/next").then()
                .statusCode(200)
                .body("id", equalTo("sooner"))
                .body("fireTime", equalTo(4));
    }

    @Test
    void next_ofAnEmptyQueue_isQueueEmpty() {
        assertProblem(given().get("/queue/next"), 404, "queue_empty");

        add("A", 1);
        advance(1);
        assertProblem(given().get("/queue/next"), 404, "queue_empty");
    }

    @Test
    void invariants_holdAfterAMixOfOperations() {
        for (int i = 0; i < 30; i++) {
            add("t" + i, (i * 7) % 13, i % 3);
        }
        for (int i = 0; i < 30; i += 4) {
            given().delete("/timers/t" + i).then().statusCode(204);
        }
        json("{\"delay\":0}").patch("/timers/t29").then().statusCode(200);
        advance(5);

        Response report = given().get("/queue/invariants");

        report.then().statusCode(200).body("ok", equalTo(true)).body("checks.name", equalTo(CHECKS))
                .body("checks.ok", equalTo(List.of(true, true, true, true)));
        assertEquals(4, report.jsonPath().getList("checks.detail").stream().filter(d -> d == null).count());
    }

    @Test
    void heap_showsTheArrayInSlotOrder_withIndexAndInvariants() {
        add("A", 5);
        add("B", 3);
        add("C", 4);
        add("D", 1);
        add("E", 2);

        Response heap = given().get("/queue/heap");

        heap.then()
                .statusCode(200)
                .body("arity", equalTo(4))
                .body("size", equalTo(5))
                .body("now", equalTo(0))
                .body("slots.index", equalTo(List.of(0, 1, 2, 3, 4)))
                .body("invariants.ok", equalTo(true))
                .body("invariants.checks.name", equalTo(CHECKS));
        List<Map<String, Object>> slots = heap.jsonPath().getList("slots");
        Map<String, Integer> index = heap.jsonPath().getMap("index", String.class, Integer.class);
        assertEquals(5, index.size());
        for (Map<String, Object> slot : slots) {
            assertEquals(slot.get("index"), index.get((String) slot.get("id")), "index entry of " + slot);
        }
        assertEquals("D", slots.get(0).get("id"), "the root is the earliest timer");
        for (int k = 1; k < slots.size(); k++) {
            int parent = (k - 1) / 4;
            assertTrue((int) slots.get(parent).get("fireTime") <= (int) slots.get(k).get("fireTime"),
                    "slot " + k + " fires no earlier than its parent");
        }
    }

    @Test
    void heap_limit_cutsTheSlotsButNotTheSize() {
        for (int i = 0; i < 70; i++) {
            add("t" + i, i);
        }

        Response byDefault = given().get("/queue/heap");
        assertEquals(63, byDefault.jsonPath().getList("slots").size());
        assertEquals(63, byDefault.jsonPath().getMap("index").size());
        byDefault.then().body("size", equalTo(70));

        given().queryParam("limit", 2).get("/queue/heap").then()
                .body("slots.id", equalTo(List.of("t0", "t1")))
                .body("index.size()", equalTo(2));
        given().queryParam("limit", 1023).get("/queue/heap").then().body("slots.size()", equalTo(70));
    }

    @Test
    void heap_limitOutOfRangeOrNotANumber_isInvalidLimit() {
        for (String limit : List.of("0", "1024", "-3", "x", "", " 5")) {
            assertProblem(given().queryParam("limit", limit).get("/queue/heap"), 400, "invalid_limit");
        }
    }

    @Test
    void demo_isEnabledForThisService() {
        given().get("/demo").then().statusCode(200).body("enabled", equalTo(true));
    }

    @Test
    void demoReset_emptiesTheQueue_restartsTheClock_andSequencesKeepCounting() {
        long before = add("A", 5).jsonPath().getLong("sequence");
        advance(3);

        given().post("/demo/reset").then().statusCode(200).body("now", equalTo(0));

        given().get("/queue").then().body("size", equalTo(0)).body("now", equalTo(0));
        assertProblem(given().get("/timers/A"), 404, "timer_not_found");
        assertTrue(add("A", 5).jsonPath().getLong("sequence") > before);
    }
}
