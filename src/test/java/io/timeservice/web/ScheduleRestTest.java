package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Instant;
import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The schedule API over HTTP, every call and its refusals, each answer checked against openapi.yaml; and a virtual
 * clock advanced across Berlin's spring-forward night, seeing exactly what fires.
 */
class ScheduleRestTest extends RestTestSupport {

    private static final long START = Instant.parse("2027-03-27T22:00:00Z").toEpochMilli();

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    private void berlinClock() {
        json("{\"now\":" + START + "}").put("/clocks/berlin").then().statusCode(201);
    }

    @Test
    void advanceAcrossSpringForward_firesEachOccurrenceOnce_atTheMovedTimes() {
        berlinClock();
        json("{\"cron\":\"*/30 * * * *\",\"zone\":\"Europe/Berlin\",\"payload\":{\"job\":\"half\"}}")
                .put("/clocks/berlin/schedules/half").then().statusCode(201)
                .header("Location", "/clocks/berlin/schedules/half").header("ETag", "\"1\"")
                .body("state", equalTo("active")).body("next", equalTo(at("2027-03-27T22:30:00Z")))
                .body("zone", equalTo("Europe/Berlin")).body("catchUp", equalTo("all"));
        json("{\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Berlin\"}").put("/clocks/berlin/schedules/nightly")
                .then().statusCode(201).body("next", equalTo(at("2027-03-28T01:30:00Z")));

        Response advanced = json("{\"to\":" + at("2027-03-28T02:00:00Z") + "}").post("/clocks/berlin/advance");

        advanced.then().statusCode(200);
        // half-hourly: 23:30 and 00:00 ... 03:00 local; 02:00 and 02:30 are moved onto 03:00 and 03:30 and fire once
        assertThat(advanced.jsonPath().getList("fired.id", String.class)).containsExactly(
                "half:" + at("2027-03-27T22:30:00Z"), "half:" + at("2027-03-27T23:00:00Z"),
                "half:" + at("2027-03-27T23:30:00Z"), "half:" + at("2027-03-28T00:00:00Z"),
                "half:" + at("2027-03-28T00:30:00Z"), "half:" + at("2027-03-28T01:00:00Z"),
                "nightly:" + at("2027-03-28T01:30:00Z"), "half:" + at("2027-03-28T01:30:00Z"),
                "half:" + at("2027-03-28T02:00:00Z"));
        advanced.then().body("fired[0].schedule", equalTo("half")).body("fired[0].payload.job", equalTo("half"))
                .body("fired[0].fireTime", equalTo(at("2027-03-27T22:30:00Z")));
        given().get("/clocks/berlin/schedules/half").then().body("fired", equalTo(8))
                .body("next", equalTo(at("2027-03-28T02:30:00Z")));
        given().get("/clocks/berlin/timers/half:" + at("2027-03-28T02:30:00Z")).then().statusCode(200)
                .body("schedule", equalTo("half"));
    }

    @Test
    void next_listsTheTimesAsTheScheduleWillFireThem_endAndLimitApplied() {
        berlinClock();
        json("{\"every\":60000,\"limit\":3}").put("/clocks/berlin/schedules/tick").then().statusCode(201)
                .body("start", equalTo(START + 60_000));
        given().get("/clocks/berlin/schedules/tick/next").then().statusCode(200)
                .body("times", equalTo(List.of(START + 60_000, START + 120_000, START + 180_000)));
        given().queryParam("count", 2).get("/clocks/berlin/schedules/tick/next").then()
                .body("times", equalTo(List.of(START + 60_000, START + 120_000)));
        assertProblem(given().queryParam("count", 0).get("/clocks/berlin/schedules/tick/next"), 400,
                "invalid_limit");
        assertProblem(given().queryParam("count", 1001).get("/clocks/berlin/schedules/tick/next"), 400,
                "invalid_limit");
        json("{\"by\":600000}").post("/clocks/berlin/advance").then().statusCode(200);
        given().get("/clocks/berlin/schedules/tick").then().body("state", equalTo("done"))
                .body("next", nullValue()).body("fired", equalTo(3));
        given().get("/clocks/berlin/schedules/tick/next").then().body("times", equalTo(List.of()));
    }

