package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;

import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

/** The timer resource: each operation's success path and its own errors. */
class TimerRestTest extends RestTestSupport {

    @Test
    void add_answers201WithLocationEtagAndTheTimer() {
        Response created = add("A", 5);

        long sequence = created.jsonPath().getLong("sequence");
        created.then()
                .contentType("application/json")
                .header("Location", "/timers/A")
                .header("ETag", "\"" + sequence + "-1\"")
                .body("id", equalTo("A"))
                .body("fireTime", equalTo(5))
                .body("priority", equalTo(0))
                .body("version", equalTo(1))
                .body("createdAt", equalTo(0))
                .body("$", not(hasKey("payload")))
                .body("$", not(hasKey("trace")));
    }

    @Test
    void add_afterTheClockMoved_isDueAtNowPlusDelay() {
        advance(7);

        add("{\"id\":\"late\",\"delay\":3,\"priority\":-4}").then()
                .body("fireTime", equalTo(10))
                .body("createdAt", equalTo(7))
                .body("priority", equalTo(-4));
    }

    @Test
    void add_givesEachTimerTheNextSequence() {
        long first = add("A", 5).jsonPath().getLong("sequence");
        long second = add("B", 5).jsonPath().getLong("sequence");

        assertEquals(first + 1, second);
    }

    @Test
    void add_acceptsTheBoundaryValues() {
        String longestId = "a".repeat(128);
        add(longestId, MAX_DELAY, Integer.MIN_VALUE).then()
                .header("Location", "/timers/" + longestId)
                .body("fireTime", equalTo(MAX_DELAY))
                .body("priority", equalTo(Integer.MIN_VALUE));
        add("Zz09._-~:", 0, Integer.MAX_VALUE).then()
                .body("id", equalTo("Zz09._-~:"))
                .body("fireTime", equalTo(0))
                .body("priority", equalTo(Integer.MAX_VALUE));
    }

    @Test
    void idsWithDotsThatAreNotDotSegments_canBeReadEditedAndCancelledByTheirPath() {
        HttpProbe http = new HttpProbe(port);
        for (String id : List.of("...", ".a", "a.", "..a", "a..")) {
            add(id, 5).then().header("Location", "/timers/" + id);

            assertEquals(200, http.get("/timers/" + id).status(), id);
            assertEquals(200, http.json("PATCH", "/timers/" + id, "{\"delay\":6}").status(), id);
            assertEquals(204, http.send("DELETE", "/timers/" + id, java.util.Map.of(), null).status(), id);
        }
    }

    @Test
    void add_pendingId_conflicts() {
        add("A", 5);

        assertProblem(json("{\"id\":\"A\",\"delay\":9}").post("/timers"), 409, "duplicate_id");
        given().get("/timers/A").then().statusCode(200).body("fireTime", equalTo(5));
    }

    @Test
    void add_idOfACancelledOrFiredTimer_isReusedWithANewSequence() {
        long cancelled = add("A", 5).jsonPath().getLong("sequence");
        given().delete("/timers/A").then().statusCode(204);
        long reused = add("A", 5).jsonPath().getLong("sequence");
        advance(5);
        long again = add("A", 1).jsonPath().getLong("sequence");

        assertNotEquals(cancelled, reused);
        assertEquals(reused + 1, again);
    }

    @Test
    void get_returnsThePendingTimerWithItsEtag() {
        long sequence = add("{\"id\":\"A\",\"delay\":5,\"priority\":2,\"payload\":{\"k\":[1,2]}}")
                .jsonPath().getLong("sequence");

        given().get("/timers/{id}", "A").then()
                .statusCode(200)
                .header("ETag", "\"" + sequence + "-1\"")
                .body("id", equalTo("A"))
                .body("fireTime", equalTo(5))
                .body("priority", equalTo(2))
                .body("sequence", equalTo((int) sequence))
                .body("payload.k", equalTo(List.of(1, 2)));
    }

    @Test
    void get_unknownId_isTimerNotFound() {
        assertProblem(given().get("/timers/{id}", "nope"), 404, "timer_not_found");
        assertProblem(given().get("/timers/{id}", "not an id"), 404, "timer_not_found");
    }

    @Test
    void get_firedTimer_isTimerNotFound() {
        add("A", 1);
        advance(1);

        assertProblem(given().get("/timers/A"), 404, "timer_not_found");
    }

    @Test
    void edit_delay_setsFireTimeFromNow_keepsSequence_countsVersion() {
        long sequence = add("A", 10).jsonPath().getLong("sequence");
        advance(3);

        json("{\"delay\":4}").patch("/timers/A").then()
                .statusCode(200)
                .header("ETag", "\"" + sequence + "-2\"")
                .body("fireTime", equalTo(7))
                .body("sequence", equalTo((int) sequence))
                .body("version", equalTo(2))
                .body("createdAt", equalTo(0))
                .body("$", not(hasKey("trace")));
    }

