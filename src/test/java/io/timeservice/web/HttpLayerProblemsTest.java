package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Refusals that happen before a controller runs still answer problem+json with a known code and no internals. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HttpLayerProblemsTest {

    @LocalServerPort
    int port;

    private HttpProbe http;

    @BeforeEach
    void setUp() {
        http = new HttpProbe(port);
    }

    @Test
    void requestsTomcatRefusesByItself_getProblemJsonInsteadOfAnHtmlPage() {
        for (String path : new String[] {"/timers/%2F", "/timers/a%00b", "/timers/%FF%FE", "/timers/..%2Fx"}) {
            HttpProbe.Reply reply = http.get(path);
            assertThat(reply.status()).as(path).isEqualTo(400);
            assertThat(reply.isProblem()).as(path + " " + reply.text()).isTrue();
            assertThat(reply.code()).as(path).isEqualTo("invalid_request");
            assertThat(reply.text()).as(path).doesNotContain("<html", "Tomcat", "Exception");
        }
    }

    @Test
    void headersOverTheLimit_getA400Problem() {
        HttpProbe.Reply reply = http.send("GET", "/queue", Map.of("X-Padding", "p".repeat(10_000)), null);
        assertThat(reply.status()).isIn(400, 431);
        assertThat(reply.isProblem()).as(reply.text()).isTrue();
        assertThat(reply.code()).isEqualTo("invalid_request");
    }

    @Test
    void errorPathAskedForDirectly_is404NotA500() {
        for (String method : new String[] {"GET", "POST", "DELETE"}) {
            HttpProbe.Reply reply = http.send(method, "/error", Map.of(), null);
            assertThat(reply.status()).as(method).isEqualTo(404);
            assertThat(reply.code()).as(method).isEqualTo("not_found");
        }
    }

    @Test
    void healthDetails_neverNameAPathOnThisMachine() {
        HttpProbe.Reply reply = http.get("/actuator/health");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("components").has("timerQueue")).as(reply.text()).isTrue();
        assertThat(reply.text()).doesNotContain(System.getProperty("user.dir"), "diskSpace");
    }

    @Test
    void actuatorRefusalsWithoutBody_getAProblemBody() {
        for (String path : new String[] {"/actuator/health/no-such-group", "/actuator/metrics/no.such.metric"}) {
            HttpProbe.Reply reply = http.get(path);
            assertThat(reply.status()).as(path).isEqualTo(404);
            assertThat(reply.isProblem()).as(path).isTrue();
            assertThat(reply.code()).as(path).isEqualTo("not_found");
        }
        assertThat(http.get("/actuator/prometheus").text()).contains("timer_queue_depth");   // bodies pass through
    }
}
