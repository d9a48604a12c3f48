package io.timeservice.config;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Stopping the service answers every long poll at once; starting it again (as the test framework does when it
 * resumes a paused context) lets polls wait again. Before, a stop ended waits for good, so a resumed context
 * answered every long poll empty at once.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LongPollShutdownTest {

    @LocalServerPort
    int port;

    @Autowired
    LongPollShutdown longPolls;

    @BeforeEach
    void aQueueClock() {
        RestAssured.port = port;
        given().delete("/clocks/polled");
        given().contentType(ContentType.JSON).body("{\"delivery\":\"queue\"}").put("/clocks/polled").then()
                .statusCode(201);
    }

    @Test
    void aStop_endsWaits_andAStartLetsThemWaitAgain() {
        longPolls.stop();
        long stopped = System.nanoTime();
        assertThat(claimWaiting(20_000)).isEmpty();
        assertThat(System.nanoTime() - stopped).as("answered long before its 20 s")
                .isLessThan(Duration.ofSeconds(15).toNanos());

        longPolls.start();
        long started = System.nanoTime();
        assertThat(claimWaiting(3_000)).isEmpty(); // long enough that no slow round trip alone explains it
        assertThat(System.nanoTime() - started).as("waited its 3 s").isGreaterThanOrEqualTo(3_000_000_000L);
    }

    private static List<Object> claimWaiting(long waitMillis) {
        return given().contentType(ContentType.JSON).body("{\"wait\":" + waitMillis + "}")
                .post("/clocks/polled/deliveries/claim").then().statusCode(200).extract().path("deliveries");
    }
}