    @Test
    void edit_priorityOnly_keepsFireTime() {
        add("A", 10);

        json("{\"priority\":-7}").patch("/timers/A").then()
                .statusCode(200)
                .body("fireTime", equalTo(10))
                .body("priority", equalTo(-7))
                .body("version", equalTo(2));
    }

    @Test
    void edit_bothMembers_changesBoth() {
        add("A", 10);

        json("{\"delay\":2,\"priority\":3}").patch("/timers/A").then()
                .statusCode(200)
                .body("fireTime", equalTo(2))
                .body("priority", equalTo(3));
    }

    @Test
    void edit_withNothingToChange_isInvalidRequest() {
        add("A", 10);

        assertProblem(json("{}").patch("/timers/A"), 400, "invalid_request");
        given().get("/timers/A").then().body("version", equalTo(1));
    }

    @Test
    void edit_unknownId_isTimerNotFound() {
        assertProblem(json("{\"delay\":1}").patch("/timers/nope"), 404, "timer_not_found");
    }

    @Test
    void cancel_answers204_andTheTimerIsGone() {
        add("A", 10);
        add("B", 20);

        given().delete("/timers/A").then().statusCode(204).body(equalTo(""));

        assertProblem(given().get("/timers/A"), 404, "timer_not_found");
        given().get("/queue").then().body("size", equalTo(1)).body("nextFireTime", equalTo(20));
    }

    @Test
    void cancel_unknownId_isTimerNotFound() {
        assertProblem(given().delete("/timers/nope"), 404, "timer_not_found");
    }

    @Test
    void cancel_withTrace_answers200WithTheCancelledTimerAndItsEtag() {
        long sequence = add("A", 10).jsonPath().getLong("sequence");

        assertCancelTrace(given().queryParam("trace", true).delete("/timers/A").then()
                .statusCode(200)
                .header("ETag", "\"" + sequence + "-1\"")
                .body("id", equalTo("A"))
                .body("fireTime", equalTo(10)));
        assertProblem(given().get("/timers/A"), 404, "timer_not_found");
    }

    /** A cancel's trace: the heap's steps, starting with the removal (a store without a heap overrides this). */
    void assertCancelTrace(ValidatableResponse cancelled) {
        cancelled.body("trace[0].op", equalTo("remove"));
    }

    @Test
    void traceParameter_thatIsNotABoolean_isInvalidRequest() {
        add("A", 10);

        assertProblem(given().queryParam("trace", "maybe").delete("/timers/A"), 400, "invalid_request");
        assertProblem(json("{\"id\":\"B\",\"delay\":1}").queryParam("trace", "maybe").post("/timers"), 400,
                "invalid_request");
        given().get("/timers/A").then().statusCode(200);
        assertProblem(given().get("/timers/B"), 404, "timer_not_found");
    }

    @Test
    void list_givesTimersInFiringOrder_withNowAndSize() {
        add("late", 30);
        add("early", 10);
        add("tieLowPriority", 20, 5);
        add("tieHighPriority", 20, -5);
        advance(2);

        given().get("/timers").then()
                .statusCode(200)
                .body("now", equalTo(2))
                .body("size", equalTo(4))
                .body("timers.id", equalTo(List.of("early", "tieHighPriority", "tieLowPriority", "late")));
    }

    @Test
    void list_limit_cutsTheListButNotTheSize() {
        for (int i = 0; i < 5; i++) {
            add("t" + i, 50 - i);
        }

        given().queryParam("limit", 2).get("/timers").then()
                .body("size", equalTo(5))
                .body("timers.id", equalTo(List.of("t4", "t3")));
        given().queryParam("limit", 1000).get("/timers").then()
                .body("timers.id", equalTo(List.of("t4", "t3", "t2", "t1", "t0")));
    }

    @Test
    void list_defaultLimitIs100() {
        for (int i = 0; i < 101; i++) {
            add(String.format("t%03d", i), i);
        }

        Response listing = given().get("/timers");
        assertEquals(100, listing.jsonPath().getList("timers").size());
        assertEquals("t099", listing.jsonPath().getString("timers[99].id"));
        listing.then().body("size", equalTo(101));
    }

    @Test
    void list_emptyQueue() {
        given().get("/timers").then().body("size", equalTo(0)).body("timers", equalTo(List.of()));
    }

    @Test
    void list_limitOutOfRangeOrNotANumber_isInvalidLimit() {
        for (String limit : List.of("0", "1001", "-1", "abc", "", "2.5", "1e2", "99999999")) {
            assertProblem(given().queryParam("limit", limit).get("/timers"), 400, "invalid_limit");
        }
    }

    @Test
    void payload_isOmittedWhenAbsentOrNull() {
        add("{\"id\":\"none\",\"delay\":1}").then().body("$", not(hasKey("payload")));
        add("{\"id\":\"null\",\"delay\":1,\"payload\":null}").then().body("$", not(hasKey("payload")));

        given().get("/timers/null").then().body("$", not(hasKey("payload"))).body("payload", nullValue());
    }
}
