package io.timeservice.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How answers go on the wire: small ones in one piece with their length (see config.SingleWriteResponses), large
 * ones chunked and complete; and no Spring Security observations on the request path.
 */
class ResponseFramingTest extends RestTestSupport {

    @Autowired
    MeterRegistry registry;

    @Test
    void smallAnswers_carryTheirContentLength_insteadOfBeingChunked() {
        Response created = add("A", 5);
        assertFramedByLength(created);

        assertFramedByLength(given().get("/timers/A"));
        assertFramedByLength(given().get("/timers/missing"));   // a problem answer too
        assertFramedByLength(json("{\"by\":5}").post("/clock/advance"));
    }

    @Test
    void anAnswerLargerThanTomcatsBuffer_isStillSentWhole() {
        for (int i = 0; i < 400; i++) {
            add("timer-" + i, i);
        }
        Response listing = given().queryParam("limit", 400).get("/timers");
        listing.then().statusCode(200);

        assertThat(listing.asByteArray().length).isGreaterThan(16 * 1024);
        assertThat(listing.jsonPath().getList("timers.id")).hasSize(400).first().isEqualTo("timer-0");
    }

    @Test
    void springSecurityRecordsNoObservationsPerRequest() {
        add("A", 5);
        given().get("/timers/A").then().statusCode(200);

        assertThat(registry.getMeters()).noneMatch(meter -> meter.getId().getName().startsWith("spring.security"));
        assertThat(registry.find("http.server.requests").meters()).isNotEmpty();
    }

    private static void assertFramedByLength(Response response) {
        byte[] body = response.asByteArray();
        assertThat(response.getHeader("Transfer-Encoding")).isNull();
        assertThat(response.getHeader("Content-Length")).isEqualTo(String.valueOf(body.length));
        assertThat(body.length).isPositive();
    }
}
