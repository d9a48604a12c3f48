package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Settlements name the delivery's trace (the service's issue 46), so the service records them in the trace of the
 * request that added the timer: ack, nack and extend send the delivery's {@code traceparent} header, and a batch of
 * acks carries each delivery's own in its item — one request, many traces. A stub on a loopback port records what
 * each call sent.
 */
class SettlementTraceContextTest {

    private static final String TRACED = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String OTHER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private StubService server;
    private final Map<String, String> headers = new ConcurrentHashMap<>();
    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private ClockClient clock;

    @BeforeEach
    void startStub() {
        server = StubService.answering(request -> {
            bodies.put(request.path(), request.body());
            headers.put(request.path(), String.valueOf(request.headers().getFirst("traceparent")));
            if (request.path().endsWith("/deliveries/ack")) {
                return StubService.Answer.json(200, "{\"acked\":2,\"results\":[{\"id\":\"A\",\"outcome\":"
                        + "\"acked\"},{\"id\":\"B\",\"outcome\":\"acked\"}]}");
            }
            return request.path().endsWith("/ack") ? new StubService.Answer(204, null, null)
                    : StubService.Answer.json(200, inFlight("A", TRACED));
        });
        clock = server.clock("c");
    }

    @AfterEach
    void stopStub() {
        server.close();
    }

    private static String inFlight(String id, String traceparent) {
        return "{\"id\":\"" + id + "\",\"clock\":\"c\",\"fireTime\":0,\"priority\":0,\"sequence\":1,\"attempt\":1,"
                + "\"state\":\"in_flight\",\"claim\":\"k.0\",\"leaseUntil\":5"
                + (traceparent == null ? "" : ",\"traceparent\":\"" + traceparent + "\"") + "}";
    }

    private static Delivery delivery(String id, String traceparent) {
        return Delivery.of(Json.parse(inFlight(id, traceparent)));
    }

    @Test
    void ackNackAndExtend_sendTheDeliverysTraceparent() {
        clock.ack(delivery("A", TRACED));
        clock.nack(delivery("A", TRACED));
        clock.extend(delivery("A", TRACED), Duration.ofSeconds(30));

        assertEquals(TRACED, headers.get("/clocks/c/deliveries/A/ack"));
        assertEquals(TRACED, headers.get("/clocks/c/deliveries/A/nack"));
        assertEquals(TRACED, headers.get("/clocks/c/deliveries/A/extend"));
    }

    @Test
    void aDeliveryWithoutAContext_sendsNone() {
        clock.ack(delivery("A", null));

        assertEquals("null", headers.get("/clocks/c/deliveries/A/ack"));
    }

    @Test
    void aBatchOfAcks_carriesEachDeliverysOwnContextInItsItem() {
        clock.ackAll(List.of(delivery("A", TRACED), delivery("B", OTHER), delivery("C", null)));

        JsonNode acks = Json.parse(bodies.get("/clocks/c/deliveries/ack")).get("acks");
        assertEquals(TRACED, acks.get(0).get("traceparent").asText());
        assertEquals(OTHER, acks.get(1).get("traceparent").asText());
        assertFalse(acks.get(2).has("traceparent"));
        assertEquals("null", headers.get("/clocks/c/deliveries/ack"), "a batch names no one trace in its header");
    }
}
