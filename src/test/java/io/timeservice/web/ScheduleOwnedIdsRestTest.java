package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 41 items 1 and 12, issue 49 item 6: timer ids of the form {@code <schedule>:<digits>} are the schedule's
 * while it exists. A client's add of one is {@code schedule_owned} and changes nothing; a snapshot document with such
 * a timer that does not name the schedule is refused at the timer's pointer; and a schedule whose next occurrence id
 * a client's timer holds nevertheless (one added before the schedule) skips that occurrence and goes on, never two
 * timers with one id (memory) and never a schedule stuck with no occurrence (PostgreSQL). Runs on both stores.
 */
class ScheduleOwnedIdsRestTest extends RestTestSupport {

    private static final long NOW = 1806184800000L; // 2027-03-27T22:00Z
    private static final long HELD = 1806190200000L; // 23:30Z

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aClientAdd_ofAnIdOfAnExistingSchedulesForm_isScheduleOwned_inEveryState_andChangesNothing() {
        json("{\"now\":" + NOW + "}").put("/clocks/c").then().statusCode(201);
        json("{\"cron\":\"30 * * * *\"}").put("/clocks/c/schedules/b").then().statusCode(201);

        Response refused = json("{\"id\":\"b:" + HELD + "\",\"delay\":86400000}").post("/clocks/c/timers");
        assertProblem(refused, 409, "schedule_owned");
        refused.then().body("detail", containsString("schedule b"));
        assertProblem(json("{\"id\":\"b:-7\",\"delay\":1}").post("/clocks/c/timers"), 409, "schedule_owned");
        Response batch = json("{\"ops\":[{\"op\":\"add\",\"id\":\"free\",\"delay\":1},"
                + "{\"op\":\"add\",\"id\":\"b:" + HELD + "\",\"delay\":1}]}").post("/clocks/c/batch");
        assertProblem(batch, 409, "schedule_owned");
        given().get("/clocks/c/timers/free").then().statusCode(404);
        // ids of other forms, and of schedules the clock does not hold, stay free
        json("{\"id\":\"b:x1\",\"delay\":1}").post("/clocks/c/timers").then().statusCode(201);
        json("{\"id\":\"order:42\",\"delay\":1}").post("/clocks/c/timers").then().statusCode(201);
        json("{\"id\":\"b:1:2\",\"delay\":1}").post("/clocks/c/timers").then().statusCode(201);

        given().post("/clocks/c/schedules/b/pause").then().statusCode(200);
        assertProblem(json("{\"id\":\"b:5\",\"delay\":1}").post("/clocks/c/timers"), 409, "schedule_owned");
        given().delete("/clocks/c/schedules/b").then().statusCode(204);
        json("{\"id\":\"b:5\",\"delay\":1}").post("/clocks/c/timers").then().statusCode(201);

        json("{\"every\":1000,\"limit\":1}").put("/clocks/c/schedules/d").then().statusCode(201);
        json("{\"by\":5000}").post("/clocks/c/advance").then().statusCode(200);
        given().get("/clocks/c/schedules/d").then().body("state", equalTo("done"));
        assertProblem(json("{\"id\":\"d:" + (NOW + 9000) + "\",\"delay\":1}").post("/clocks/c/timers"), 409,
                "schedule_owned");
    }

    @Test
    void theIssuesHistory_leavesOneTimerPerId_andTheClockSavesLoadsAndForks() {
        json("{\"now\":" + NOW + "}").put("/clocks/c").then().statusCode(201);
        json("{\"cron\":\"30 * * * *\"}").put("/clocks/c/schedules/b").then().statusCode(201);
        assertProblem(json("{\"id\":\"b:" + HELD + "\",\"delay\":86400000}").post("/clocks/c/timers"), 409,
                "schedule_owned");
        json("{\"next\":true}").post("/clocks/c/advance").then().statusCode(200);

        given().get("/clocks/c/timers").then().body("timers.id", equalTo(List.of("b:" + HELD)));
        given().get("/clocks/c/queue/invariants").then().statusCode(200).body("ok", equalTo(true));
        json("{\"copyOf\":\"c\"}").put("/clocks/copy").then().statusCode(201);
        String saved = given().get("/clocks/c/snapshot").then().statusCode(200).extract().asString();
        json(saved).put("/clocks/loaded/snapshot").then().statusCode(201);
    }

