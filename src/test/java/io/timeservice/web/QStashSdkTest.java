package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The official {@code @upstash/qstash} SDK, unchanged, against the service (issue 47): its {@code Client} publishes,
 * batches, reads and cancels messages, keeps schedules and works the dead-letter queue through
 * {@link QStashSdkBridge}; the test moves the virtual {@code qstash-r<retries>} clocks with TimeService's own API
 * ({@code POST /clocks/{clock}/advance}) and waits for what arrives at the bridge's loopback receiver, where the SDK's
 * {@code Receiver} verifies each signature with the service's key as its current and as its next key. The service
 * signs with {@code timeservice.qstash.current-signing-key}. Needs Node and {@code src/test/node/node_modules}
 * ({@code ./test} runs {@code npm ci} there when missing). {@code QStashSdkPostgresTest} runs it on PostgreSQL.
 */
@TestPropertySource(properties = {"timeservice.push.allow-private-targets=true",
        "timeservice.qstash.current-signing-key=sig_current_test",
        "timeservice.qstash.next-signing-key=sig_next_test"})
class QStashSdkTest extends RestTestSupport {

    private static final long HOUR = 3_600_000;
    private QStashSdkBridge sdk;

    @BeforeEach
    void startSdk() throws Exception {
        sdk = new QStashSdkBridge(port, "sig_current_test", "sig_next_test");
    }

    @AfterEach
    void stopSdk() throws Exception {
        sdk.close();
        deleteClocksButDefault();
    }

    private void advance(String clock, long by) {
        json("{\"by\":" + by + "}").post("/clocks/" + clock + "/advance").then().statusCode(200);
    }

