package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's flow control as it goes over the wire and comes back (issue 44): a clock's {@link FlowControl}, an
 * add's and a batch's {@code key}, the key of timers and deliveries, and one key's own limits. A stub on a loopback
 * port answers scripted bodies and records the requests; the service's side is its own tests'.
 */
class FlowOptionsTest {

    private final ScriptedService service = new ScriptedService();
    private final List<String> requests = service.requests();
    private final TimeServiceClient client = service.client();

    @AfterEach
    void stopStub() {
        service.close();
    }

    @Test
    void aClocksFlowControl_isSentAsThePutTakesIt_andOnlyWhenSet() {
        ClockOptions options = ClockOptions.virtual().queued().flow(FlowControl.perKey().concurrency(5)
                .rate(FlowRate.of(100, Duration.ofMinutes(1))).burst(10).clockConcurrency(50)
                .clockRate(FlowRate.of(1000, Duration.ofSeconds(1))));

        assertEquals("{\"now\":0,\"delivery\":\"queue\",\"flow\":{\"concurrency\":5,\"rate\":{\"limit\":100,"
                + "\"period\":60000},\"burst\":10},\"clockConcurrency\":50,\"clockRate\":{\"limit\":1000,"
                + "\"period\":1000}}", options.json().toString());
        assertEquals("{\"now\":0,\"delivery\":\"queue\",\"clockConcurrency\":3}",
                ClockOptions.virtual().queued().flow(FlowControl.perKey().clockConcurrency(3)).json().toString());
        assertFalse(ClockOptions.virtual().queued().json().toString().contains("flow"));
        assertEquals(ClockOptions.system().flow(FlowControl.perKey().concurrency(2)),
                ClockOptions.system().flow(FlowControl.perKey().concurrency(2)));
        assertNotEquals(ClockOptions.system(), ClockOptions.system().flow(FlowControl.perKey().concurrency(2)));
    }

    @Test
    void anAddsKey_goesWithTheAdd_andComesBackOnTimersAndDeliveries() {
        service.answer(201, "{\"id\":\"a\",\"fireTime\":5,\"priority\":0,\"sequence\":1,\"version\":1,"
                + "\"createdAt\":0,\"key\":\"tenant-7\"}");
        service.answer(200, "{\"results\":[]}");
        service.answer(200, "{\"deliveries\":[{\"id\":\"a\",\"sequence\":1,\"attempt\":1,"
                + "\"fireTime\":5,\"priority\":0,\"state\":\"in_flight\",\"claim\":\"c\",\"leaseUntil\":1005,"
                + "\"readyAt\":5,\"key\":\"tenant-7\"}]}");
        ClockClient clock = client.clock("c");

        Timer added = clock.add("a", Duration.ofMillis(5), 0, null,
                AddOptions.key("tenant-7").withIdempotencyKey("i-1"));
        clock.batch().add("b", Duration.ofMillis(5), 0, null, "partner:acme").commit();
        List<Delivery> claimed = clock.claim(1, Duration.ofSeconds(1), Duration.ZERO);

        assertEquals("tenant-7", added.key());
        assertEquals("tenant-7", claimed.get(0).key());
        assertTrue(requests.get(0).contains("\"key\":\"tenant-7\""), requests.get(0));
        assertTrue(requests.get(1).contains("\"key\":\"partner:acme\""), requests.get(1));
        assertEquals("i-1", AddOptions.key("tenant-7").withIdempotencyKey("i-1").idempotencyKey());
        assertEquals("tenant-7", AddOptions.key("tenant-7").withIdempotencyKey("i-1").key());
    }

    @Test
    void aKeysOwnLimits_areSetReadDeleted_andTheBusiestKeysRead() {
        service.answer(201, "{\"key\":\"tenant-7\",\"concurrency\":2}");
        service.answer(200, "{\"key\":\"tenant-7\",\"concurrency\":2,\"rate\":{\"limit\":6,"
                + "\"period\":60000}}");
        service.answer(200, "{\"key\":\"tenant-7\",\"concurrency\":2,\"rate\":{\"limit\":6,"
                + "\"period\":60000}}");
        service.answer(204, "");
        service.answer(404, "{\"type\":\"urn:timeservice:problem:flow_key_not_found\",\"title\":"
                + "\"Not Found\",\"status\":404,\"detail\":\"none\",\"code\":\"flow_key_not_found\"}");
        service.answer(200, "{\"keys\":[{\"key\":\"tenant-7\",\"ready\":9,\"inFlight\":2,"
                + "\"heldBack\":9,\"concurrency\":2,\"rate\":{\"limit\":6,\"period\":60000},\"tokens\":0,"
                + "\"overridden\":true},{\"key\":\"\",\"ready\":1,\"inFlight\":0,\"heldBack\":0,"
                + "\"overridden\":false}]}");
        ClockClient clock = client.clock("c");
        KeyLimits limits = new KeyLimits(2, FlowRate.of(6, Duration.ofMinutes(1)));

        assertTrue(clock.setKeyLimits("tenant-7", KeyLimits.concurrency(2)));
        assertFalse(clock.setKeyLimits("tenant-7", limits));
        assertEquals(Optional.of(limits), clock.keyLimits("tenant-7"));
        clock.deleteKeyLimits("tenant-7");
        assertEquals(Optional.empty(), clock.keyLimits("tenant-7"));
        List<KeyState> busiest = clock.busiestKeys(2);

        assertEquals(List.of(new KeyState("tenant-7", 9, 2, 9, 2, limits.rate(), 0L, true),
                new KeyState("", 1, 0, 0, null, null, null, false)), busiest);
        assertEquals(List.of("PUT /clocks/c/flow/keys/tenant-7 {\"concurrency\":2}",
                "PUT /clocks/c/flow/keys/tenant-7 {\"concurrency\":2,\"rate\":{\"limit\":6,\"period\":60000}}",
                "GET /clocks/c/flow/keys/tenant-7 ", "DELETE /clocks/c/flow/keys/tenant-7 ",
                "GET /clocks/c/flow/keys/tenant-7 ", "GET /clocks/c/flow/keys?busiest=2 "), requests);
        assertThrows(IllegalArgumentException.class, () -> new KeyLimits(null, null));
    }
}
