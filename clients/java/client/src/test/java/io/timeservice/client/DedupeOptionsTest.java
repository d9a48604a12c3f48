package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's dedupe options as they go over the wire and come back: a clock's {@code dedupeWindow}, an add's
 * {@code onConflict} and the answer's {@code result} (a kept reservation has no timer, only {@code previous}). A stub
 * on a loopback port answers scripted bodies and records the requests; the service's side is its own tests'.
 */
class DedupeOptionsTest {

    private HttpServer server;
    private final Deque<String[]> answers = new ArrayDeque<>(); // status, body
    private final List<String> requests = new ArrayList<>();
    private TimeServiceClient client;

    @BeforeEach
    void startStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String[] answer = answers.poll();
            byte[] bytes = answer[1].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(Integer.parseInt(answer[0]), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        client = TimeServiceClient.connect(URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
    }

    @AfterEach
    void stopStub() {
        server.stop(0);
    }

    @Test
    void theWindowIsSentWithTheClock_andOnlyWhenSet() {
        assertTrue(ClockOptions.virtual().dedupeWindow(Duration.ofHours(1)).json().toString()
                .contains("\"dedupeWindow\":3600000"));
        assertFalse(ClockOptions.virtual().json().toString().contains("dedupeWindow"));
        assertEquals(ClockOptions.virtual().dedupeWindow(Duration.ofSeconds(60)),
                ClockOptions.virtual().dedupeWindow(Duration.ofMinutes(1)));
        assertNotEquals(ClockOptions.virtual(), ClockOptions.virtual().dedupeWindow(Duration.ofMinutes(1)));
    }

    @Test
    void addDeciding_sendsOnConflict_andReadsTheResult_timerOrReservation() {
        answers.add(new String[] {"200", "{\"id\":\"x\",\"fireTime\":20,\"priority\":0,\"sequence\":1,\"version\":2,"
                + "\"createdAt\":0,\"result\":\"replaced\"}"});
        answers.add(new String[] {"200", "{\"id\":\"x\",\"result\":\"kept\",\"previous\":{\"state\":\"fired\","
                + "\"time\":20,\"sequence\":1}}"});
        ClockClient clock = client.clock("c");

        AddResult replaced = clock.addDeciding("x", Duration.ofMillis(20), 0, null,
                AddOptions.onConflict(OnConflict.REPLACE).withIdempotencyKey("k-1"));
        AddResult kept = clock.addDeciding("x", Duration.ofMillis(20), 0, null, AddOptions.none());

        assertEquals("replaced", replaced.result());
        assertEquals(2, replaced.timer().version());
        assertTrue(kept.kept());
        assertNull(kept.timer());
        assertEquals("fired", kept.previousState());
        assertEquals(Instant.ofEpochMilli(20), kept.previousTime());
        assertTrue(requests.get(0).startsWith("POST /clocks/c/timers "), requests.get(0));
        assertTrue(requests.get(0).contains("\"onConflict\":\"replace\""), requests.get(0));
        assertTrue(requests.get(1).contains("\"onConflict\":\"keep\""), requests.get(1));
    }
}
