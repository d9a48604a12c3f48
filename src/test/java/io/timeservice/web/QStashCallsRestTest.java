package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The QStash calls beside publish (issue 47) over plain HTTP, checked against openapi.yaml: batch, messages,
 * schedules, the DLQ and the keys refuse bad input with QStash's {@code {"error"}} and change nothing; a schedule maps
 * onto a TimeService schedule of its retry count's clock. The SDK's own use is {@link QStashSdkTest}. Schedules are
 * created through the JDK's client, since the destination URL is the rest of the path.
 */
@TestPropertySource(properties = {"timeservice.push.allow-private-targets=true",
        "timeservice.qstash.current-signing-key=sig_current_test",
        "timeservice.qstash.next-signing-key=sig_next_test"})
class QStashCallsRestTest extends RestTestSupport {

    private static final String TARGET = "http://127.0.0.1:9/never";
    private static final JsonMapper JSON = JsonMapper.shared();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    private HttpResponse<String> createSchedule(String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v2/schedules/"
                + TARGET)).POST(HttpRequest.BodyPublishers.ofString("{}"));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String batchOf(String... headers) {
        StringBuilder batch = new StringBuilder("[");
        for (String header : headers) {
            batch.append(batch.length() > 1 ? "," : "").append("{\"destination\":\"").append(TARGET)
                    .append("\",\"headers\":{").append(header).append("},\"body\":\"x\"}");
        }
        return batch.append("]").toString();
    }

    @Test
    void batch_storesEachMessage_orNoneWhenOneIsRefused() {
        given().contentType(ContentType.JSON).body(batchOf("\"Upstash-Delay\":\"1m\"",
                        "\"Upstash-Delay\":\"soon\"")).post("/v2/batch")
                .then().statusCode(400).body("error", startsWith("message 1: Upstash-Delay"));
        for (String bad : new String[] {"not json", "[]", "{}", "[1]",
                "[{\"destination\":\"" + TARGET + "\",\"queue\":\"q\"}]",
                "[{\"destination\":\"" + TARGET + "\",\"headers\":{\"Upstash-Retries\":3}}]",
                "[{\"destination\":\"ftp://127.0.0.1/x\"}]"}) {
            given().contentType(ContentType.JSON).body(bad).post("/v2/batch").then().statusCode(400)
                    .body("error", org.hamcrest.Matchers.notNullValue());
        }
        given().get("/clocks/qstash-r3").then().statusCode(404); // nothing stored, not even the clock made

        given().contentType(ContentType.JSON).body(batchOf("\"Upstash-Delay\":\"1m\"", "\"Upstash-Retries\":\"0\""))
                .post("/v2/batch").then().statusCode(201).body("", hasSize(2))
                .body("[0].messageId", startsWith("msg_")).body("[1].url", equalTo(TARGET));
        given().get("/clocks/qstash-r3").then().statusCode(200).body("size", equalTo(1));
        given().get("/clocks/qstash-r0").then().statusCode(200).body("size", equalTo(1));
    }

    @Test
    void messages_unknownOrUnsupported_areRefused_andAScheduleOwnsItsOccurrence() throws Exception {
        given().get("/v2/messages/msg_unknown").then().statusCode(404).body("error", containsString("msg_unknown"));
        given().delete("/v2/messages/msg_unknown").then().statusCode(404);
        given().queryParam("url", TARGET).delete("/v2/messages").then().statusCode(400)
                .body("error", containsString("url"));

        assertThat(createSchedule("Upstash-Cron", "0 9 * * *", "Upstash-Schedule-Id", "morning").statusCode())
                .isEqualTo(201);
        long next = given().get("/clocks/qstash-r3/schedules/morning").jsonPath().getLong("next");
        String occurrence = "morning:" + next;
        given().get("/v2/messages/" + occurrence).then().statusCode(200).body("scheduleId", equalTo("morning"))
                .body("notBefore", equalTo(next)).body("url", equalTo(TARGET));
        given().delete("/v2/messages/" + occurrence).then().statusCode(409).body("error", notEmpty());
        given().delete("/v2/messages").then().statusCode(200).body("cancelled", equalTo(0)); // all: not its occurrences
        given().get("/v2/messages/" + occurrence).then().statusCode(200);
    }

    @Test
    void schedules_badHeadersAreRefused_andAnIdMovesWithItsRetryCount() throws Exception {
        for (String[] headers : new String[][] {{"X-No-Cron", "1"}, {"Upstash-Cron", "61 * * * *"},
                {"Upstash-Cron", "CRON_TZ=Mars/Olympus 0 9 * * *"}, {"Upstash-Cron", "0 9 * * *", "Upstash-Delay", "1m"},
                {"Upstash-Cron", "0 9 * * *", "Upstash-Schedule-Id", "no spaces"},
                {"Upstash-Cron", "0 9 * * *", "Upstash-Callback", TARGET}}) {
            HttpResponse<String> refused = createSchedule(headers);
            assertThat(refused.statusCode()).as(String.join(" ", headers) + " " + refused.body()).isEqualTo(400);
            assertThat(JSON.readTree(refused.body()).path("error").asString()).isNotEmpty();
        }
        given().get("/v2/schedules").then().statusCode(200).body("", hasSize(0));

        assertThat(createSchedule("Upstash-Cron", "CRON_TZ=Europe/Berlin 0 9 * * MON", "Upstash-Schedule-Id",
                "weekly", "Upstash-Retries", "5", "Upstash-Method", "PUT").statusCode()).isEqualTo(201);
        given().get("/v2/schedules/weekly").then().statusCode(200)
                .body("cron", equalTo("CRON_TZ=Europe/Berlin 0 9 * * MON")).body("retries", equalTo(5))
                .body("method", equalTo("PUT")).body("body", equalTo("{}")).body("isPaused", equalTo(false));
        given().get("/clocks/qstash-r5/schedules/weekly").then().statusCode(200)
                .body("zone", equalTo("Europe/Berlin"));

        assertThat(createSchedule("Upstash-Cron", "0 9 * * *", "Upstash-Schedule-Id", "weekly",
                "Upstash-Retries", "2").statusCode()).isEqualTo(201);
        given().get("/v2/schedules").then().statusCode(200).body("", hasSize(1)).body("[0].retries", equalTo(2));
        given().get("/clocks/qstash-r5/schedules").then().statusCode(200).body("schedules", hasSize(0));
        given().patch("/v2/schedules/unknown/pause").then().statusCode(404);
        given().delete("/v2/schedules/unknown").then().statusCode(404);

        HttpResponse<String> publishWithCron = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + port + "/v2/publish/" + TARGET)).header("Upstash-Cron", "0 9 * * *")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(publishWithCron.statusCode()).as(publishWithCron.body()).isEqualTo(400);
    }

    @Test
    void dlq_badParametersAreRefused_andUnknownIdsAreNotFound() {
        given().get("/v2/dlq").then().statusCode(200).body("messages", hasSize(0));
        given().queryParam("count", 0).get("/v2/dlq").then().statusCode(400).body("error", containsString("count"));
        given().queryParam("cursor", "x").get("/v2/dlq").then().statusCode(400).body("error", containsString("cursor"));
        given().queryParam("label", "a").get("/v2/dlq").then().statusCode(400).body("error", containsString("label"));
        given().delete("/v2/dlq/dlq_3_99").then().statusCode(404).body("error", containsString("dlq_3_99"));
        given().delete("/v2/dlq/garbage").then().statusCode(404);
        given().get("/v2/dlq/dlq_0_1").then().statusCode(404).body("error", containsString("dlq_0_1"));
        given().queryParam("dlqIds", "dlq_3_1", "garbage_too").post("/v2/dlq/retry").then().statusCode(200)
                .body("responses", hasSize(0));
        given().queryParam("dlqIds", "dlq_3_1").delete("/v2/dlq").then().statusCode(200).body("deleted", equalTo(0));
    }

    @Test
    void keys_showTheCurrentKeyThatSigns_andTheNextOne() {
        given().get("/v2/keys").then().statusCode(200).body("current", equalTo("sig_current_test"))
                .body("next", equalTo("sig_next_test"));
    }

    private static org.hamcrest.Matcher<String> notEmpty() {
        return org.hamcrest.Matchers.not(org.hamcrest.Matchers.emptyString());
    }
}
