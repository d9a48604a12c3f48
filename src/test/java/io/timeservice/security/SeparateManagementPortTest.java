package io.timeservice.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.restassured.RestAssured;
import io.timeservice.TimeServiceApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Actuator on a port of its own, the other way to keep metrics off the public port. */
class SeparateManagementPortTest {

    private static final String READ = "mgmt-read-token-0123456789";
    private static final String WRITE = "mgmt-write-token-0123456789";

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "management.server.port=0", "timeservice.security.open-actuator=true",
            "timeservice.security.read-tokens=" + READ, "timeservice.security.write-tokens=" + WRITE})
    class OpenActuator {

        @LocalServerPort
        int port;

        @LocalManagementPort
        int managementPort;

        @BeforeEach
        void setUp() {
            RestAssured.port = port;
        }

        @Test
        void metricsAnswerWithoutTokenOnTheManagementPort_whileTheApiStillNeedsOne() {
            assertThat(managementPort).isNotEqualTo(port);
            given().port(managementPort).get("/actuator/prometheus").then().statusCode(200);
            given().port(managementPort).get("/actuator/metrics").then().statusCode(200);
            given().port(managementPort).get("/actuator/health").then().statusCode(200);
            given().get("/actuator/prometheus").then().statusCode(404);   // not served on the API port at all
            given().get("/queue").then().statusCode(401).body("code", equalTo("unauthorized"));
            given().header("Authorization", "Bearer " + READ).get("/queue").then().statusCode(200);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "management.server.port=0",
            "timeservice.security.read-tokens=" + READ, "timeservice.security.write-tokens=" + WRITE})
    class ProtectedActuator {

        @LocalManagementPort
        int managementPort;

        @Test
        void metricsNeedTheReadScope_onTheManagementPortToo() {
            given().port(managementPort).get("/actuator/prometheus").then().statusCode(401)
                    .body("code", equalTo("unauthorized"));
            given().port(managementPort).header("Authorization", "Bearer " + READ).get("/actuator/prometheus")
                    .then().statusCode(200);
            given().port(managementPort).get("/actuator/health").then().statusCode(200);
        }
    }

    /** No token: protected mode on both ports. Native forwarded headers let the loopback test client play a proxy. */
    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "management.server.port=0", "server.forward-headers-strategy=native",
            "timeservice.security.read-tokens=", "timeservice.security.write-tokens="})
    class ProtectedMode {

        @LocalServerPort
        int port;

        @LocalManagementPort
        int managementPort;

        @Test
        void metricsFromAnotherMachine_are403ProtectedMode_onTheManagementPortToo_healthGivesItsStatus() {
            assertThat(managementPort).isNotEqualTo(port);
            given().port(managementPort).header("X-Forwarded-For", "203.0.113.7").get("/actuator/prometheus")
                    .then().statusCode(403).body("code", equalTo("protected_mode"));
            given().port(managementPort).header("X-Forwarded-For", "203.0.113.7").get("/actuator/health")
                    .then().statusCode(200).body("status", equalTo("UP")).body("components", nullValue());
            given().port(managementPort).get("/actuator/prometheus").then().statusCode(200);
            given().port(port).header("X-Forwarded-For", "203.0.113.7").get("/queue")
                    .then().statusCode(403).body("code", equalTo("protected_mode"));
        }
    }

    @Test
    void openActuator_onTheApiPort_stopsStartUp_withOrWithoutTokens() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(TimeServiceApplication.class);
        assertThatThrownBy(() -> app.run("--server.port=0", "--timeservice.security.open-actuator=true").close())
                .hasStackTraceContaining("timeservice.security.open-actuator=true needs management.server.port");
    }

    @Test
    void openActuator_onTheApiPort_stopsStartUpWithAMessageNamingTheProperty() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(TimeServiceApplication.class);
        assertThatThrownBy(() -> app.run("--server.port=0", "--timeservice.security.open-actuator=true",
                "--timeservice.security.read-tokens=" + READ).close())
                .hasStackTraceContaining("timeservice.security.open-actuator=true needs management.server.port");
    }
}
