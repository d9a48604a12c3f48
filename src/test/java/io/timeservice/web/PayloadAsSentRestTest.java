package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A payload is the client's bytes (issue 49 item 7): its JSON comes back as sent, only the whitespace outside its
 * strings removed, through an add, a batch, a schedule's occurrences, a delivery, a fork and a snapshot save and
 * load; numbers as written ({@code -0.0} stayed {@code 0.0}, {@code 1e2} became {@code 1E+2}) and strings with
 * their escapes.
 */
class PayloadAsSentRestTest extends RestTestSupport {

    /** As a client sends it, with whitespace around its members. */
    private static final String SENT = "{ \"a\" : -0.0, \"b\":1e2,\"c\":[1.50, 0.1e1, -0, 1E-7],"
            + " \"s\":\"\\u00e9 \\/ \\\" x \", \"t\":true, \"n\":null, \"deep\":{\"payload\":-0.0}}";
    /** As the service keeps and answers it. */
    private static final String KEPT = "{\"a\":-0.0,\"b\":1e2,\"c\":[1.50,0.1e1,-0,1E-7],"
            + "\"s\":\"\\u00e9 \\/ \\\" x \",\"t\":true,\"n\":null,\"deep\":{\"payload\":-0.0}}";

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    @Test
    void anAddedTimersPayload_comesBackAsSent_inTheAnswerTheListingAndWhenItFires() {
        assertKept(json("{\"id\":\"t\",\"delay\":5,\"payload\":" + SENT + "}").post("/timers"), 201);
        assertKept(given().get("/timers/t"), 200);
        assertKept(given().get("/timers"), 200);
        assertKept(json("{\"by\":5}").post("/clock/advance"), 200);
        for (String scalar : List.of("-0.0", "1e2", "1E+2", "\"\\u0041\"", "12345678901234567890.000")) {
            Response added = json("{\"id\":\"s\",\"delay\":1,\"payload\":" + scalar + " }").post("/timers");
            added.then().statusCode(201);
            assertThat(added.asString()).endsWith("\"payload\":" + scalar + "}");
            given().delete("/timers/s").then().statusCode(204);
        }
    }

    @Test
    void aBatchAddsPayload_andAScheduleOccurrencesPayload_comeBackAsSent() {
        json("{\"ops\":[{\"op\":\"add\",\"id\":\"b\",\"delay\":5,\"payload\":" + SENT + "},"
                + "{\"op\":\"add\",\"id\":\"c\",\"delay\":5,\"payload\":-0.0}]}").post("/batch").then().statusCode(200);
        assertKept(given().get("/timers/b"), 200);
        assertThat(given().get("/timers/c").asString()).contains("\"payload\":-0.0");

        json("{}").put("/clocks/sched").then().statusCode(201);
        assertKept(json("{\"every\":1000,\"payload\":" + SENT + "}").put("/clocks/sched/schedules/s"), 201);
        assertKept(json("{\"by\":1000}").post("/clocks/sched/advance"), 200);
        assertKept(given().get("/clocks/sched/schedules/s"), 200);
    }

    @Test
    void aPayload_staysAsSent_throughADelivery_aFork_andASnapshotSaveAndLoad() {
        json("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201);
        json("{\"id\":\"d\",\"delay\":0,\"payload\":" + SENT + "}").post("/clocks/q/timers").then().statusCode(201);
        json("{\"id\":\"p\",\"delay\":9,\"payload\":" + SENT + "}").post("/clocks/q/timers").then().statusCode(201);
        json("{\"every\":1000,\"payload\":" + SENT + "}").put("/clocks/q/schedules/s").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/q/advance").then().statusCode(200);

        json("{\"copyOf\":\"q\"}").put("/clocks/forked").then().statusCode(201);
        String saved = given().get("/clocks/q/snapshot").asString();
        assertThat(occurrences(saved)).isEqualTo(4); // the timer, the occurrence, the schedule, the delivery
        json(saved).put("/clocks/loaded/snapshot").then().statusCode(201);
        // a document as a client writes one, whitespace and all
        json(saved.replace(KEPT, SENT)).put("/clocks/written/snapshot").then().statusCode(201);
        for (String clock : List.of("q", "forked", "loaded", "written")) {
            assertThat(occurrences(given().get("/clocks/" + clock + "/snapshot").asString())).as(clock).isEqualTo(4);
            assertKept(given().get("/clocks/" + clock + "/timers/p"), 200);
            assertKept(json("{\"max\":1,\"lease\":1000}").post("/clocks/" + clock + "/deliveries/claim"), 200);
        }
    }

    private static void assertKept(Response response, int status) {
        response.then().statusCode(status);
        assertThat(response.asString()).contains("\"payload\":" + KEPT);
    }

    private static int occurrences(String text) {
        return text.split(java.util.regex.Pattern.quote("\"payload\":" + KEPT), -1).length - 1;
    }
}