    @Test
    void replace_keepsCounts_honoursIfMatch_andNeverFiresAnOccurrenceAgain() {
        json("{\"every\":1000}").put("/schedules/s").then().statusCode(201).header("Location", "/schedules/s");
        assertThat(firedIds(advance(1000))).containsExactly("s:1000");

        assertProblem(json("{\"every\":1000}").header("If-Match", "\"7\"").put("/schedules/s"), 412,
                "precondition_failed");
        json("{\"every\":1000,\"priority\":3}").header("If-Match", "\"1\"").put("/schedules/s").then()
                .statusCode(200).header("ETag", "\"2\"").body("version", equalTo(2)).body("fired", equalTo(1))
                .body("next", equalTo(2000)).body("priority", equalTo(3));
        assertProblem(json("{\"every\":1000}").header("If-Match", "\"1\"").put("/schedules/other"), 412,
                "precondition_failed");
        given().get("/schedules").then().statusCode(200).body("schedules.id", equalTo(List.of("s")));
    }

    @Test
    void pauseSkipsAndCounts_resumeContinuesAfterNow_triggerFiresOneExtra() {
        json("{\"every\":1000}").put("/schedules/s").then().statusCode(201);
        given().post("/schedules/s/pause").then().statusCode(200).body("state", equalTo("paused"))
                .body("version", equalTo(2)).header("ETag", "\"2\"");
        assertThat(firedIds(advance(3500))).isEmpty();
        given().header("If-Match", "\"2\"").post("/schedules/s/resume").then().statusCode(200)
                .body("state", equalTo("active")).body("skipped", equalTo(3)).body("next", equalTo(4000));

        given().post("/schedules/s/trigger").then().statusCode(201).header("Location", "/timers/s:3500")
                .body("id", equalTo("s:3500")).body("fireTime", equalTo(3500)).body("schedule", equalTo("s"));
        assertThat(firedIds(advance(500))).containsExactly("s:3500", "s:4000");
        given().get("/schedules/s").then().body("fired", equalTo(2)).body("triggered", equalTo(1));
    }

    @Test
    void theTimerApi_readsAnOccurrence_butMayNotChangeIt() {
        json("{\"every\":1000}").put("/schedules/s").then().statusCode(201);
        given().get("/timers/s:1000").then().statusCode(200).body("schedule", equalTo("s"));
        assertProblem(json("{\"delay\":5}").patch("/timers/s:1000"), 409, "schedule_owned");
        assertProblem(given().delete("/timers/s:1000"), 409, "schedule_owned");
        assertProblem(json("{\"ops\":[{\"op\":\"cancel\",\"id\":\"s:1000\"}]}").post("/batch"), 409,
                "schedule_owned");
        assertProblem(json("{\"id\":\"s:1000\",\"delay\":1}").post("/timers"), 409, "schedule_owned");
        given().delete("/schedules/s").then().statusCode(204);
        given().get("/timers/s:1000").then().statusCode(404);
        assertProblem(given().get("/schedules/s"), 404, "schedule_not_found");
        assertProblem(given().delete("/schedules/s"), 404, "schedule_not_found");
    }

    @Test
    void aFork_copiesSchedulesWithTheirCountsAndPendingOccurrence_andTheyRunApart() {
        berlinClock();
        json("{\"every\":60000}").put("/clocks/berlin/schedules/tick").then().statusCode(201);
        json("{\"by\":60000}").post("/clocks/berlin/advance").then().statusCode(200);

        json("{\"copyOf\":\"berlin\"}").put("/clocks/variant").then().statusCode(201);

        given().get("/clocks/variant/schedules/tick").then().statusCode(200).body("fired", equalTo(1))
                .body("next", equalTo(START + 120_000));
        given().get("/clocks/variant/timers/tick:" + (START + 120_000)).then().statusCode(200)
                .body("schedule", equalTo("tick"));
        given().post("/clocks/berlin/schedules/tick/pause").then().statusCode(200);
        Response advanced = json("{\"by\":60000}").post("/clocks/variant/advance");
        assertThat(advanced.jsonPath().getList("fired.id", String.class)).containsExactly("tick:" + (START + 120_000));
        given().get("/clocks/variant/schedules/tick").then().body("fired", equalTo(2)).body("state", equalTo("active"));
    }

