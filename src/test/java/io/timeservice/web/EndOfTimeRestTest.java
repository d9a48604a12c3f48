package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.timeservice.model.Limits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The end of time ({@link Limits#MAX_TIME}, 2^53 - 1 ms): one bound for the API, the fork and the snapshot load. Every
 * path that took a clock past what its own load accepts (issue 49 item 1) ends in a clock whose document loads into
 * a clock that saves the same document; a time a client names past the end is refused, one the service computes
 * saturates there, and {@code {"next": true}} finds an event at the end of time (49 item 3); schedule start and end
 * are bounded as {@code at} is (41 items 2 and 13).
 */
class EndOfTimeRestTest extends RestTestSupport {

    static final long END = Limits.MAX_TIME;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String QUEUE = "\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":3,\"initialBackoff\":1000,"
            + "\"jitter\":0}";

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    // ---- 49.1: every path that saved a document its load refused

    @Test
    void aClockAtTenToTheFifteen_advancedByOne_savesADocumentThatLoads() {
        json("{\"now\":" + MAX_DELAY + "}").put("/clocks/far").then().statusCode(201);
        json("{\"by\":1}").post("/clocks/far/advance").then().statusCode(200);
        json("{\"id\":\"t\",\"delay\":" + MAX_DELAY + "}").post("/clocks/far/timers").then().statusCode(201);

        assertRoundTrip("far", MAX_DELAY + 1);
    }

    @Test
    void twoNextSteps_eachToATimerTenToTheFifteenAhead_saveADocumentThatLoads() {
        json("{}").put("/clocks/steps").then().statusCode(201);
        for (int step = 1; step <= 2; step++) {
            json("{\"id\":\"t" + step + "\",\"delay\":" + MAX_DELAY + "}").post("/clocks/steps/timers").then()
                    .statusCode(201);
            next("steps").then().body("event", equalTo("timer"));
        }
        json("{\"id\":\"last\",\"delay\":" + MAX_DELAY + "}").post("/clocks/steps/timers").then().statusCode(201);

        assertRoundTrip("steps", 2 * MAX_DELAY);
    }

    @Test
    void aScaledClockLeftRunning_stopsAtTheEndOfTime_andSavesADocumentThatLoads() {
        json("{\"mode\":\"scaled\",\"rate\":100000,\"now\":" + (END - 1000) + "," + QUEUE + "}")
                .put("/clocks/running").then().statusCode(201);
        json("{\"id\":\"due\",\"at\":" + END + "}").post("/clocks/running/timers").then().statusCode(201);
        // 1,000 clock ms at 100,000 per wall ms: the clock is at its end before any wall millisecond has passed twice
        org.awaitility.Awaitility.await("the clock at its end").atMost(java.time.Duration.ofSeconds(60))
                .until(() -> now("running") == END);

        JsonNode saved = save("running");
        assertThat(saved.at("/clock/now").asLong()).isEqualTo(END);
        org.awaitility.Awaitility.await("the timer due at the end ready").atMost(java.time.Duration.ofSeconds(60))
                .until(() -> given().get("/clocks/running").jsonPath().getInt("deliveries.ready") == 1);
        assertRoundTrip("running", END);
    }

    @Test
    void aFarRetry_thenNext_reachesItAtTheEndOfTime_andSavesADocumentThatLoads() {
        json("{\"now\":" + (END - 1000) + "," + QUEUE + "}").put("/clocks/retry").then().statusCode(201);
        json("{\"id\":\"job\",\"delay\":0}").post("/clocks/retry/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/retry/advance").then().statusCode(200);
        String claim = claimOne("retry", 1000).get("claim").toString();
        Response nacked = json("{\"claim\":\"" + claim + "\",\"retryAfter\":604800000}")
                .post("/clocks/retry/deliveries/job/nack");
        nacked.then().statusCode(200).body("state", equalTo("waiting"));
        assertThat(nacked.jsonPath().getLong("retryAt")).isEqualTo(END); // saturated, not past the end

        next("retry").then().body("event", equalTo("retry"));
        assertThat(now("retry")).isEqualTo(END);
        assertRoundTrip("retry", END);
    }

    @Test
    void aScheduleStartingTenToTheFifteenAhead_loads_andOneFurther_isRefusedAsAnAtIs() {
        json("{}").put("/clocks/sched").then().statusCode(201);
        assertProblem(json("{\"every\":1000,\"start\":" + 2 * MAX_DELAY + "}").put("/clocks/sched/schedules/s"),
                400, "invalid_schedule");
        assertProblem(json("{\"id\":\"t\",\"at\":" + 2 * MAX_DELAY + "}").post("/clocks/sched/timers"), 400,
                "invalid_delay");
        json("{\"every\":1000,\"start\":" + MAX_DELAY + "}").put("/clocks/sched/schedules/s").then()
                .statusCode(201);

        assertRoundTrip("sched", 0);
    }

    // ---- 49.3: next finds an event at the end of time

    @Test
    void aLeaseSaturatedAtTheEndOfTime_isFoundByNext_andSavesADocumentThatLoads() {
        json("{\"now\":" + (END - 1000) + "," + QUEUE + "}").put("/clocks/lease").then().statusCode(201);
        json("{\"id\":\"job\",\"delay\":0}").post("/clocks/lease/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/lease/advance").then().statusCode(200);
        assertThat(((Number) claimOne("lease", Limits.MAX_LEASE_MILLIS).get("leaseUntil")).longValue())
                .isEqualTo(END);

        next("lease").then().body("event", equalTo("lease"));
        assertThat(now("lease")).isEqualTo(END);
        assertRoundTrip("lease", END);
    }

    @Test
    void aTimerAtTheEndOfTime_isFoundByNext_andOnePastItIsRefused() {
        json("{\"now\":" + (END - 5) + "}").put("/clocks/last").then().statusCode(201);
        json("{\"id\":\"last\",\"at\":" + END + "}").post("/clocks/last/timers").then().statusCode(201);
        assertProblem(json("{\"id\":\"past\",\"at\":" + (END + 1) + "}").post("/clocks/last/timers"), 400,
                "invalid_delay");
        assertProblem(json("{\"id\":\"max\",\"at\":9223372036854775807}").post("/clocks/last/timers"), 400,
                "invalid_delay");
        assertProblem(json("{\"id\":\"past\",\"delay\":6}").post("/clocks/last/timers"), 400, "invalid_delay");

        next("last").then().body("event", equalTo("timer")).body("fired.id", equalTo(List.of("last")));
        assertThat(now("last")).isEqualTo(END);
        next("last").then().body("event", equalTo(null));
        assertRoundTrip("last", END);
    }

    @Test
    void timesPastTheEndOfTime_areRefused_andChangeNothing() {
        assertProblem(json("{\"now\":" + (END + 1) + "}").put("/clocks/over"), 400, "invalid_request");
        json("{\"now\":" + (END - 10) + "}").put("/clocks/edge").then().statusCode(201);
        assertProblem(json("{\"by\":11}").post("/clocks/edge/advance"), 400, "invalid_advance");
        assertProblem(json("{\"to\":" + (END + 1) + "}").post("/clocks/edge/advance"), 400, "invalid_advance");
        assertThat(now("edge")).isEqualTo(END - 10);
        json("{\"by\":10}").post("/clocks/edge/advance").then().statusCode(200);
        assertThat(now("edge")).isEqualTo(END);
        json("{\"by\":0}").post("/clocks/edge/advance").then().statusCode(200);
        assertRoundTrip("edge", END);
    }

    // ---- 41.2 and 41.13: schedule times

    @Test
    void scheduleStartAndEnd_outsideClockTimes_areInvalidSchedule_notAServerError() {
        json("{}").put("/clocks/bounds").then().statusCode(201);
        for (String body : List.of("{\"cron\":\"0 0 1 1 *\",\"start\":-9223372036854775808}",
                "{\"cron\":\"0 0 1 1 *\",\"start\":9223372036854775807}",
                "{\"cron\":\"0 0 1 1 *\",\"start\":9223372036854774807}",
                "{\"cron\":\"* * * * *\",\"start\":9223372036854000000}",
                "{\"every\":1000,\"start\":-9223372036854775808}",
                "{\"every\":1000,\"start\":-1}",
                "{\"every\":1000,\"end\":9223372036854775807}",
                "{\"cron\":\"0 0 1 1 *\",\"end\":-1}")) {
            Response refused = json(body).put("/clocks/bounds/schedules/s");
            assertProblem(refused, 400, "invalid_schedule");
            assertThat(refused.jsonPath().getString("detail")).as(body).doesNotContain("-9223372036854775808 ")
                    .containsAnyOf("start", "end");
        }
        assertProblem(given().get("/clocks/bounds/schedules/s"), 404, "schedule_not_found");
    }

    @Test
    void aCronScheduleNearTheEndOfTime_listsAndFiresItsLastOccurrences_thenIsDone_andItsClockLoads() {
        long lastNewYear = Instant.parse("+287396-01-01T00:00:00Z").toEpochMilli(); // the last before the end
        json("{\"now\":" + (lastNewYear - 400 * 86_400_000L) + "}").put("/clocks/yearly").then().statusCode(201);
        json("{\"cron\":\"0 0 1 1 *\"}").put("/clocks/yearly/schedules/ny").then().statusCode(201);
        List<Long> upcoming = given().queryParam("count", 1000).get("/clocks/yearly/schedules/ny/next").then()
                .statusCode(200).extract().jsonPath().getList("times", Long.class);
        assertThat(upcoming).hasSize(2).last().isEqualTo(lastNewYear);

        next("yearly");
        next("yearly").then().body("fired.id", equalTo(List.of("ny:" + lastNewYear)));
        given().get("/clocks/yearly/schedules/ny").then().body("state", equalTo("done")).body("fired", equalTo(2));
        json("{\"to\":" + END + "}").post("/clocks/yearly/advance").then().statusCode(200);
        assertRoundTrip("yearly", END);
    }

    // ---- 49.1 and 49.7: the load's bounds are the API's, and its refusals name the numbers sent

    @Test
    void documentsPastTheEndOfTime_orWithCountsThatWouldOverflow_areRefusedNamingTheSentNumbers() {
        String occurrence = "{\"id\":\"s:5000\",\"fireTime\":5000,\"sequence\":1,\"schedule\":\"s\"}";
        String head = "{\"format\":1,\"clock\":{\"now\":1000},\"timers\":[" + occurrence + "],\"schedules\":[";
        String every = "{\"id\":\"s\",\"every\":4000,\"start\":1000,\"next\":5000,\"limit\":2";
        Map<String, String> pointerByDocument = new java.util.LinkedHashMap<>();
        pointerByDocument.put(head + every + ",\"fired\":9223372036854775807,\"skipped\":1}]}", "/schedules/0/fired");
        pointerByDocument.put(head + every + ",\"fired\":1,\"skipped\":9223372036854775807}]}",
                "/schedules/0/skipped");
        pointerByDocument.put(head + "{\"id\":\"s\",\"every\":4000,\"start\":-9223372036854775808,\"next\":5000}]}",
                "/schedules/0/start");
        pointerByDocument.put(head + every + ",\"end\":9223372036854775807}]}", "/schedules/0/end");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"now\":" + (END + 1) + "}}", "/clock/now");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"now\":" + END + "},\"timers\":[{\"id\":\"t\",\"fireTime\":"
                + (END + 1) + ",\"sequence\":1}]}", "/timers/0/fireTime");
        pointerByDocument.put("{\"format\":1,\"clock\":{\"delivery\":\"queue\"},\"deliveries\":[{\"id\":\"d\","
                + "\"fireTime\":0,\"sequence\":1,\"state\":\"waiting\",\"attempt\":2,\"retryAt\":" + (END + 1)
                + "}]}", "/deliveries/0/retryAt");
        for (Map.Entry<String, String> bad : pointerByDocument.entrySet()) {
            Response refused = json(bad.getKey()).put("/clocks/fixture/snapshot");
            assertProblem(refused, 400, "invalid_snapshot");
            assertThat(refused.jsonPath().getString("member")).as(bad.getKey()).isEqualTo(bad.getValue());
            assertThat(refused.jsonPath().getString("detail")).as(bad.getKey())
                    .doesNotContain("-9223372036854775808 ", "used -", "-2 ");
            given().get("/clocks/fixture").then().statusCode(404);
        }
        // the largest a clock holds loads
        json("{\"format\":1,\"clock\":{\"now\":" + END + "},\"timers\":[{\"id\":\"t\",\"fireTime\":" + END
                + ",\"sequence\":1}]}").put("/clocks/fixture/snapshot").then().statusCode(201);
        assertRoundTrip("fixture", END);
    }

    // ----

    private Response next(String clock) {
        Response response = json("{\"next\":true}").post("/clocks/" + clock + "/advance");
        response.then().statusCode(200);
        return response;
    }

    private long now(String clock) {
        return given().get("/clocks/" + clock).jsonPath().getLong("now");
    }

    private Map<?, ?> claimOne(String clock, long lease) {
        List<Map> claimed = json("{\"max\":1,\"lease\":" + lease + "}").post("/clocks/" + clock
                + "/deliveries/claim").then().statusCode(200).extract().jsonPath().getList("deliveries", Map.class);
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    private JsonNode save(String clock) {
        Response saved = given().get("/clocks/" + clock + "/snapshot");
        saved.then().statusCode(200).contentType(ContentType.JSON);
        return JSON.readTree(saved.asString());
    }

    /**
     * The clock's document loads into a new clock that saves the same document (its name aside), and so does a fork;
     * the document's now is {@code now}.
     */
    private void assertRoundTrip(String clock, long now) {
        JsonNode saved = save(clock);
        assertThat(saved.at("/clock/now").asLong()).isEqualTo(now);
        json(saved.toString()).put("/clocks/" + clock + "-loaded/snapshot").then().statusCode(201);
        assertThat(SnapshotRestTest.withoutName(save(clock + "-loaded")))
                .isEqualTo(SnapshotRestTest.withoutName(saved));
        json("{\"copyOf\":\"" + clock + "\"}").put("/clocks/" + clock + "-forked").then().statusCode(201);
        JsonNode forked = save(clock + "-forked");
        json(forked.toString()).put("/clocks/" + clock + "-forked-loaded/snapshot").then().statusCode(201);
    }
}
