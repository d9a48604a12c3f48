package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Timers due at an absolute clock time ({@code at}, epoch milliseconds or an RFC 3339 date-time) instead of a delay:
 * adds, edits and batch operations, on the default clock and on named virtual and system clocks. The refusals of a
 * malformed {@code at} are cases of {@link StrictInputRestTest} and {@link BatchRestTest}'s kind, here too. The
 * web layer reads an {@code at}, the same on both stores; the store's part (a time at, before or too far after the
 * clock's now, on a virtual, system or named clock, in a batch) is a case of {@code store.TimerStoreContract}.
 */
class AbsoluteTimeRestTest extends RestTestSupport {

    /** 2027-03-28T03:30:00+02:00, the instant the contract's examples use. */
    private static final long REPORT_TIME = Instant.parse("2027-03-28T01:30:00Z").toEpochMilli();

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void add_atAClockTime_isDueThen_andCreatedNow() {
        advance(7);

        add("{\"id\":\"A\",\"at\":20,\"priority\":-1}").then()
                .body("fireTime", equalTo(20))
                .body("createdAt", equalTo(7))
                .body("priority", equalTo(-1));
        assertEquals(List.of("A"), firedIds(advance(13)));
    }

    @Test
    void add_atADateTime_namesTheSameInstantWhateverItsOffset() {
        json("{\"now\":" + (REPORT_TIME - 60_000) + "}").put("/clocks/epoch").then().statusCode(201);

        for (String at : List.of("2027-03-28T03:30:00+02:00", "2027-03-28T01:30:00Z", "2027-03-27T21:30:00-04:00",
                "2027-03-28t01:30:00z", "2027-03-28T01:30:00.0009Z", "2027-03-28T01:30:00-00:00")) {
            Response added = json("{\"id\":\"r\",\"at\":\"" + at + "\"}").post("/clocks/epoch/timers");
            added.then().statusCode(201);
            assertEquals(REPORT_TIME, added.jsonPath().getLong("fireTime"), at);
            given().delete("/clocks/epoch/timers/r").then().statusCode(204);
        }
        Response fraction = json("{\"id\":\"f\",\"at\":\"2027-03-28T03:30:00.250+02:00\"}")
                .post("/clocks/epoch/timers");
        assertEquals(REPORT_TIME + 250, fraction.jsonPath().getLong("fireTime"));
    }

    @Test
    void aVirtualClockAtZero_isAtTheEpoch() {
        add("{\"id\":\"A\",\"at\":\"1970-01-01T00:00:00.005Z\"}").then().body("fireTime", equalTo(5));
        add("{\"id\":\"B\",\"at\":\"1970-01-01T01:00:00+01:00\"}").then().body("fireTime", equalTo(0));
    }

    @Test
    void add_atBeforeNow_isDueNow_andFiresAtTheNextAdvance() {
        advance(50);

        add("{\"id\":\"past\",\"at\":10}").then().body("fireTime", equalTo(50));
        add("{\"id\":\"epoch\",\"at\":\"1969-12-31T23:59:59Z\"}").then().body("fireTime", equalTo(50));
        add("{\"id\":\"min\",\"at\":-9223372036854775808}").then().body("fireTime", equalTo(50));
        add("{\"id\":\"now\",\"at\":50}").then().body("fireTime", equalTo(50));

        assertEquals(List.of("past", "epoch", "min", "now"), firedIds(advance(0)));
    }

    @Test
    void add_atTheLatestTime_isTenToTheFifteenAfterNow() {
        advance(1);

        add("{\"id\":\"last\",\"at\":" + (1 + MAX_DELAY) + "}").then().body("fireTime", equalTo(1 + MAX_DELAY));
        assertProblem(json("{\"id\":\"over\",\"at\":" + (2 + MAX_DELAY) + "}").post("/timers"), 400, "invalid_delay");
    }

    @Test
    void edit_toAClockTime_keepsTheSequence_andCountsAVersion() {
        long sequence = add("A", 5).jsonPath().getLong("sequence");
        advance(2);

        json("{\"at\":40}").patch("/timers/A").then().statusCode(200)
                .body("fireTime", equalTo(40))
                .body("sequence", equalTo((int) sequence))
                .body("version", equalTo(2));
        json("{\"at\":\"1970-01-01T00:00:00Z\",\"priority\":3}").patch("/timers/A").then().statusCode(200)
                .body("fireTime", equalTo(2))
                .body("priority", equalTo(3))
                .body("version", equalTo(3));
    }

