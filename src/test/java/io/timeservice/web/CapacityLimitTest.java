package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A full queue refuses adds with 429 and changes nothing, while everything that frees room keeps working. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.capacity=5", "timeservice.demo.enabled=true"})
class CapacityLimitTest {

    @LocalServerPort
    int port;

    private HttpProbe http;

    @BeforeEach
    void fill() {
        http = new HttpProbe(port);
        assertThat(http.send("POST", "/demo/reset", java.util.Map.of(), null).status()).isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            assertThat(add("t" + i, 10 + i).status()).isEqualTo(201);
        }
    }

    @Test
    void addBeyondCapacity_is429Problem_andTheQueueIsUnchanged() {
        String before = http.get("/timers").text();
        HttpProbe.Reply refused = add("extra", 1);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.isProblem()).isTrue();
        assertThat(refused.code()).isEqualTo("capacity_exceeded");
        assertThat(refused.json().path("detail").asString()).contains("capacity of 5");
        assertThat(http.get("/timers").text()).isEqualTo(before);
        assertThat(http.get("/timers/extra").status()).isEqualTo(404);
        assertThat(http.get("/queue/invariants").json().path("ok").asBoolean()).isTrue();
    }

    @Test
    void whenFull_readsEditsCancelAndAdvanceStillWork_andFreedRoomIsUsable() {
        assertThat(http.get("/timers/t0").status()).isEqualTo(200);
        assertThat(http.json("PATCH", "/timers/t4", "{\"delay\":1}").status()).isEqualTo(200);
        assertThat(http.send("DELETE", "/timers/t1", java.util.Map.of(), null).status()).isEqualTo(204);
        assertThat(add("after-cancel", 50).status()).isEqualTo(201);
        assertThat(add("still-full", 50).code()).isEqualTo("capacity_exceeded");

        HttpProbe.Reply advanced = http.json("POST", "/clock/advance", "{\"by\":10}");
        assertThat(advanced.status()).isEqualTo(200);
        assertThat(advanced.json().path("fired").size()).isEqualTo(2);   // t4 (edited to 1) and t0 (10)
        assertThat(add("after-advance-1", 50).status()).isEqualTo(201);
        assertThat(add("after-advance-2", 50).status()).isEqualTo(201);
        assertThat(add("full-again", 50).code()).isEqualTo("capacity_exceeded");
        assertThat(http.get("/queue").json().path("size").asInt()).isEqualTo(5);
    }

    private HttpProbe.Reply add(String id, long delay) {
        return http.json("POST", "/timers", "{\"id\":\"" + id + "\",\"delay\":" + delay + "}");
    }
}