    @Test
    void badSchedules_areInvalidSchedule_andChangeNothing() {
        String[] bad = {"{}", "{\"cron\":\"* * * * *\",\"every\":1000}", "{\"every\":999}",
            "{\"every\":1000,\"zone\":\"UTC\"}", "{\"cron\":\"* * * *\"}", "{\"cron\":\"0 0 30 2 *\"}",
            "{\"cron\":\"* * * * *\",\"zone\":\"Mars/Olympus\"}", "{\"cron\":\"0 0 L * *\"}",
            "{\"every\":1000,\"start\":5000,\"end\":4000}", "{\"every\":1000,\"limit\":0}",
            "{\"every\":\"1000\"}", "{\"cron\":5}", "{\"every\":1000,\"catchUp\":\"some\"}",
            "{\"every\":1000,\"paused\":\"yes\"}", "{\"every\":null}"};
        for (String body : bad) {
            assertProblem(json(body).put("/schedules/s"), 400, "invalid_schedule");
        }
        assertProblem(json("{\"every\":1000,\"unknown\":1}").put("/schedules/s"), 400, "invalid_request");
        assertProblem(json("{\"every\":1000}").put("/schedules/" + "x".repeat(101)), 400, "invalid_id");
        assertProblem(json("{\"every\":1000}").put("/clocks/nowhere/schedules/s"), 404, "clock_not_found");
        given().get("/schedules").then().body("schedules", equalTo(List.of()));
    }

    @Test
    void zones_areIanaNames_andNoOffsets() {
        for (String zone : new String[] {"GMT+5", "+05:00", "Z", "SystemV/AST4", "UTC+01:00", "UT"}) {
            Response refused = json("{\"cron\":\"0 0 * * *\",\"zone\":\"" + zone + "\"}").put("/schedules/z");
            assertProblem(refused, 400, "invalid_schedule");
            org.assertj.core.api.Assertions.assertThat(refused.jsonPath().getString("detail")).as(zone)
                    .contains("must be an IANA time zone name");
        }
        for (String zone : new String[] {"EST", "MST", "HST", "ROC", "Etc/GMT+5", "US/Eastern", "UTC"}) {
            json("{\"cron\":\"0 0 * * *\",\"zone\":\"" + zone + "\"}").put("/schedules/z").then()
                    .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).body("zone", equalTo(zone));
        }
        // EST is IANA's link to America/Panama: midnight there is 05:00Z
        json("{\"now\":0}").put("/clocks/est").then().statusCode(201);
        json("{\"cron\":\"0 0 * * *\",\"zone\":\"EST\"}").put("/clocks/est/schedules/z").then().statusCode(201)
                .body("next", equalTo(5 * 3_600_000));
        Response newer = json("{\"cron\":\"0 0 * * *\",\"zone\":\"America/Not_Yet\"}").put("/schedules/z");
        assertProblem(newer, 400, "invalid_schedule");
        org.assertj.core.api.Assertions.assertThat(newer.jsonPath().getString("detail"))
                .contains("is not in this service's time-zone data (the JDK's, IANA tzdata 20");
    }

    @Test
    void aCronWithControlCharacters_isRefused_andNotEchoed() {
        for (String cron : new String[] {"0 0 * * *\\u0000", "0\\u0000 0 * * *", "0 0 * * *\\u001b[31m",
            "0\\t0 * * *", "0 0 * * *\\n", "0 0 * * \\u00e9"}) {
            Response refused = json("{\"cron\":\"" + cron + "\"}").put("/schedules/c");
            assertProblem(refused, 400, "invalid_schedule");
            org.assertj.core.api.Assertions.assertThat(refused.asString()).as(cron)
                    .doesNotContain("\u0000", "\\u0000", "\u001b", "\\u001b", "\\t", "\\n", "\u00e9", "\\u00e9")
                    .contains("cron holds U+");
        }
        given().get("/schedules").then().body("schedules", equalTo(List.of()));
    }

    @Test
    void nextWithACountOutOfRange_isInvalidLimit() {
        json("{\"every\":1000}").put("/schedules/n").then().statusCode(201);
        for (String count : new String[] {"-1", "0", "1001", "x", "99999999999"}) {
            assertProblem(given().get("/schedules/n/next?count=" + count), 400, "invalid_limit");
        }
        given().get("/schedules/n/next?count=2").then().statusCode(200).body("times.size()", equalTo(2));
    }

    private static org.assertj.core.api.ListAssert<String> assertThat(List<String> list) {
        return org.assertj.core.api.Assertions.assertThat(list);
    }
}
