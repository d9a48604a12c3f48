package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The byte budget over HTTP: an add beyond it is 429 naming the budget and changes nothing; a cancel frees room. Both
 * stores: {@code store.TimerStoreContract}; the property reaching the PostgreSQL store: {@code StoreSelectionTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.limits.max-payload-bytes=1000", "timeservice.capacity-bytes=2000",
                "timeservice.demo.enabled=true"})
class PayloadBudgetRestTest {

    @LocalServerPort
    int port;

    private HttpProbe http;

    @BeforeEach
    void reset() {
        http = new HttpProbe(port);
        assertThat(http.send("POST", "/demo/reset", Map.of(), null).status()).isEqualTo(200);
    }

    @Test
    void addBeyondTheByteBudget_is429CapacityExceeded_namingTheBudget_andAFreedTimerMakesRoom() {
        String payload = "\"" + "x".repeat(898) + "\"";   // 900 bytes of JSON; each timer counts 901 with its id
        assertThat(add("a", payload).status()).isEqualTo(201);
        assertThat(add("b", payload).status()).isEqualTo(201);
        String before = http.get("/timers").text();

        HttpProbe.Reply refused = add("c", payload);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.isProblem()).isTrue();
        assertThat(refused.code()).isEqualTo("capacity_exceeded");
        assertThat(refused.json().path("detail").asString())
                .contains("hold 1802 of the queue's 2000 payload bytes", "needs 901");
        assertThat(http.get("/timers").text()).isEqualTo(before);
        assertThat(http.get("/timers/c").status()).isEqualTo(404);

        assertThat(add("small", "1").status()).isEqualTo(201);   // the count still has room for a small one
        assertThat(http.send("DELETE", "/timers/a", Map.of(), null).status()).isEqualTo(204);
        assertThat(add("c", payload).status()).isEqualTo(201);
    }

    private HttpProbe.Reply add(String id, String payloadJson) {
        return http.json("POST", "/timers", "{\"id\":\"" + id + "\",\"delay\":5,\"payload\":" + payloadJson + "}");
    }
}
