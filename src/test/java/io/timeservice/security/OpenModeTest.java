package io.timeservice.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.springframework.beans.factory.annotation.Autowired;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/**
 * No token configured and {@code timeservice.security.open=true}: everything is open to every client, health shows
 * its details, and start-up warns exactly once.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.capacity=4242", "timeservice.security.read-tokens=",
                "timeservice.security.write-tokens=", "timeservice.security.open=true"})
@AutoConfigureMockMvc
class OpenModeTest {

    private static final Pattern OPEN_WARNING = Pattern.compile(" WARN .*No API token is configured");

    @LocalServerPort
    int port;

    @Autowired
    MockMvc mvc;

    @BeforeEach
    void setUp() {
        RestAssured.port = port;
    }

    @Test
    void startUp_warnsExactlyOnceThatTheApiIsOpen(CapturedOutput output) {
        Matcher matcher = OPEN_WARNING.matcher(output.getAll());
        int warnings = 0;
        while (matcher.find()) {
            warnings++;
        }
        assertThat(warnings).as(output.getAll()).isEqualTo(1);
        assertThat(output.getAll()).doesNotContainIgnoringCase("generated security password");
    }

    @Test
    void everyCallWorksWithoutToken_andAnyAuthorizationHeaderIsIgnored() {
        given().contentType(ContentType.JSON).body("{\"id\":\"open-1\",\"delay\":5}").post("/timers")
                .then().statusCode(201);
        given().header("Authorization", "Bearer not-a-configured-token").get("/timers/open-1")
                .then().statusCode(200);
        given().header("Authorization", "Basic garbage").delete("/timers/open-1").then().statusCode(204);
        given().get("/actuator/prometheus").then().statusCode(200);
        given().get("/actuator/health").then().statusCode(200)
                .body("components.timerQueue.details.arity", equalTo(4));
    }

    @Test
    void clientsOnOtherMachines_areServedToo() throws Exception {
        mvc.perform(post("/timers").contentType(MediaType.APPLICATION_JSON).content("{\"id\":\"afar\",\"delay\":5}")
                .with(ProtectedModeTest.from(ProtectedModeTest.ELSEWHERE))).andExpect(status().isCreated());
        mvc.perform(get("/timers/afar").with(ProtectedModeTest.from(ProtectedModeTest.ELSEWHERE)))
                .andExpect(status().isOk());
        mvc.perform(get("/actuator/prometheus").with(ProtectedModeTest.from(ProtectedModeTest.ELSEWHERE)))
                .andExpect(status().isOk());
        mvc.perform(get("/actuator/health").with(ProtectedModeTest.from(ProtectedModeTest.ELSEWHERE)))
                .andExpect(status().isOk()).andExpect(jsonPath("$.components.timerQueue.details.arity").value(4));
    }
}
