package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * A QStash batch whose messages need several clocks ({@code qstash-r<retries>}, one per {@code Upstash-Retries}):
 * a refusal of the second clock leaves nothing of the first behind, neither its messages nor the clock made for
 * them; a second clock with no room (the service's capacity, 3 timers here) leaves none of the batch's messages on
 * the first; and each clock's messages are stored together, deduplicated against each other. The PostgreSQL store's
 * twin is {@link QStashBatchAcrossClocksPostgresTest}.
 */
@TestPropertySource(properties = {"timeservice.capacity=3", "timeservice.push.allow-private-targets=true",
        "timeservice.qstash.current-signing-key=sig_current_test",
        "timeservice.qstash.next-signing-key=sig_next_test"})
class QStashBatchAcrossClocksTest extends RestTestSupport {

    private static final String TARGET = "http://127.0.0.1:9/never";

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    private static String message(String headers) {
        return "{\"destination\":\"" + TARGET + "\",\"headers\":{" + headers + "},\"body\":\"x\"}";
    }

    @Test
    void theSecondClockRefused_leavesNothingOfTheFirst() {
        json("{\"now\":0}").put("/clocks/qstash-r3").then().statusCode(201); // by hand: not a QStash clock's settings

        given().contentType(ContentType.JSON).body("[" + message("\"Upstash-Retries\":\"0\"") + ","
                        + message("\"Upstash-Retries\":\"3\"") + "]").post("/v2/batch")
                .then().statusCode(409).body("error", containsString("qstash-r3"));

        given().get("/clocks/qstash-r0").then().statusCode(404); // before: made, holding the first message
        given().get("/clocks/qstash-r3").then().statusCode(200).body("size", equalTo(0));
    }

    /** Failed before the batch across clocks: the first clock kept both its messages while the batch answered 429. */
    @Test
    void theSecondClockWithoutRoom_answersTheError_andTheFirstClockHoldsNoneOfTheBatch() {
        String r0 = message("\"Upstash-Retries\":\"0\"");
        String r1 = message("\"Upstash-Retries\":\"1\"");

        String error = given().contentType(ContentType.JSON).body("[" + r0 + "," + r1 + "," + r0 + "," + r1 + "]")
                .post("/v2/batch").then().statusCode(429).extract().path("error");

        given().get("/clocks/qstash-r0").then().statusCode(200).body("size", equalTo(0)); // before: 2
        given().get("/clocks/qstash-r1").then().statusCode(200).body("size", equalTo(0));
        assertThat(error).isEqualTo("message 3: the queue holds its capacity of 3 pending timers");
        given().contentType(ContentType.JSON).body("[" + r0 + "," + r1 + "," + r0 + "]").post("/v2/batch")
                .then().statusCode(201).body("", hasSize(3));
        given().get("/clocks/qstash-r0").then().statusCode(200).body("size", equalTo(2));
        given().get("/clocks/qstash-r1").then().statusCode(200).body("size", equalTo(1));
    }

    @Test
    void eachClocksMessages_areStoredTogether_andDeduplicatedAgainstEachOther() {
        String dedupe = "\"Upstash-Deduplication-Id\":\"order-7\"";
        given().contentType(ContentType.JSON).body("[" + message(dedupe + ",\"Upstash-Retries\":\"1\"") + ","
                        + message("\"Upstash-Retries\":\"2\"") + "," + message(dedupe + ",\"Upstash-Retries\":\"1\"")
                        + "]").post("/v2/batch")
                .then().statusCode(201).body("", hasSize(3))
                .body("[0].deduplicated", equalTo(null)).body("[2].deduplicated", equalTo(true))
                .body("[2].messageId", equalTo(given().contentType(ContentType.JSON)
                        .body("[" + message(dedupe + ",\"Upstash-Retries\":\"1\"") + "]").post("/v2/batch")
                        .then().statusCode(201).body("[0].deduplicated", equalTo(true))
                        .extract().path("[0].messageId")));
        given().get("/clocks/qstash-r1").then().statusCode(200).body("size", equalTo(1));
        given().get("/clocks/qstash-r2").then().statusCode(200).body("size", equalTo(1));
    }
}
