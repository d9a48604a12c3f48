package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A batch counts its adds against the capacity as a whole: the add that overflows is named, nothing changes. Both
 * stores: {@code store.TimerStoreContract}; the property reaching the PostgreSQL store: {@code StoreSelectionTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.capacity=5", "timeservice.demo.enabled=true"})   // CapacityLimitTest's context
class BatchCapacityRestTest {

    @LocalServerPort
    int port;

    private HttpProbe http;

    @BeforeEach
    void fourPending() {
        http = new HttpProbe(port);
        assertThat(http.send("POST", "/demo/reset", Map.of(), null).status()).isEqualTo(200);
        assertThat(batch("[{\"op\":\"add\",\"id\":\"t0\",\"delay\":1},{\"op\":\"add\",\"id\":\"t1\",\"delay\":1},"
                + "{\"op\":\"add\",\"id\":\"t2\",\"delay\":1},{\"op\":\"add\",\"id\":\"t3\",\"delay\":1}]").status())
                .isEqualTo(200);
    }

    @Test
    void addsBeyondCapacity_are429_namingTheAddThatOverflows() {
        String before = http.get("/timers").text();
        HttpProbe.Reply refused = batch("[{\"op\":\"add\",\"id\":\"a\",\"delay\":1},{\"op\":\"edit\",\"id\":\"t0\","
                + "\"delay\":9},{\"op\":\"add\",\"id\":\"b\",\"delay\":1}]");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.code()).isEqualTo("capacity_exceeded");
        assertThat(refused.json().path("op").asInt()).isEqualTo(2);
        assertThat(http.get("/timers").text()).isEqualTo(before);
    }

    @Test
    void aCancelEarlierInTheBatch_makesRoomForALaterAdd() {
        HttpProbe.Reply applied = batch("[{\"op\":\"add\",\"id\":\"a\",\"delay\":1},{\"op\":\"cancel\",\"id\":\"t0\"},"
                + "{\"op\":\"add\",\"id\":\"b\",\"delay\":1}]");
        assertThat(applied.status()).isEqualTo(200);
        assertThat(http.get("/queue").json().path("size").asInt()).isEqualTo(5);
    }

    private HttpProbe.Reply batch(String ops) {
        return http.send("POST", "/batch", Map.of("Content-Type", "application/json"),
                ("{\"ops\":" + ops + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
