package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/** Every documented operation declares the 403 {@code protected_mode} that a caller from another machine gets. */
@SpringBootTest(properties = {"timeservice.security.read-tokens=", "timeservice.security.write-tokens="})
@AutoConfigureMockMvc
class ProtectedModeContractTest {

    private static final OpenApiContract CONTRACT = OpenApiContract.INSTANCE;

    @Autowired
    MockMvc mvc;

    @Test
    void everyDocumentedOperation_fromAnotherMachine_answersTheDocumented403ProtectedMode() throws Exception {
        for (String template : CONTRACT.paths()) {
            String path = template.replaceAll("\\{[^/}]+}", "contract-probe");
            for (String method : CONTRACT.methods(template)) {
                String upper = method.toUpperCase(Locale.ROOT);
                MockHttpServletResponse response = mvc.perform(request(HttpMethod.valueOf(upper), path)
                        .contentType(MediaType.APPLICATION_JSON).content("{}")
                        .with(call -> {
                            call.setRemoteAddr("203.0.113.7");
                            return call;
                        })).andReturn().getResponse();

                String body = response.getContentAsString();
                assertThat(response.getStatus()).as(upper + " " + template + " " + body).isEqualTo(403);
                assertThat(CONTRACT.violations(exchange(upper, path, response))).as(upper + " " + template)
                        .isEmpty();
            }
        }
    }

    @Test
    void theContract_tellsProtectedModeFromForbidden_onAReadOperation() {
        String forbidden = "{\"type\":\"urn:timeservice:problem:forbidden\",\"title\":\"Forbidden\",\"status\":403,"
                + "\"detail\":\"d\",\"instance\":\"/queue\",\"code\":\"forbidden\"}";
        assertThat(CONTRACT.violations(new OpenApiContract.Exchange("GET", "/queue", null, null, 403,
                "application/problem+json", Map.of(), forbidden))).isNotEmpty();
    }

    private static OpenApiContract.Exchange exchange(String method, String path, MockHttpServletResponse response)
            throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : response.getHeaderNames()) {
            headers.put(name, String.join(", ", response.getHeaders(name)));
        }
        return new OpenApiContract.Exchange(method, path, MediaType.APPLICATION_JSON_VALUE, "{}",
                response.getStatus(), response.getContentType(), headers, response.getContentAsString());
    }
}