    @Test
    void aSchedulesNextOccurrence_heldByAnOlderClientTimer_isSkippedAndCounted_andTheScheduleGoesOn() {
        json("{\"now\":0}").put("/clocks/c").then().statusCode(201);
        json("{\"id\":\"s:3000\",\"delay\":10000,\"payload\":{\"mine\":true}}").post("/clocks/c/timers").then()
                .statusCode(201);
        json("{\"every\":1000,\"start\":1000}").put("/clocks/c/schedules/s").then().statusCode(201);

        Response advanced = json("{\"to\":5000}").post("/clocks/c/advance");

        assertThat(advanced.jsonPath().getList("fired.id", String.class))
                .containsExactly("s:1000", "s:2000", "s:4000", "s:5000");
        given().get("/clocks/c/schedules/s").then().body("state", equalTo("active")).body("fired", equalTo(4))
                .body("skipped", equalTo(1)).body("next", equalTo(6000));
        given().get("/clocks/c/timers").then().body("timers.id", equalTo(List.of("s:6000", "s:3000")));
        given().get("/clocks/c/timers/s:3000").then().body("payload.mine", equalTo(true))
                .body("fireTime", equalTo(10000));
        given().get("/clocks/c/queue/invariants").then().statusCode(200).body("ok", equalTo(true));
        String saved = given().get("/clocks/c/snapshot").then().statusCode(200).extract().asString();
        assertProblem(json(saved).put("/clocks/loaded/snapshot"), 400, "invalid_snapshot"); // (e): s exists
        given().delete("/clocks/c/timers/s:3000").then().statusCode(204);
        String clean = given().get("/clocks/c/snapshot").then().statusCode(200).extract().asString();
        json(clean).put("/clocks/loaded/snapshot").then().statusCode(201);
    }

    @Test
    void creatingOrTriggeringASchedule_whoseOwnOccurrenceIdAClientTimerHolds_isDuplicateId() {
        json("{\"now\":0}").put("/clocks/c").then().statusCode(201);
        json("{\"id\":\"s:1000\",\"delay\":5000}").post("/clocks/c/timers").then().statusCode(201);
        json("{\"id\":\"s:0\",\"delay\":5000}").post("/clocks/c/timers").then().statusCode(201);
        assertProblem(json("{\"every\":1000,\"start\":1000}").put("/clocks/c/schedules/s"), 409, "duplicate_id");
        given().get("/clocks/c/schedules/s").then().statusCode(404);

        json("{\"every\":1000,\"start\":2000}").put("/clocks/c/schedules/s").then().statusCode(201);
        assertProblem(json("{\"every\":1000,\"start\":1000}").put("/clocks/c/schedules/s"), 409, "duplicate_id");
        assertProblem(given().post("/clocks/c/schedules/s/trigger"), 409, "duplicate_id");
        given().get("/clocks/c/schedules/s").then().body("version", equalTo(1)).body("next", equalTo(2000));
        given().get("/clocks/c/timers").then().body("timers.id", equalTo(List.of("s:2000", "s:1000", "s:0")));
    }

    @Test
    void aSnapshotDocument_withAClientTimerOfItsSchedulesForm_isRefusedAtTheTimer() {
        String document = "{\"format\":1,\"clock\":{\"now\":0,\"nextSequence\":3},\"timers\":["
                + "{\"id\":\"s:1000\",\"fireTime\":1000,\"sequence\":1,\"schedule\":\"s\"},"
                + "{\"id\":\"s:2000\",\"fireTime\":5000,\"sequence\":2,\"payload\":{\"client\":1}}],"
                + "\"schedules\":[{\"id\":\"s\",\"every\":1000,\"start\":1000,\"next\":1000}]}";

        Response refused = json(document).put("/clocks/doc/snapshot");

        assertProblem(refused, 400, "invalid_snapshot");
        assertThat(refused.jsonPath().getString("member")).isEqualTo("/timers/1");
        given().get("/clocks/doc").then().statusCode(404);
        // the same timer with another schedule's form, or without the schedule, loads
        json(document.replace("\"s:2000\"", "\"t:2000\"")).put("/clocks/doc/snapshot").then().statusCode(201);
    }
}
