package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A schedule's flow-control key over HTTP (issue 44), on the memory store ({@link ScheduleKeyRestPostgresTest}: on
 * the PostgreSQL store).
 */
class ScheduleKeyRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aSchedulesKey_isShown_andCarriedByItsOccurrences_andItsSnapshot() {
        json("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1}}").put("/clocks/f").then().statusCode(201);
        json("{\"every\":1000,\"key\":\"tenant-a\"}").put("/clocks/f/schedules/s").then().statusCode(201)
                .body("key", equalTo("tenant-a"));
        given().get("/clocks/f/timers/s:1000").then().statusCode(200).body("key", equalTo("tenant-a"));
        json("{\"by\":1000}").post("/clocks/f/advance").then().statusCode(200);
        json("{\"max\":10}").post("/clocks/f/deliveries/claim").then().statusCode(200)
                .body("deliveries.key", equalTo(List.of("tenant-a")));
        given().get("/clocks/f/snapshot").then().statusCode(200).body("schedules[0].key", equalTo("tenant-a"));

        assertProblem(json("{\"every\":1000,\"key\":\"a b\"}").put("/clocks/f/schedules/t"), 400,
                "invalid_schedule");
        assertProblem(json("{\"every\":1000,\"key\":null}").put("/clocks/f/schedules/t"), 400,
                "invalid_request");
        json("{\"every\":1000}").put("/clocks/f/schedules/s").then().statusCode(200).body("$", not(hasKey("key")));
    }
}