    @Test
    void addAndEdit_onANamedClock_readThatClocksNow() {
        json("{\"now\":1000}").put("/clocks/c").then().statusCode(201);

        json("{\"id\":\"A\",\"at\":1500}").post("/clocks/c/timers").then().statusCode(201)
                .header("Location", "/clocks/c/timers/A")
                .body("fireTime", equalTo(1500));
        json("{\"at\":10}").patch("/clocks/c/timers/A").then().statusCode(200).body("fireTime", equalTo(1000));
        given().get("/timers/A").then().statusCode(404);
    }

    @Test
    void aSystemClock_readsAsEpochMilliseconds() {
        json("{\"mode\":\"system\"}").put("/clocks/wall").then().statusCode(201);

        Response future = json("{\"id\":\"y2099\",\"at\":\"2099-01-01T00:00:00Z\"}").post("/clocks/wall/timers");
        future.then().statusCode(201);
        assertEquals(Instant.parse("2099-01-01T00:00:00Z").toEpochMilli(), future.jsonPath().getLong("fireTime"));
        Response past = json("{\"id\":\"y2000\",\"at\":\"2000-01-01T00:00:00Z\"}").post("/clocks/wall/timers");
        past.then().statusCode(201);
        assertEquals(past.jsonPath().getLong("createdAt"), past.jsonPath().getLong("fireTime"),
                "a time before now is due now");
    }

    @Test
    void batch_addsAndEditsAtClockTimes() {
        add("A", 5);
        advance(1);

        json("{\"ops\":[{\"op\":\"add\",\"id\":\"B\",\"at\":\"1970-01-01T00:00:00.030Z\"},"
                + "{\"op\":\"edit\",\"id\":\"A\",\"at\":0},{\"op\":\"add\",\"id\":\"C\",\"at\":9}]}")
                .post("/batch").then().statusCode(200)
                .body("results.id", equalTo(List.of("B", "A", "C")))
                .body("results.fireTime", equalTo(List.of(30, 1, 9)));
    }

    @Test
    void batch_withAMalformedOrDoubleDueTime_isRefusedAtThatOperation_andChangesNothing() {
        add("A", 5);
        String before = observableState();

        Response malformed = json("{\"ops\":[{\"op\":\"add\",\"id\":\"B\",\"at\":9},"
                + "{\"op\":\"edit\",\"id\":\"A\",\"at\":\"2027-03-28T03:30:00\"}]}").post("/batch");
        assertProblem(malformed, 400, "invalid_delay");
        malformed.then().body("op", equalTo(1));
        Response both = json("{\"ops\":[{\"op\":\"add\",\"id\":\"B\",\"delay\":1,\"at\":9}]}").post("/batch");
        assertProblem(both, 400, "invalid_request");
        both.then().body("op", equalTo(0));
        Response neither = json("{\"ops\":[{\"op\":\"add\",\"id\":\"B\"}]}").post("/batch");
        assertProblem(neither, 400, "invalid_request");
        Response tooLate = json("{\"ops\":[{\"op\":\"add\",\"id\":\"B\",\"at\":1},"
                + "{\"op\":\"edit\",\"id\":\"A\",\"at\":" + (MAX_DELAY + 1) + "}]}").post("/batch");
        assertProblem(tooLate, 400, "invalid_delay");
        tooLate.then().body("op", equalTo(1));

        assertEquals(before, observableState());
    }

    @Test
    void problems_nameTheMember() {
        json("{\"id\":\"N\",\"delay\":1,\"at\":2}").post("/timers").then().statusCode(400)
                .body("detail", equalTo("a timer needs exactly one of delay and at, got both"));
        json("{\"id\":\"N\"}").post("/timers").then().statusCode(400)
                .body("detail", equalTo("a timer needs exactly one of delay and at, got neither"));
        json("{\"id\":\"N\",\"at\":\"2027-03-28T03:30:00\"}").post("/timers").then().statusCode(400)
                .body("detail", equalTo("at must be a JSON integer of clock milliseconds (Unix epoch) or an RFC 3339"
                        + " date-time string with an offset, as \"2027-03-28T03:30:00+02:00\", got"
                        + " \"2027-03-28T03:30:00\""));
        json("{\"delay\":1,\"at\":2}").patch("/timers/N").then().statusCode(400)
                .body("detail", equalTo("an edit takes at most one of delay and at, got both"));
    }
}