    private List<JsonNode> awaitArrivals(int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> sdk.arrivals().size() >= count);
        List<JsonNode> arrivals = sdk.arrivals();
        assertThat(arrivals).hasSize(count);
        return arrivals;
    }

    @Test
    void publishJSON_withADelay_arrivesAfterTheAdvance_verifiedWithTheCurrentAndTheNextKey() {
        JsonNode published = sdk.call("publishJSON", Map.of("url", sdk.receiver + "/hook",
                "body", Map.of("hello", "world"), "delay", "10s", "headers", Map.of("X-Tenant", "acme")));
        String id = published.path("messageId").asString();
        assertThat(id).startsWith("msg_");

        advance("qstash-r3", 9_999);
        assertThat(sdk.arrivals()).isEmpty(); // the advance fired nothing, so nothing was pushed
        advance("qstash-r3", 1);

        JsonNode arrived = awaitArrivals(1).get(0);
        assertThat(arrived.path("verifiedCurrent").asBoolean()).as(arrived.toString()).isTrue();
        assertThat(arrived.path("verifiedNext").asBoolean()).as(arrived.toString()).isTrue();
        assertThat(arrived.path("body").asString()).isEqualTo("{\"hello\":\"world\"}");
        assertThat(arrived.path("method").asString()).isEqualTo("POST");
        assertThat(arrived.path("path").asString()).isEqualTo("/hook");
        assertThat(arrived.path("headers").path("x-tenant").asString()).isEqualTo("acme");
        assertThat(arrived.path("headers").path("content-type").asString()).isEqualTo("application/json");
        assertThat(arrived.path("headers").path("upstash-message-id").asString()).isEqualTo(id);
        assertThat(arrived.path("headers").path("upstash-retried").asString()).isEqualTo("0");
    }

    @Test
    void batchJSON_storesEveryMessage_andEachArrivesAtItsTime() {
        JsonNode answers = sdk.call("batchJSON", List.of(
                Map.of("url", sdk.receiver + "/first", "body", Map.of("n", 1), "delay", "1m"),
                Map.of("url", sdk.receiver + "/second", "body", Map.of("n", 2), "delay", "2m", "retries", 0)));
        assertThat(answers.size()).isEqualTo(2);
        assertThat(answers.get(0).path("messageId").asString()).startsWith("msg_");
        assertThat(answers.get(1).path("messageId").asString()).startsWith("msg_")
                .isNotEqualTo(answers.get(0).path("messageId").asString());

        advance("qstash-r3", 60_000);
        assertThat(awaitArrivals(1).get(0).path("path").asString()).isEqualTo("/first");
        advance("qstash-r0", 120_000); // retries 0: the message is on its own clock
        List<JsonNode> arrivals = awaitArrivals(2);
        assertThat(arrivals.get(1).path("path").asString()).isEqualTo("/second");
        assertThat(arrivals.get(1).path("body").asString()).isEqualTo("{\"n\":2}");
        assertThat(arrivals.get(1).path("verifiedCurrent").asBoolean()).isTrue();
    }

    @Test
    void messages_getShowsAPendingMessage_andCancelledOnesNeverArrive() {
        String first = sdk.call("publish", Map.of("url", sdk.receiver + "/cancelled", "body", "one", "delay", "1h",
                "method", "PUT")).path("messageId").asString();
        String second = sdk.call("publish", Map.of("url", sdk.receiver + "/cancelled", "body", "two",
                "delay", "1h")).path("messageId").asString();
        String third = sdk.call("publish", Map.of("url", sdk.receiver + "/kept", "body", "three",
                "delay", "1h")).path("messageId").asString();

        JsonNode message = sdk.call("messages.get", first);
        assertThat(message.path("messageId").asString()).isEqualTo(first);
        assertThat(message.path("url").asString()).isEqualTo(sdk.receiver + "/cancelled");
        assertThat(message.path("method").asString()).isEqualTo("PUT");
        assertThat(message.path("body").asString()).isEqualTo("one");
        assertThat(message.path("maxRetries").asInt()).isEqualTo(3);
        assertThat(message.path("notBefore").asLong()).isGreaterThan(0);

        assertThat(sdk.call("messages.cancel", first).path("cancelled").asInt()).isEqualTo(1);
        assertThat(sdk.failure("messages.get", first).path("status").asInt()).isEqualTo(404);
        assertThat(sdk.failure("messages.cancel", first).path("status").asInt()).isEqualTo(404);
        assertThat(sdk.call("messages.cancel", List.of(second, "msg_unknown")).path("cancelled").asInt())
                .isEqualTo(1);

        advance("qstash-r3", HOUR);
        List<JsonNode> arrivals = awaitArrivals(1);
        assertThat(arrivals.get(0).path("body").asString()).isEqualTo("three"); // fired with the cancelled ones' time
        assertThat(arrivals.get(0).path("headers").path("upstash-message-id").asString()).isEqualTo(third);
    }

    @Test
    void cronSchedule_firesAcrossAVirtualDay_andIsListedPausedResumedAndDeleted() {
        JsonNode created = sdk.call("schedules.create", Map.of("destination", sdk.receiver + "/report",
                "cron", "0 */6 * * *", "body", "{\"report\":\"daily\"}", "scheduleId", "nightly-report",
                "headers", Map.of("X-Team", "ops")));
        assertThat(created.path("scheduleId").asString()).isEqualTo("nightly-report");
        JsonNode schedule = sdk.call("schedules.get", "nightly-report");
        assertThat(schedule.path("cron").asString()).isEqualTo("0 */6 * * *");
        assertThat(schedule.path("destination").asString()).isEqualTo(sdk.receiver + "/report");
        assertThat(schedule.path("isPaused").asBoolean()).isFalse();
        assertThat(schedule.path("retries").asInt()).isEqualTo(3);
        assertThat(sdk.call("schedules.list").size()).isEqualTo(1);

        advance("qstash-r3", 24 * HOUR);
        List<JsonNode> arrivals = awaitArrivals(4); // 00:00, 06:00, 12:00 and 18:00 of the virtual day
        for (JsonNode arrived : arrivals) {
            assertThat(arrived.path("verifiedCurrent").asBoolean()).as(arrived.toString()).isTrue();
            assertThat(arrived.path("body").asString()).isEqualTo("{\"report\":\"daily\"}");
            assertThat(arrived.path("headers").path("x-team").asString()).isEqualTo("ops");
            assertThat(arrived.path("headers").path("upstash-schedule-id").asString()).isEqualTo("nightly-report");
        }
        assertThat(arrivals.stream().map(a -> a.path("headers").path("upstash-message-id").asString()).distinct())
                .hasSize(4);
        // settled before time moves on: an attempt still in flight when the clock jumps a day outlives its lease
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/clocks/qstash-r3").jsonPath()
                .getInt("deliveries.inFlight") == 0);

        sdk.call("schedules.pause", Map.of("schedule", "nightly-report"));
        assertThat(sdk.call("schedules.get", "nightly-report").path("isPaused").asBoolean()).isTrue();
        advance("qstash-r3", 24 * HOUR);
        given().get("/clocks/qstash-r3/schedules/nightly-report").then().statusCode(200)
                .body("skipped", org.hamcrest.Matchers.equalTo(4)).body("fired", org.hamcrest.Matchers.equalTo(4));
        sdk.call("schedules.resume", Map.of("schedule", "nightly-report"));
        assertThat(sdk.call("schedules.get", "nightly-report").path("isPaused").asBoolean()).isFalse();

        sdk.call("schedules.delete", "nightly-report");
        assertThat(sdk.failure("schedules.get", "nightly-report").path("status").asInt()).isEqualTo(404);
        assertThat(sdk.call("schedules.list").size()).isZero();
        assertThat(sdk.arrivals()).hasSize(4);
    }

    @Test
    void dlq_afterATargetAnswering500ExhaustsTheRetries_listsRetriesAndDeletes() {
        sdk.call("receiver.answer", 500);
        String firstId = null;
        for (String body : List.of("a", "b", "c")) {
            String id = sdk.call("publish", Map.of("url", sdk.receiver + "/failing", "body", body, "retries", 1))
                    .path("messageId").asString();
            firstId = firstId == null ? id : firstId;
        }
        advance("qstash-r1", 1);
        awaitArrivals(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/clocks/qstash-r1").jsonPath()
                .getInt("deliveries.waiting") == 3);
        JsonNode waiting = sdk.call("messages.get", firstId); // in its retries: shown, no longer cancellable
        assertThat(waiting.path("attempt").asInt()).isEqualTo(2);
        assertThat(waiting.path("retryAt").asLong()).isGreaterThan(waiting.path("notBefore").asLong());
        assertThat(sdk.failure("messages.cancel", firstId).path("status").asInt()).isEqualTo(404);
        advance("qstash-r1", HOUR); // past the backoff: the second and last attempt of each
        List<JsonNode> attempts = awaitArrivals(6);
        assertThat(attempts.subList(3, 6)).allMatch(a -> a.path("headers").path("upstash-retried").asString()
                .equals("1"));
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/clocks/qstash-r1").jsonPath()
                .getInt("deliveries.dead") == 3);

        JsonNode page = sdk.call("dlq.listMessages", Map.of("count", 2));
        assertThat(page.path("messages").size()).isEqualTo(2);
        assertThat(page.path("cursor").asString()).isNotEmpty();
        JsonNode rest = sdk.call("dlq.listMessages", Map.of("cursor", page.path("cursor").asString()));
        assertThat(rest.path("messages").size()).isEqualTo(1);
        assertThat(rest.has("cursor")).isFalse();
        JsonNode first = page.path("messages").get(0);
        assertThat(first.path("body").asString()).isEqualTo("a");
        assertThat(first.path("url").asString()).isEqualTo(sdk.receiver + "/failing");
        assertThat(first.path("maxRetries").asInt()).isEqualTo(1);
        assertThat(first.path("dlqId").asString()).startsWith("dlq_1_");
        given().get("/v2/dlq/" + first.path("dlqId").asString()).then().statusCode(200)
                .body("messageId", org.hamcrest.Matchers.equalTo(first.path("messageId").asString()))
                .body("deadReason", org.hamcrest.Matchers.notNullValue());

        sdk.call("receiver.answer", 200);
        JsonNode retried = sdk.call("dlq.retry", first.path("dlqId").asString());
        assertThat(retried.path("responses").get(0).path("messageId").asString())
                .isEqualTo(first.path("messageId").asString());
        JsonNode redriven = awaitArrivals(7).get(6);
        assertThat(redriven.path("body").asString()).isEqualTo("a");
        assertThat(redriven.path("headers").path("upstash-retried").asString()).isEqualTo("0");

        sdk.call("dlq.delete", page.path("messages").get(1).path("dlqId").asString());
        assertThat(sdk.call("dlq.delete", List.of(rest.path("messages").get(0).path("dlqId").asString()))
                .path("deleted").asInt()).isEqualTo(1);
        assertThat(sdk.call("dlq.listMessages").path("messages").size()).isZero();
        assertThat(sdk.failure("dlq.delete", first.path("dlqId").asString()).path("status").asInt()).isEqualTo(404);
    }
}
