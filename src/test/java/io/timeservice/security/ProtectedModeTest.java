package io.timeservice.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * No token configured and {@code open} not set: protected mode. Requests go through the real security filter chain
 * with the client address set as Tomcat would set it from the socket's peer.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(properties = {"timeservice.security.read-tokens=", "timeservice.security.write-tokens=",
        "timeservice.demo.enabled=true"})
@AutoConfigureMockMvc
class ProtectedModeTest {

    static final String ELSEWHERE = "203.0.113.7";

    @Autowired
    MockMvc mvc;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @BeforeEach
    void emptyTheQueue() throws Exception {
        mvc.perform(post("/demo/reset").with(from("127.0.0.1"))).andExpect(status().isOk());
    }

    @Test
    void everyMappedQueueCall_fromAnotherMachine_is403ProtectedMode_explainingHowToOpenIt() throws Exception {
        List<String> calls = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, ?> entry : mappings.getHandlerMethods().entrySet()) {
            Set<RequestMethod> methods = entry.getKey().getMethodsCondition().getMethods();
            for (String pattern : entry.getKey().getPatternValues()) {
                if (pattern.equals("/error") || pattern.startsWith("/v3/api-docs")
                        || pattern.startsWith("/swagger-ui")) {
                    continue;   // public on purpose: the error page and the API description carry no queue data
                }
                for (RequestMethod method : methods.isEmpty() ? Set.of(RequestMethod.GET) : methods) {
                    calls.add(method.name() + " " + pattern);
                }
            }
        }
        assertThat(calls).contains("GET /queue", "GET /timers/{id}", "POST /timers", "DELETE /timers/{id}",
                "POST /clock/advance", "POST /demo/reset");
        for (String call : calls) {
            String[] parts = call.split(" ");
            String path = parts[1].replaceAll("\\{[^}]*}", "some-id");
            MockHttpServletResponse response = mvc.perform(request(HttpMethod.valueOf(parts[0]), path)
                    .contentType(MediaType.APPLICATION_JSON).content("{}").with(from(ELSEWHERE)))
                    .andReturn().getResponse();
            assertProtectedMode(call, response, path);
        }
    }

    @Test
    void aChangeFromAnotherMachine_isRefused_andChangesNothing() throws Exception {
        MockHttpServletResponse refused = mvc.perform(post("/timers").contentType(MediaType.APPLICATION_JSON)
                .content("{\"id\":\"from-afar\",\"delay\":5}").with(from(ELSEWHERE))).andReturn().getResponse();
        assertProtectedMode("POST /timers", refused, "/timers");
        mvc.perform(get("/queue").with(from("127.0.0.1"))).andExpect(status().isOk())
                .andExpect(jsonPath("$.size").value(0));
    }

    @Test
    void actuator_fromAnotherMachine_givesOnlyTheBareHealthStatus() throws Exception {
        for (String path : new String[] {"/actuator/prometheus", "/actuator/metrics",
                "/actuator/metrics/jvm.threads.live", "/actuator/info", "/actuator"}) {
            assertProtectedMode(path, mvc.perform(get(path).with(from(ELSEWHERE))).andReturn().getResponse(),
                    path);
        }
        mvc.perform(get("/actuator/health").with(from(ELSEWHERE))).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components").doesNotExist())
                .andExpect(jsonPath("$.details").doesNotExist());
        String component = mvc.perform(get("/actuator/health/timerQueue").with(from(ELSEWHERE))).andReturn()
                .getResponse().getContentAsString();
        assertThat(component).doesNotContain("arity");
    }

    @Test
    void pageAssetsAndApiDescription_areServedToAnotherMachine_soThePageCanExplain() throws Exception {
        for (String path : new String[] {"/security-probe.txt", "/js/api.js", "/v3/api-docs",
                "/swagger-ui/index.html"}) {
            mvc.perform(get(path).with(from(ELSEWHERE))).andExpect(status().isOk());
        }
        int page = mvc.perform(get("/").with(from(ELSEWHERE))).andReturn().getResponse().getStatus();
        assertThat(page).isNotIn(401, 403);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.5.6.7", "::1", "0:0:0:0:0:0:0:1"})
    void loopbackClients_keepTheOpenService(String loopback) throws Exception {
        mvc.perform(post("/timers").contentType(MediaType.APPLICATION_JSON).content("{\"id\":\"local\",\"delay\":5}")
                .with(from(loopback))).andExpect(status().isCreated());
        mvc.perform(get("/timers/local").with(from(loopback))).andExpect(status().isOk());
        mvc.perform(get("/actuator/prometheus").with(from(loopback))).andExpect(status().isOk());
        mvc.perform(get("/actuator/health").with(from(loopback))).andExpect(status().isOk())
                .andExpect(jsonPath("$.components.timerQueue.details.arity").value(4));
        mvc.perform(request(HttpMethod.DELETE, "/timers/local").with(from(loopback)))
                .andExpect(status().isNoContent());
    }

    @Test
    void forwardedHeaders_countForNothing_withTheDefaultStrategy() throws Exception {
        for (String[] claim : new String[][] {{"X-Forwarded-For", "127.0.0.1"}, {"Forwarded", "for=127.0.0.1"},
                {"X-Real-IP", "127.0.0.1"}, {"X-Forwarded-For", "::1, 127.0.0.1"}}) {
            MockHttpServletResponse response = mvc.perform(get("/queue").header(claim[0], claim[1])
                    .with(from(ELSEWHERE))).andReturn().getResponse();
            assertProtectedMode(claim[0] + ": " + claim[1], response, "/queue");
        }
        mvc.perform(get("/queue").header("X-Forwarded-For", ELSEWHERE).header("Forwarded", "for=" + ELSEWHERE)
                .with(from("127.0.0.1"))).andExpect(status().isOk());
    }

    @Test
    void aBearerHeader_fromAnotherMachine_unlocksNothing() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/queue")
                .header("Authorization", "Bearer any-token-at-all-0123456789").with(from(ELSEWHERE)))
                .andReturn().getResponse();
        assertProtectedMode("with a bearer header", response, "/queue");
    }

    @Test
    void startUp_saysItIsInProtectedMode_withoutTheOpenWarning(CapturedOutput output) {
        assertThat(output.getAll()).contains("No API token is configured: protected mode")
                .doesNotContain("the API is open")
                .doesNotContainIgnoringCase("generated security password");
    }

    private static void assertProtectedMode(String what, MockHttpServletResponse response, String path)
            throws Exception {
        assertThat(response.getStatus()).as(what).isEqualTo(403);
        assertThat(response.getContentType()).as(what).isEqualTo("application/problem+json");
        assertThat(response.getHeader("WWW-Authenticate")).as(what + ": no token would help yet").isNull();
        String body = response.getContentAsString();
        assertThat(body).as(what)
                .contains("\"code\":\"protected_mode\"", "\"type\":\"urn:timeservice:problem:protected_mode\"",
                        "\"status\":403", "\"title\":\"Forbidden\"", "\"instance\":\"" + path.split("\\?")[0] + "\"",
                        "not " + ELSEWHERE, "timeservice.security.write-tokens", "TIMESERVICE_SECURITY_WRITE_TOKENS",
                        "timeservice.security.open=true");
    }

    /** The client address as Tomcat reports the socket's peer. */
    static RequestPostProcessor from(String address) {
        return request -> {
            request.setRemoteAddr(address);
            return request;
        };
    }
}
