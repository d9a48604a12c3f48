package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.restassured.response.Response;
import io.timeservice.push.Receiver;
import io.timeservice.push.StandardWebhooks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * Push clocks over HTTP, every answer checked against openapi.yaml, pushing to a real receiver on 127.0.0.1 (allowed
 * by {@code timeservice.push.allow-private-targets}): the clock's settings with write-only secrets, a system clock's
 * signed push acknowledged by a 2xx, and on a virtual clock retries at the clock's time, a 410's dead letter and its
 * redrive.
 */
@TestPropertySource(properties = "timeservice.push.allow-private-targets=true")
class PushRestTest extends RestTestSupport {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    private Receiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new Receiver();
    }

    @AfterEach
    void stopReceiver() {
        deleteClocksButDefault();
        receiver.close();
    }

    /** The memory store without a journal, as these tests run it: webhook-ids carry the start's tag (item 11). */
    boolean forgetsSequencesAtRestart() {
        return true;
    }

    private String pushClock(String mode, String extra) {
        return "{\"mode\":\"" + mode + "\",\"delivery\":\"push\",\"retry\":{\"maxAttempts\":2,\"initialBackoff\":1000,"
                + "\"jitter\":0},\"push\":{\"url\":\"" + receiver.url("/hooks") + "\",\"timeout\":2000,"
                + "\"concurrency\":4,\"headers\":{\"X-Tenant\":\"acme\"},\"secrets\":[\"" + SECRET + "\"]" + extra
                + "}}";
    }

    @Test
    void put_showsThePushTargetWithoutItsSecrets_sameSettings200_otherSecrets409() {
        json(pushClock("virtual", "")).put("/clocks/hooks").then().statusCode(201)
                .body("delivery", equalTo("push"))
                .body("push.url", equalTo(receiver.url("/hooks")))
                .body("push.timeout", equalTo(2000)).body("push.concurrency", equalTo(4))
                .body("push.headers", equalTo(Map.of("X-Tenant", "acme")))
                .body("push.secretsCount", equalTo(1))
                .body("push", not(hasKey("secrets")))
                .body("deliveries.ready", equalTo(0));
        json(pushClock("virtual", "")).put("/clocks/hooks").then().statusCode(200);
        assertProblem(json(pushClock("virtual", "").replace(SECRET, "whsec_AAAA")).put("/clocks/hooks"), 409,
                "clock_conflict");
        String body = given().get("/clocks/hooks").asString();
        assertThat(body).doesNotContain(SECRET.substring(6));
        json("{\"delivery\":\"push\",\"push\":{\"url\":\"" + receiver.url("/") + "\"}}").put("/clocks/defaults")
                .then().statusCode(201).body("push.timeout", equalTo(10000)).body("push.concurrency", equalTo(16))
                .body("push.headers", equalTo(Map.of())).body("push.secretsCount", equalTo(0));
    }

    @Test
    void aSystemPushClock_postsWhatFiresSigned_andA2xxAcknowledgesIt() throws Exception {
        json(pushClock("system", "")).put("/clocks/jobs").then().statusCode(201);
        Response added = json("{\"id\":\"send-digest\",\"delay\":0,\"payload\":{\"user\":7}}")
                .post("/clocks/jobs/timers");
        added.then().statusCode(201);
        long sequence = added.jsonPath().getLong("sequence");

        Receiver.Request push = receiver.next();
        if (forgetsSequencesAtRestart()) {
            assertThat(push.header("webhook-id")).as("tagged with this start").matches("jobs:" + sequence
                    + ":[0-9a-z]{1,13}");
        } else {
            assertThat(push.header("webhook-id")).isEqualTo("jobs:" + sequence);
        }
        assertThat(push.header("X-Tenant")).isEqualTo("acme");
        assertThat(push.body()).startsWith("{\"clock\":\"jobs\",\"id\":\"send-digest\",")
                .endsWith("\"attempt\":1,\"payload\":{\"user\":7}}");
        assertThat(StandardWebhooks.verify(SECRET, push.header("webhook-id"), push.header("webhook-timestamp"),
                push.body(), push.header("webhook-signature"))).isTrue();
        awaitDeliveries("jobs", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");
    }

    @Test
    void aScaledPushClock_pushesWhatFires_andRetriesInItsOwnTime() throws Exception {
        // 100,000 times the wall clock: the timer's clock minute and the clock second of backoff pass in under 1 ms
        json(pushClock("scaled", "").replace("\"mode\":\"scaled\"", "\"mode\":\"scaled\",\"rate\":100000"))
                .put("/clocks/fast").then().statusCode(201).body("mode", equalTo("scaled"))
                .body("delivery", equalTo("push"));
        receiver.answer(request -> Receiver.Answer.status(request.body().contains("\"attempt\":1") ? 500 : 204));
        json("{\"id\":\"in-a-minute\",\"delay\":60000}").post("/clocks/fast/timers").then().statusCode(201);

        Receiver.Request first = receiver.next();
        assertThat(first.header("webhook-id")).startsWith("fast:");
        assertThat(first.body()).startsWith("{\"clock\":\"fast\",\"id\":\"in-a-minute\",")
                .contains("\"attempt\":1");
        Receiver.Request retried = receiver.next();
        assertThat(retried.header("webhook-id")).isEqualTo(first.header("webhook-id"));
        assertThat(retried.body()).contains("\"attempt\":2");
        awaitDeliveries("fast", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");
    }

    @Test
    void aVirtualPushClock_pushesEveryOccurrenceAnAdvancePassesThrough() throws Exception {
        json(pushClock("virtual", "")).put("/clocks/ticks").then().statusCode(201);
        json("{\"every\":1000}").put("/clocks/ticks/schedules/tick").then().statusCode(201);
        json("{\"by\":3000}").post("/clocks/ticks/advance").then().statusCode(200);

        java.util.Set<String> pushed = new java.util.TreeSet<>();
        for (int i = 0; i < 3; i++) {
            String body = receiver.next().body();
            pushed.add(body.substring(body.indexOf("\"id\":\"") + 6, body.indexOf("\",\"fireTime\"")));
        }
        assertThat(pushed).containsExactly("tick:1000", "tick:2000", "tick:3000");
        awaitDeliveries("ticks", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");
    }

    @Test
    void aVirtualPushClock_retriesAtItsOwnTime_deadLettersA410_andARedrivePushesAgain() throws Exception {
        json(pushClock("virtual", "")).put("/clocks/ci").then().statusCode(201);
        receiver.answer(request -> Receiver.Answer.status(request.body().contains("\"attempt\":1") ? 503 : 410));
        json("{\"id\":\"t\",\"delay\":500}").post("/clocks/ci/timers").then().statusCode(201);
        json("{\"by\":500}").post("/clocks/ci/advance").then().statusCode(200).body("fired[0].id", equalTo("t"));

        assertThat(receiver.next().body()).contains("\"attempt\":1");
        awaitDeliveries("ci", "{\"ready\":0,\"inFlight\":0,\"waiting\":1,\"dead\":0}");
        json("{\"by\":999}").post("/clocks/ci/advance").then().statusCode(200);
        awaitDeliveries("ci", "{\"ready\":0,\"inFlight\":0,\"waiting\":1,\"dead\":0}");
        json("{\"by\":1}").post("/clocks/ci/advance").then().statusCode(200);

        assertThat(receiver.next().body()).contains("\"attempt\":2");
        awaitDeliveries("ci", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":1}");
        given().get("/clocks/ci/deliveries/dead").then().statusCode(200)
                .body("deliveries[0].deadReason", equalTo("the target answered 410 Gone on attempt 2"));

        receiver.answer(request -> Receiver.Answer.status(200));
        given().post("/clocks/ci/deliveries/dead/t/redrive").then().statusCode(200);
        assertThat(receiver.next().body()).contains("\"attempt\":1");
        awaitDeliveries("ci", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");
    }

    @Test
    void aFork_ofAPushClock_pushesToTheSameTarget_underItsOwnName() throws Exception {
        json(pushClock("virtual", "")).put("/clocks/source").then().statusCode(201);
        json("{\"id\":\"t\",\"delay\":10}").post("/clocks/source/timers").then().statusCode(201);
        json("{\"copyOf\":\"source\"}").put("/clocks/copy").then().statusCode(201)
                .body("delivery", equalTo("push")).body("push.url", equalTo(receiver.url("/hooks")))
                .body("push.secretsCount", equalTo(1));
        json("{\"by\":10}").post("/clocks/copy/advance").then().statusCode(200);

        Receiver.Request push = receiver.next();
        assertThat(push.header("webhook-id")).startsWith("copy:");
        assertThat(StandardWebhooks.verify(SECRET, push.header("webhook-id"), push.header("webhook-timestamp"),
                push.body(), push.header("webhook-signature"))).as("signed with the source's secret").isTrue();
        awaitDeliveries("copy", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");
        given().get("/clocks/source").then().body("size", equalTo(1));
    }

    /**
     * Issue 41 item 10: a push clock deleted and created again under its name with another target and secret: the
     * new clock's deliveries reach the new target only, signed with the new secret (the pusher had read the old
     * settings a moment before); created again as a queue clock, its deliveries wait for its workers.
     */
    @Test
    void aClockDeletedAndMadeAgain_pushesToItsNewTarget_orNowhereAsAQueueClock() throws Exception {
        String otherSecret = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
        json(pushClock("virtual", "")).put("/clocks/recycled").then().statusCode(201);
        json("{\"id\":\"a\",\"delay\":0}").post("/clocks/recycled/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/recycled/advance").then().statusCode(200);
        assertThat(receiver.next().path()).isEqualTo("/hooks");
        awaitDeliveries("recycled", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");

        given().delete("/clocks/recycled").then().statusCode(204);
        json(pushClock("virtual", "").replace("/hooks", "/new").replace(SECRET, otherSecret)).put("/clocks/recycled")
                .then().statusCode(201);
        json("{\"id\":\"b\",\"delay\":0}").post("/clocks/recycled/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/recycled/advance").then().statusCode(200);

        Receiver.Request push = receiver.next();
        assertThat(push.path()).isEqualTo("/new");
        assertThat(StandardWebhooks.verify(otherSecret, push.header("webhook-id"), push.header("webhook-timestamp"),
                push.body(), push.header("webhook-signature"))).isTrue();
        assertThat(StandardWebhooks.verify(SECRET, push.header("webhook-id"), push.header("webhook-timestamp"),
                push.body(), push.header("webhook-signature"))).isFalse();
        awaitDeliveries("recycled", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");

        given().delete("/clocks/recycled").then().statusCode(204);
        json("{\"mode\":\"virtual\",\"delivery\":\"queue\"}").put("/clocks/recycled").then().statusCode(201);
        json("{\"id\":\"c\",\"delay\":0}").post("/clocks/recycled/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/recycled/advance").then().statusCode(200);
        json("{\"wait\":5000}").post("/clocks/recycled/deliveries/claim").then().statusCode(200)
                .body("deliveries.id", equalTo(java.util.List.of("c")));
        assertThat(receiver.nextWithin(0)).as("no target got the queue clock's delivery").isNull();
    }

    /**
     * The push section's recent attempts (GET .../push/recent) are the clock's own: a clock deleted and created again
     * under its name shows none of the old clock's, and answers with its own once it pushes.
     */
    @Test
    void recentAttempts_ofAClockDeletedAndMadeAgain_areOnlyItsOwn() throws Exception {
        json(pushClock("virtual", "")).put("/clocks/recycled").then().statusCode(201);
        json("{\"id\":\"old\",\"delay\":0}").post("/clocks/recycled/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/recycled/advance").then().statusCode(200);
        receiver.next();
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/clocks/recycled/push/recent").jsonPath()
                .getList("attempts.id").equals(List.of("old")));

        given().delete("/clocks/recycled").then().statusCode(204);
        json(pushClock("virtual", "")).put("/clocks/recycled").then().statusCode(201);

        given().get("/clocks/recycled/push/recent").then().statusCode(200).body("attempts", equalTo(List.of()));
        json("{\"id\":\"new\",\"delay\":0}").post("/clocks/recycled/timers").then().statusCode(201);
        json("{\"by\":0}").post("/clocks/recycled/advance").then().statusCode(200);
        receiver.next();
        await().atMost(Duration.ofSeconds(30)).until(() -> !given().get("/clocks/recycled/push/recent").jsonPath()
                .getList("attempts").isEmpty());
        given().get("/clocks/recycled/push/recent").then().body("attempts.id", equalTo(List.of("new")));
    }

    @Test
    void badPushSettings_areInvalidRequest_andCreateNothing() {
        String url = receiver.url("/");
        for (String body : new String[] {
            "{\"delivery\":\"push\"}",
            "{\"delivery\":\"queue\",\"push\":{\"url\":\"" + url + "\"}}",
            "{\"push\":{}}",
            "{\"push\":{\"url\":\"ftp://127.0.0.1/\"}}",
            "{\"push\":{\"url\":\"" + url + "\",\"timeout\":99}}",
            "{\"push\":{\"url\":\"" + url + "\",\"concurrency\":1001}}",
            "{\"push\":{\"url\":\"" + url + "\",\"headers\":{\"webhook-id\":\"x\"}}}",
            "{\"push\":{\"url\":\"" + url + "\",\"headers\":{\"Host\":\"x\"}}}",
            "{\"push\":{\"url\":\"" + url + "\",\"secrets\":[\"whsec_!!\"]}}",
            "{\"push\":{\"url\":\"" + url + "\",\"secret\":[]}}",
            "{\"push\":{\"url\":\"" + url + "\",\"timeout\":\"1000\"}}",
            // issue 41 item 11: a null secret, a port no connection can use, an IPv4 host tools read differently
            "{\"push\":{\"url\":\"" + url + "\",\"secrets\":[null]}}",
            "{\"push\":{\"url\":\"http://127.0.0.1:70000/\"}}",
            "{\"push\":{\"url\":\"http://0177.0.0.1:" + receiver.port() + "/\"}}"}) {
            assertProblem(json(body).put("/clocks/bad"), 400, "invalid_request");
        }
        assertProblem(given().get("/clocks/bad"), 404, "clock_not_found");
    }
}
