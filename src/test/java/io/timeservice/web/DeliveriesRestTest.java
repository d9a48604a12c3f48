package io.timeservice.web;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Clock settings and the delivery calls over HTTP, every answer checked against openapi.yaml. Timing runs on
 * queueing virtual clocks (fire by advancing; leases and retries end by advancing), except for one system clock,
 * whose timer the service's firing thread fires by itself. The store's part runs on both stores in
 * {@code store.DeliveryStoreContract} and {@code store.ClockStoreContract} (claims, acks, nacks, extends, leases,
 * retries, dead letters, long polls, the order of refusals, settings and counts); a system clock firing into its
 * queue on PostgreSQL: {@code SystemDefaultClockRestPostgresTest}, {@code store.postgres.PostgresFiringLoopTest}.
 */
class DeliveriesRestTest extends RestTestSupport {

    /** Three attempts, 1 s then 2 s of backoff, no jitter: every retry time is known. */
    private static final String QUEUE_CLOCK = "{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":3,"
            + "\"initialBackoff\":1000,\"jitter\":0}}";

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    // ---- clock settings

    @Test
    void put_showsTheSettings_sameSettings200_otherSettings409() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201)
                .body("mode", equalTo("virtual")).body("delivery", equalTo("queue"))
                .body("retry", equalTo(Map.of("maxAttempts", 3, "initialBackoff", 1000, "multiplier", 2.0f,
                        "maxBackoff", 300000, "jitter", 0.0f)))
                .body("deliveries.ready", equalTo(0)).body("deliveries.inFlight", equalTo(0))
                .body("deliveries.waiting", equalTo(0)).body("deliveries.dead", equalTo(0))
                .body("deliveries.oldestReadyAt", nullValue()).body("deliveries.firingHeldBack", equalTo(false));
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(200).body("delivery", equalTo("queue"));
        assertProblem(json("{\"delivery\":\"queue\"}").put("/clocks/q"), 409, "clock_conflict");
        assertProblem(json("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":4,\"initialBackoff\":1000,"
                + "\"jitter\":0}}").put("/clocks/q"), 409, "clock_conflict");
        assertProblem(json("{}").put("/clocks/q"), 409, "clock_conflict");

        given().get("/clocks/q").then().statusCode(200).body("retry.maxAttempts", equalTo(3))
                .body("deliveries.ready", equalTo(0));
        given().get("/clocks").then().body("clocks.find { it.name == 'q' }.delivery", equalTo("queue"))
                .body("clocks.find { it.name == 'default' }.mode", equalTo("virtual"))
                .body("clocks.find { it.name == 'default' }.delivery", equalTo("response"))
                .body("clocks.find { it.name == 'default' }", not(hasKey("deliveries")));
        json("{}").put("/clocks/plain").then().statusCode(201).body("mode", equalTo("virtual"))
                .body("delivery", equalTo("response")).body("retry.maxAttempts", equalTo(10))
                .body("retry.jitter", equalTo(0.2f)).body("$", not(hasKey("deliveries")));
    }

    static Stream<Arguments> refusedClockBodies() {
        return Stream.of(
                Arguments.of("{\"mode\":\"system\",\"now\":5}", "invalid_request"),
                Arguments.of("{\"mode\":\"system\",\"delivery\":\"response\"}", "invalid_request"),
                Arguments.of("{\"mode\":\"System\"}", "invalid_request"),
                Arguments.of("{\"mode\":null}", "invalid_request"),
                Arguments.of("{\"delivery\":\"push\"}", "invalid_request"),
                Arguments.of("{\"delivery\":1}", "invalid_request"),
                Arguments.of("{\"retry\":{\"maxAttempts\":0}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"maxAttempts\":1001}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"maxAttempts\":\"3\"}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"multiplier\":0.5}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"multiplier\":11}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"jitter\":1.5}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"initialBackoff\":-1}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"initialBackoff\":5000,\"maxBackoff\":1000}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"maxBackoff\":604800001}}", "invalid_request"),
                Arguments.of("{\"retry\":{\"backoff\":1}}", "invalid_request"),
                Arguments.of("{\"retry\":null}", "invalid_request"),
                Arguments.of("{\"retry\":{},\"retry\":{}}", "invalid_request"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("refusedClockBodies")
    void put_refusesBadSettings_andCreatesNothing(String body, String code) {
        assertProblem(json(body).put("/clocks/bad"), 400, code);

        assertProblem(given().get("/clocks/bad"), 404, "clock_not_found");
    }

    @Test
    void aRetryMemberOutOfTypeIsNamedByItsPointer() {
        json("{\"retry\":{\"jitter\":\"0\"}}").put("/clocks/bad").then().statusCode(400)
                .body("detail", equalTo("/retry/jitter must be a JSON number from 0 to 1, got a string"));
    }

    // ---- system clocks

    @Test
    void systemClock_firesByItself_intoItsQueue_andCannotBeAdvanced() {
        long before = System.currentTimeMillis();
        json("{\"mode\":\"system\"}").put("/clocks/sys").then().statusCode(201)
                .body("mode", equalTo("system")).body("delivery", equalTo("queue"))
                .body("now", greaterThan(before - 1)).body("deliveries.ready", equalTo(0));
        json("{\"mode\":\"system\"}").put("/clocks/sys").then().statusCode(200);
        assertProblem(json("{\"mode\":\"system\",\"retry\":{\"maxAttempts\":1}}").put("/clocks/sys"), 409,
                "clock_conflict");
        assertProblem(json("{\"by\":1}").post("/clocks/sys/advance"), 409, "clock_not_virtual");

        json("{\"id\":\"now\",\"delay\":0,\"payload\":{\"job\":7}}").post("/clocks/sys/timers").then().statusCode(201);

        // the firing thread fires it at its due time; a long poll answers as soon as it is ready
        List<Map<String, Object>> claimed = await("the timer delivered").atMost(Duration.ofSeconds(60))
                .until(() -> claim("/clocks/sys", "{\"wait\":5000}"), deliveries -> !deliveries.isEmpty());
        assertEquals(1, claimed.size(), "the timer was delivered within 60 s");
        Map<String, Object> delivery = claimed.get(0);
        assertEquals("now", delivery.get("id"));
        assertEquals(Map.of("job", 7), delivery.get("payload"));
        assertEquals(1, delivery.get("attempt"));
        assertTrue(((Number) delivery.get("fireTime")).longValue() >= before);

        json("{\"claim\":\"" + delivery.get("claim") + "\"}").post("/clocks/sys/deliveries/now/ack").then()
                .statusCode(204);
        given().get("/clocks/sys/deliveries").then().statusCode(200).body("ready", equalTo(0))
                .body("inFlight", equalTo(0));
        given().get("/clocks/sys/timers").then().body("size", equalTo(0));
    }

    // ---- claim, ack, nack, extend

    @Test
    void fired_timers_areClaimedInFiringOrder_andAckedOnce() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"late\",\"delay\":5,\"priority\":1}");
        addOn("q", "{\"id\":\"first\",\"delay\":5,\"payload\":{\"k\":[1,2]}}");
        addOn("q", "{\"id\":\"later\",\"delay\":9}");

        json("{\"by\":5}").post("/clocks/q/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("first", "late")));   // still listed; now also queued
        given().get("/clocks/q/deliveries").then().statusCode(200).body("ready", equalTo(2))
                .body("oldestReadyAt", equalTo(5));

        List<Map<String, Object>> claimed = claim("/clocks/q", "{\"max\":10,\"lease\":1000}");

        assertEquals(List.of("first", "late"), claimed.stream().map(d -> d.get("id")).toList());
        Map<String, Object> first = claimed.get(0);
        assertEquals(Map.of("k", List.of(1, 2)), first.get("payload"));
        assertEquals(1, first.get("attempt"));
        assertEquals("in_flight", first.get("state"));
        assertEquals(1005, first.get("leaseUntil"));
        assertNotEquals(first.get("claim"), claimed.get(1).get("claim"));
        assertTrue(!claimed.get(1).containsKey("payload"), "a timer without payload has none");
        given().get("/clocks/q").then().body("deliveries.inFlight", equalTo(2)).body("deliveries.ready",
                equalTo(0));

        String firstClaim = (String) first.get("claim");
        json("{\"claim\":\"" + firstClaim + "\"}").post("/clocks/q/deliveries/first/ack").then().statusCode(204);
        json("{\"claim\":\"" + firstClaim + "\"}").post("/clocks/q/deliveries/first/ack").then().statusCode(204);
        assertProblem(json("{\"claim\":\"" + firstClaim + "\"}").post("/clocks/q/deliveries/late/ack"), 409,
                "claim_lost");
        assertProblem(json("{\"claim\":\"forged\"}").post("/clocks/q/deliveries/late/ack"), 409, "claim_lost");
        given().get("/clocks/q/deliveries").then().body("inFlight", equalTo(1));
        assertEquals(List.of(), claim("/clocks/q", "{}"), "nothing else is ready");
    }

    @Test
    void everyDeliveryNamesItsClock_soClockAndSequenceTellDeliveriesOfTwoClocksApart() {
        json(QUEUE_CLOCK).put("/clocks/a").then().statusCode(201);
        json("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":1}}").put("/clocks/b").then().statusCode(201);
        for (String clock : List.of("a", "b")) { // the memory store numbers each clock's timers on its own
            addOn(clock, "{\"id\":\"same\",\"delay\":0}");
            json("{\"by\":0}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        }

        Map<String, Object> onA = claim("/clocks/a", "{}").get(0);
        Map<String, Object> onB = claim("/clocks/b", "{}").get(0);

        assertEquals("a", onA.get("clock"));
        assertEquals("b", onB.get("clock"));
        assertNotEquals(List.of(onA.get("clock"), onA.get("sequence")),
                List.of(onB.get("clock"), onB.get("sequence")));
        json("{\"claim\":\"" + onA.get("claim") + "\",\"lease\":5000}").post("/clocks/a/deliveries/same/extend")
                .then().statusCode(200).body("clock", equalTo("a"));
        json("{\"claim\":\"" + onA.get("claim") + "\",\"retryAfter\":0}").post("/clocks/a/deliveries/same/nack")
                .then().statusCode(200).body("clock", equalTo("a")).body("state", equalTo("ready"));
        json("{\"claim\":\"" + onB.get("claim") + "\"}").post("/clocks/b/deliveries/same/nack").then()
                .statusCode(200).body("clock", equalTo("b")).body("state", equalTo("dead"));
        given().get("/clocks/b/deliveries/dead").then().statusCode(200)
                .body("deliveries.clock", equalTo(List.of("b")));
        given().post("/clocks/b/deliveries/dead/same/redrive").then().statusCode(200)
                .body("deliveries.clock", equalTo(List.of("b")));
    }

    @Test
    void deliveriesListedByState_andEveryMatchingDeadLetterRedrivenOrDeletedInOneCall() {
        json("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":1}}").put("/clocks/b").then().statusCode(201);
        for (String id : List.of("order-1", "order-2", "other")) {
            addOn("b", "{\"id\":\"" + id + "\",\"delay\":0}");
        }
        json("{\"by\":0}").post("/clocks/b/advance").then().statusCode(200);
        for (Map<String, Object> claimed : claim("/clocks/b", "{\"max\":3}")) {
            json("{\"claim\":\"" + claimed.get("claim") + "\"}").post("/clocks/b/deliveries/" + claimed.get("id")
                    + "/nack").then().statusCode(200).body("state", equalTo("dead"));
        }

        given().get("/clocks/b/deliveries/list?state=dead&idPrefix=order-&reason=nacked&minAttempt=1&limit=1")
                .then().statusCode(200).body("deliveries.id", equalTo(List.of("order-1"))).body("next", notNullValue());
        given().get("/clocks/b/deliveries/dead?idPrefix=oth").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("other")));
        given().get("/clocks/b/deliveries/list?state=done").then().statusCode(400)
                .body("detail", equalTo("state must be ready, in_flight, waiting or dead, got \"done\""));
        given().get("/clocks/b/deliveries/list?state=ready&reason=x").then().statusCode(400)
                .body("detail", equalTo("reason filters dead deliveries only"));
        json("{\"minAttempt\":0}").post("/clocks/b/deliveries/dead/redrive").then().statusCode(400)
                .body("detail", equalTo("minAttempt must be at least 1, got 0"));
        json("{\"id\":\"x\"}").post("/clocks/b/deliveries/dead/redrive").then().statusCode(400)
                .body("code", equalTo("invalid_request"));

        json("{\"idPrefix\":\"order-\"}").post("/clocks/b/deliveries/dead/redrive").then().statusCode(200)
                .body("matched", equalTo(2)).body("changed", equalTo(2));
        json("{\"idPrefix\":\"order-\"}").post("/clocks/b/deliveries/dead/redrive").then().statusCode(200)
                .body("matched", equalTo(0)).body("changed", equalTo(0));
        given().get("/clocks/b/deliveries/list?state=ready").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("order-1", "order-2")))
                .body("deliveries.attempt", equalTo(List.of(1, 1)));
        claim("/clocks/b", "{\"max\":1}");
        given().get("/clocks/b/deliveries/list?state=in_flight").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("order-1"))).body("deliveries[0].claim", nullValue())
                .body("deliveries[0].leaseUntil", notNullValue());
        json("{}").post("/clocks/b/deliveries/dead/delete").then().statusCode(200)
                .body("matched", equalTo(1)).body("changed", equalTo(1));
        given().get("/clocks/b/deliveries").then().body("dead", equalTo(0)).body("ready", equalTo(1));
    }

    @Test
    void manyAcksInOneRequest_eachAnsweredInOrder_aLostClaimChangingNothing() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"a\",\"delay\":0}");
        addOn("q", "{\"id\":\"b\",\"delay\":0}");
        addOn("q", "{\"id\":\"c\",\"delay\":0}");
        json("{\"by\":0}").post("/clocks/q/advance").then().statusCode(200);
        List<Map<String, Object>> claimed = claim("/clocks/q", "{\"max\":3}");

        json("{\"acks\":[{\"id\":\"a\",\"claim\":\"" + claimed.get(0).get("claim") + "\"},"
                + "{\"id\":\"b\",\"claim\":\"forged\"},"
                + "{\"id\":\"c\",\"claim\":\"" + claimed.get(2).get("claim") + "\"}]}")
                .post("/clocks/q/deliveries/ack").then().statusCode(200).body("acked", equalTo(2))
                .body("results.id", equalTo(List.of("a", "b", "c")))
                .body("results.outcome", equalTo(List.of("acked", "claim_lost", "acked")));
        given().get("/clocks/q/deliveries").then().body("inFlight", equalTo(1));

        for (String bad : List.of("{}", "{\"acks\":[]}", "{\"acks\":null}", "{\"acks\":[null]}",
                "{\"acks\":[{\"id\":\"b\"}]}", "{\"acks\":[{\"id\":\"b\",\"claim\":\"x\",\"more\":1}]}",
                "{\"acks\":{\"id\":\"b\"}}")) {
            assertProblem(json(bad).post("/clocks/q/deliveries/ack"), 400, "invalid_request");
        }
        given().get("/clocks/q/deliveries").then().body("inFlight", equalTo(1));
        assertProblem(json("{\"acks\":[{\"id\":\"b\",\"claim\":\"x\"}]}").post("/deliveries/ack"), 409,
                "clock_not_queued");
    }

    @Test
    void nack_waitsItsRetryAfter_thenTheDeliveryComesBackWithTheNextAttempt() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"job\",\"delay\":0}");
        json("{\"by\":0}").post("/clocks/q/advance").then().statusCode(200);
        String claim = (String) claim("/clocks/q", "{}").get(0).get("claim");

        json("{\"claim\":\"" + claim + "\",\"retryAfter\":2000}").post("/clocks/q/deliveries/job/nack").then()
                .statusCode(200).body("state", equalTo("waiting")).body("attempt", equalTo(2))
                .body("retryAt", equalTo(2000)).body("$", not(hasKey("claim")));
        assertProblem(json("{\"claim\":\"" + claim + "\"}").post("/clocks/q/deliveries/job/nack"), 409,
                "claim_lost");
        given().get("/clocks/q/deliveries").then().body("waiting", equalTo(1));
        assertEquals(List.of(), claim("/clocks/q", "{}"), "not before its retry time");

        json("{\"by\":2000}").post("/clocks/q/advance").then().statusCode(200);
        List<Map<String, Object>> again = claim("/clocks/q", "{}");
        assertEquals(1, again.size());
        assertEquals(2, again.get(0).get("attempt"));
        assertNotEquals(claim, again.get(0).get("claim"));
    }

    @Test
    void anExpiredLease_isLost_theDeliveryRetriesAfterTheBackoff_andDiesAfterItsLastAttempt() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"job\",\"delay\":0,\"payload\":\"p\"}");
        json("{\"by\":0}").post("/clocks/q/advance").then().statusCode(200);

        for (int attempt = 1; attempt <= 3; attempt++) {
            List<Map<String, Object>> claimed = claim("/clocks/q", "{\"lease\":1000}");
            assertEquals(1, claimed.size(), "attempt " + attempt);
            assertEquals(attempt, claimed.get(0).get("attempt"));
            String claim = (String) claimed.get(0).get("claim");
            // the lease ends, then the backoff (1 s, 2 s) passes: both on the virtual clock
            json("{\"by\":1000}").post("/clocks/q/advance").then().statusCode(200);
            assertProblem(json("{\"claim\":\"" + claim + "\"}").post("/clocks/q/deliveries/job/ack"), 409,
                    "claim_lost");
            json("{\"by\":2000}").post("/clocks/q/advance").then().statusCode(200);
        }

        assertEquals(List.of(), claim("/clocks/q", "{}"));
        given().get("/clocks/q/deliveries").then().body("dead", equalTo(1)).body("ready", equalTo(0))
                .body("waiting", equalTo(0));
        given().get("/clocks/q/deliveries/dead").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("job"))).body("deliveries[0].attempt", equalTo(3))
                .body("deliveries[0].state", equalTo("dead")).body("deliveries[0].payload", equalTo("p"))
                .body("deliveries[0].deadReason", equalTo("lease expired on attempt 3 of 3"))
                .body("$", not(hasKey("next")));
    }

    @Test
    void extend_movesTheLease_andKeepsTheClaim() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"slow\",\"delay\":0}");
        json("{\"by\":0}").post("/clocks/q/advance").then().statusCode(200);
        String claim = (String) claim("/clocks/q", "{\"lease\":1000}").get(0).get("claim");

        json("{\"claim\":\"" + claim + "\",\"lease\":5000}").post("/clocks/q/deliveries/slow/extend").then()
                .statusCode(200).body("id", equalTo("slow")).body("sequence", greaterThan(0))
                .body("claim", equalTo(claim)).body("leaseUntil", equalTo(5000)).body("state", equalTo("in_flight"));
        json("{\"by\":3000}").post("/clocks/q/advance").then().statusCode(200);   // past the first lease's end

        assertProblem(json("{\"claim\":\"other\",\"lease\":5000}").post("/clocks/q/deliveries/slow/extend"), 409,
                "claim_lost");
        assertProblem(json("{\"claim\":\"" + claim + "\",\"lease\":999}").post("/clocks/q/deliveries/slow/extend"),
                400, "invalid_request");
        json("{\"claim\":\"" + claim + "\"}").post("/clocks/q/deliveries/slow/ack").then().statusCode(204);
    }

    // ---- dead letters

    @Test
    void deadLetters_pageBySequence_redriveAndDelete() {
        json("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":1}}").put("/clocks/d").then().statusCode(201);
        for (String id : List.of("a", "b", "c")) {
            addOn("d", "{\"id\":\"" + id + "\",\"delay\":1}");
        }
        json("{\"by\":1}").post("/clocks/d/advance").then().statusCode(200);
        for (Map<String, Object> delivery : claim("/clocks/d", "{\"max\":3}")) {
            json("{\"claim\":\"" + delivery.get("claim") + "\"}").post("/clocks/d/deliveries/" + delivery.get("id")
                    + "/nack").then().statusCode(200).body("state", equalTo("dead"))
                    .body("deadReason", equalTo("nacked on attempt 1 of 1"));
        }

        Response firstPage = given().queryParam("limit", 2).get("/clocks/d/deliveries/dead");
        firstPage.then().statusCode(200).body("deliveries.id", equalTo(List.of("a", "b")));
        long next = firstPage.jsonPath().getLong("next");
        assertEquals(firstPage.jsonPath().getLong("deliveries[1].sequence"), next);
        given().queryParam("limit", 2).queryParam("after", next).get("/clocks/d/deliveries/dead").then()
                .body("deliveries.id", equalTo(List.of("c"))).body("$", not(hasKey("next")));

        long bSequence = firstPage.jsonPath().getLong("deliveries[1].sequence");
        given().queryParam("sequence", bSequence + 1000).post("/clocks/d/deliveries/dead/b/redrive").then()
                .statusCode(404);
        given().queryParam("sequence", bSequence).post("/clocks/d/deliveries/dead/b/redrive").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("b"))).body("deliveries[0].state", equalTo("ready"))
                .body("deliveries[0].attempt", equalTo(1)).body("deliveries[0]", not(hasKey("deadReason")));
        assertEquals(List.of("b"), claim("/clocks/d", "{\"max\":3}").stream().map(d -> d.get("id")).toList());

        given().delete("/clocks/d/deliveries/dead/a").then().statusCode(204);
        assertProblem(given().delete("/clocks/d/deliveries/dead/a"), 404, "delivery_not_found");
        assertProblem(given().post("/clocks/d/deliveries/dead/a/redrive"), 404, "delivery_not_found");
        given().get("/clocks/d/deliveries/dead").then().body("deliveries.id", equalTo(List.of("c")));
        given().get("/clocks/d/deliveries").then().body("dead", equalTo(1)).body("inFlight", equalTo(1));
    }

    @Test
    void deadLetterQueries_areReadStrictly() {
        json("{\"delivery\":\"queue\"}").put("/clocks/d").then().statusCode(201);
        assertProblem(given().queryParam("limit", 0).get("/clocks/d/deliveries/dead"), 400, "invalid_limit");
        assertProblem(given().queryParam("limit", 1001).get("/clocks/d/deliveries/dead"), 400, "invalid_limit");
        assertProblem(given().queryParam("after", -1).get("/clocks/d/deliveries/dead"), 400, "invalid_request");
        assertProblem(given().queryParam("after", "x").get("/clocks/d/deliveries/dead"), 400, "invalid_request");
        assertProblem(given().queryParam("sequence", "1.5").post("/clocks/d/deliveries/dead/a/redrive"), 400,
                "invalid_request");
        assertProblem(given().queryParam("sequence", "").delete("/clocks/d/deliveries/dead/a"), 400,
                "invalid_request");
        given().queryParam("limit", 1000).queryParam("after", 0).get("/clocks/d/deliveries/dead").then()
                .statusCode(200).body("deliveries", equalTo(List.of()));
    }

    // ---- long polls

    @Test
    void aLongPoll_isAnsweredWhenADeliveryBecomesReady() throws Exception {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"soon\",\"delay\":10}");
        long start = System.nanoTime();
        CompletableFuture<List<Map<String, Object>>> poll = CompletableFuture.supplyAsync(
                () -> claim("/clocks/q", "{\"wait\":30000}"));

        json("{\"by\":10}").post("/clocks/q/advance").then().statusCode(200);

        List<Map<String, Object>> claimed = poll.get(25, TimeUnit.SECONDS);
        assertEquals(List.of("soon"), claimed.stream().map(d -> d.get("id")).toList());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(25).toNanos(), "answered before its wait ended");
    }

    @Test
    void aLongPoll_answersEmpty_whenItsWaitEnds() {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        long start = System.nanoTime();

        assertEquals(List.of(), claim("/clocks/q", "{\"wait\":300}"));

        assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos(), "waited its 300 ms");
    }

    // ---- refusals

    @Test
    void deliveryCalls_onAResponseClock_are409_andOnAnUnknownClock404() {
        for (String prefix : List.of("", "/clocks/default")) {
            assertProblem(json("{}").post(prefix + "/deliveries/claim"), 409, "clock_not_queued");
            assertProblem(json("{\"claim\":\"c\"}").post(prefix + "/deliveries/A/ack"), 409, "clock_not_queued");
            assertProblem(json("{\"claim\":\"c\"}").post(prefix + "/deliveries/A/nack"), 409, "clock_not_queued");
            assertProblem(json("{\"claim\":\"c\",\"lease\":1000}").post(prefix + "/deliveries/A/extend"), 409,
                    "clock_not_queued");
            assertProblem(given().get(prefix + "/deliveries"), 409, "clock_not_queued");
            assertProblem(given().get(prefix + "/deliveries/dead"), 409, "clock_not_queued");
            assertProblem(given().post(prefix + "/deliveries/dead/A/redrive"), 409, "clock_not_queued");
            assertProblem(given().delete(prefix + "/deliveries/dead/A"), 409, "clock_not_queued");
        }
        assertProblem(json("{}").post("/clocks/none/deliveries/claim"), 404, "clock_not_found");
        assertProblem(json("{\"claim\":\"c\"}").post("/clocks/none/deliveries/A/ack"), 404, "clock_not_found");
        assertProblem(given().get("/clocks/none/deliveries"), 404, "clock_not_found");
        assertProblem(given().get("/clocks/none/deliveries/dead"), 404, "clock_not_found");
        assertProblem(given().delete("/clocks/none/deliveries/dead/A"), 404, "clock_not_found");
    }

    static Stream<Arguments> refusedDeliveryBodies() {
        return Stream.of(
                Arguments.of("claim", "{\"max\":0}", "invalid_limit"),
                Arguments.of("claim", "{\"max\":1001}", "invalid_limit"),
                Arguments.of("claim", "{\"max\":\"1\"}", "invalid_limit"),
                Arguments.of("claim", "{\"max\":1.5}", "invalid_limit"),
                Arguments.of("claim", "{\"lease\":999}", "invalid_request"),
                Arguments.of("claim", "{\"lease\":43200001}", "invalid_request"),
                Arguments.of("claim", "{\"wait\":-1}", "invalid_request"),
                Arguments.of("claim", "{\"wait\":30001}", "invalid_request"),
                Arguments.of("claim", "{\"wait\":null}", "invalid_request"),
                // a bad max and a bad wait or lease together: max first (issue 34, item 15; DeliveryStoreContract)
                Arguments.of("claim", "{\"max\":0,\"wait\":-1}", "invalid_limit"),
                Arguments.of("claim", "{\"max\":1001,\"lease\":999,\"wait\":30001}", "invalid_limit"),
                Arguments.of("claim", "{\"lease\":999,\"wait\":-1}", "invalid_request"),
                Arguments.of("claim", "{\"count\":1}", "invalid_request"),
                Arguments.of("claim", "{\"max\":1,\"max\":2}", "invalid_request"),
                Arguments.of("claim", "", "invalid_request"),
                Arguments.of("claim", "[]", "invalid_request"),
                Arguments.of("ack", "{}", "invalid_request"),
                Arguments.of("ack", "{\"claim\":null}", "invalid_request"),
                Arguments.of("ack", "{\"claim\":7}", "invalid_request"),
                Arguments.of("ack", "{\"claim\":\"c\",\"retryAfter\":1}", "invalid_request"),
                Arguments.of("nack", "{\"claim\":\"c\",\"retryAfter\":-1}", "invalid_request"),
                Arguments.of("nack", "{\"claim\":\"c\",\"retryAfter\":604800001}", "invalid_request"),
                Arguments.of("nack", "{\"claim\":\"c\",\"retryAfter\":\"5\"}", "invalid_request"),
                Arguments.of("nack", "{\"retryAfter\":5}", "invalid_request"),
                Arguments.of("extend", "{\"claim\":\"c\"}", "invalid_request"),
                Arguments.of("extend", "{\"claim\":\"c\",\"lease\":2.5}", "invalid_request"),
                Arguments.of("extend", "{\"claim\":\"c\",\"lease\":43200001}", "invalid_request"),
                Arguments.of("extend", "{\"lease\":5000}", "invalid_request"));
    }

    @ParameterizedTest(name = "[{index}] {0} {1}")
    @MethodSource("refusedDeliveryBodies")
    void deliveryBodies_areReadStrictly_andARefusalChangesNothing(String call, String body, String code) {
        json(QUEUE_CLOCK).put("/clocks/q").then().statusCode(201);
        addOn("q", "{\"id\":\"job\",\"delay\":0}");
        json("{\"by\":0}").post("/clocks/q/advance").then().statusCode(200);
        String claim = (String) claim("/clocks/q", "{}").get(0).get("claim");
        String before = given().get("/clocks/q/deliveries").asString();

        String path = call.equals("claim") ? "/clocks/q/deliveries/claim" : "/clocks/q/deliveries/job/" + call;
        assertProblem(json(body.replace("\"c\"", "\"" + claim + "\"")).post(path), 400, code);

        assertEquals(before, given().get("/clocks/q/deliveries").asString());
        json("{\"claim\":\"" + claim + "\"}").post("/clocks/q/deliveries/job/ack").then().statusCode(204);
    }

    private void addOn(String clock, String body) {
        json(body).post("/clocks/" + clock + "/timers").then().statusCode(201);
    }

    private List<Map<String, Object>> claim(String clockPrefix, String body) {
        Response claimed = json(body).post(clockPrefix + "/deliveries/claim");
        claimed.then().statusCode(200);
        return claimed.jsonPath().getList("deliveries");
    }
}
