package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Calls with an {@code Idempotency-Key}: an add with {@link AddOptions#idempotencyKey} and every nack (which the
 * worker's retries send) are repeated after a 503 or a 409 {@code idempotency_key_in_use}, each attempt with the same
 * key; an add without one is still sent once. A stub on a loopback port scripts the statuses and records the keys.
 */
class IdempotencyKeyRetryTest {

    private static final String TIMER = "{\"id\":\"A\",\"fireTime\":1000,\"priority\":0,\"sequence\":1,"
            + "\"version\":1,\"createdAt\":0}";
    private static final String DELIVERY = "{\"id\":\"A\",\"clock\":\"c\",\"fireTime\":0,\"priority\":0,"
            + "\"sequence\":1,\"attempt\":1,\"state\":\"waiting\",\"retryAt\":1000}";
    private static final String IN_FLIGHT = "{\"id\":\"A\",\"clock\":\"c\",\"fireTime\":0,\"priority\":0,"
            + "\"sequence\":1,\"attempt\":1,\"state\":\"in_flight\",\"claim\":\"k.0\",\"leaseUntil\":5}";

    private StubService server;
    private final Deque<String> answers = new ArrayDeque<>();
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private ClockClient clock;

    @BeforeEach
    void startStub() {
        server = StubService.answering(request -> {
            keys.add(String.valueOf(request.headers().getFirst("Idempotency-Key")));
            String scripted = answers.poll();
            return scripted == null ? StubService.Answer.json(200, request.path().endsWith("/nack") ? DELIVERY : TIMER)
                    : StubService.Answer.json(Integer.parseInt(scripted.substring(0, 3)), scripted.substring(4));
        });
        clock = server.clock("c");
    }

    @AfterEach
    void stopStub() {
        server.close();
    }

    private static String problem(int status, String code) {
        return status + " {\"type\":\"urn:timeservice:problem:" + code + "\",\"title\":\"t\",\"status\":" + status
                + ",\"detail\":\"d\",\"instance\":\"/x\",\"code\":\"" + code + "\"}";
    }

    @Test
    void anAddWithAKeyIsRepeatedWithTheSameKeyAfter503AndInUse() {
        answers.add(problem(503, "storage_unavailable"));
        answers.add(problem(409, "idempotency_key_in_use"));

        clock.add("A", Duration.ofSeconds(1), 0, null, AddOptions.idempotencyKey("add-A-1"));

        assertEquals(List.of("add-A-1", "add-A-1", "add-A-1"), keys);
    }

    @Test
    void anAddWithoutAKeyIsSentOnceWithout() {
        answers.add(problem(503, "storage_unavailable"));

        assertThrows(TimeServiceException.class, () -> clock.add("A", Duration.ofSeconds(1)));

        assertEquals(List.of("null"), keys);
    }

    @Test
    void anotherConflictIsNotRepeated() {
        answers.add(problem(409, "duplicate_id"));

        TimeServiceException refused = assertThrows(TimeServiceException.class,
                () -> clock.add("A", Duration.ofSeconds(1), 0, null, AddOptions.idempotencyKey("add-A-2")));

        assertEquals("duplicate_id", refused.code());
        assertEquals(1, keys.size());
    }

    @Test
    void aNackCarriesAKeyAndItsRepeatTheSameOne() {
        answers.add(problem(503, "storage_unavailable"));

        clock.nack(Delivery.of(Json.parse(IN_FLIGHT)));

        assertEquals(2, keys.size());
        assertEquals(keys.get(0), keys.get(1));
        assertEquals(36, keys.get(0).length());
    }

    @Test
    void aNackAtTheServicesCapOfKeys_goesOnceMoreWithoutAKey_anAddDoesNot() {
        answers.add(problem(429, "idempotency_key_limit"));

        clock.nack(Delivery.of(Json.parse(IN_FLIGHT)));

        assertEquals(2, keys.size());
        assertEquals(36, keys.get(0).length());
        assertEquals("null", keys.get(1));

        answers.add(problem(429, "idempotency_key_limit"));
        TimeServiceException refused = assertThrows(TimeServiceException.class,
                () -> clock.add("A", Duration.ofSeconds(1), 0, null, AddOptions.idempotencyKey("add-A-3")));
        assertEquals("idempotency_key_limit", refused.code());
        assertEquals(3, keys.size());
    }

    @Test
    void aKeyThatIsNotVisibleAsciiIsRefusedBeforeSending() {
        assertThrows(IllegalArgumentException.class, () -> AddOptions.idempotencyKey("two words"));
        assertThrows(IllegalArgumentException.class, () -> AddOptions.idempotencyKey(""));
    }
}
