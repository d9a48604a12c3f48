package io.timeservice.security;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Protected mode over real sockets, through Tomcat: forwarded headers decide the client's address only when the
 * operator turns their handling on. The test client connects from loopback, so it plays the reverse proxy.
 */
class ForwardedHeadersTest {

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = "spring.main.cloud-platform=kubernetes")
    class OnADetectedCloudPlatform_byDefault {

        @LocalServerPort
        int port;

        @Test
        void xForwardedFor_fromALoopbackPeer_doesNotTurnItIntoAnotherMachine() {
            // Boot alone would trust the header on Kubernetes; then a pod could equally claim to be 127.0.0.1.
            at(port).header("X-Forwarded-For", ProtectedModeTest.ELSEWHERE).get("/queue").then().statusCode(200);
            at(port).header("Forwarded", "for=" + ProtectedModeTest.ELSEWHERE).get("/queue").then().statusCode(200);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = "server.forward-headers-strategy=native")
    class WithNativeHandling_enabledByTheOperator {

        @LocalServerPort
        int port;

        @Test
        void theAddressTheProxyForwards_isTheClient() {
            at(port).header("X-Forwarded-For", ProtectedModeTest.ELSEWHERE).get("/queue").then().statusCode(403)
                    .body("code", equalTo("protected_mode"))
                    .body("detail", containsString("not " + ProtectedModeTest.ELSEWHERE));
            at(port).header("X-Forwarded-For", "127.0.0.1").get("/queue").then().statusCode(200);
            at(port).get("/queue").then().statusCode(200);
        }

        @Test
        void aLoopbackAddressTheClientPutInFront_doesNotUnlock() {
            // The client sent "X-Forwarded-For: 127.0.0.1"; the proxy appended the address it really came from.
            at(port).header("X-Forwarded-For", "127.0.0.1, " + ProtectedModeTest.ELSEWHERE).get("/queue").then()
                    .statusCode(403).body("code", equalTo("protected_mode"));
        }
    }

    private static RequestSpecification at(int port) {
        return RestAssured.given().baseUri("http://127.0.0.1").port(port);
    }
}
