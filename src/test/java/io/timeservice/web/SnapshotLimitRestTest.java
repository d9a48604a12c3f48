package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * A snapshot has its own body limit, {@code timeservice.limits.max-snapshot-bytes}, in place of
 * {@code max-body-bytes}: here 4 KiB against 64 KiB, so a document between them is refused (413), declared or chunked,
 * and one below it loads; a save whose document is over it is refused the same way, so that what a save answers
 * loads back.
 */
@TestPropertySource(properties = "timeservice.limits.max-snapshot-bytes=4KB")
class SnapshotLimitRestTest extends RestTestSupport {

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    private static String documentOf(int timers) {
        StringBuilder document = new StringBuilder("{\"format\":1,\"clock\":{},\"timers\":[");
        for (int i = 0; i < timers; i++) {
            document.append(i == 0 ? "" : ",").append("{\"id\":\"timer-").append(i)
                    .append("\",\"fireTime\":5,\"sequence\":").append(i + 1).append('}');
        }
        return document.append("]}").toString();
    }

    @Test
    void aDocumentOverTheSnapshotLimit_isRefused413_declaredOrChunked_andOneUnderItLoads() throws Exception {
        String small = documentOf(40);
        String large = documentOf(100);
        assertThat(small.length()).isLessThan(4096);
        assertThat(large.length()).isGreaterThan(4096).isLessThan(65536);

        assertProblem(json(large).put("/clocks/big/snapshot"), 413, "payload_too_large");
        HttpResponse<String> chunked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/clocks/big/snapshot"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() ->
                        new ByteArrayInputStream(large.getBytes(StandardCharsets.UTF_8)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(chunked.body()).contains("\"code\":\"payload_too_large\"");
        given().get("/clocks/big").then().statusCode(404);

        json(small).put("/clocks/small/snapshot").then().statusCode(201);
        // every other body keeps max-body-bytes (64 KiB): the same text as a batch is refused for what it says
        assertProblem(json(large).post("/batch"), 400, "invalid_request");
    }

    @Test
    void aSave_whoseDocumentALoadWouldRefuse_isRefused413_beforeAByteOfIt_andOneUnderTheLimitLoadsBack() {
        for (int i = 0; i < 20; i++) {
            add("timer-" + i, 1_000 + i);
        }
        String saved = given().get("/clocks/default/snapshot").then().statusCode(200).extract().asString();
        assertThat(saved.length()).isLessThan(4096);
        json(saved).put("/clocks/copy/snapshot").then().statusCode(201);
        assertThat(given().get("/clocks/copy/snapshot").then().statusCode(200).extract().asString())
                .isEqualTo(saved.replace("\"name\":\"default\"", "\"name\":\"copy\""));

        for (int i = 20; i < 60; i++) {
            add("timer-" + i, 1_000 + i);
        }
        Response tooLarge = given().get("/clocks/default/snapshot");
        assertProblem(tooLarge, 413, "payload_too_large");
        assertThat(tooLarge.jsonPath().getString("detail")).contains("max-snapshot-bytes (4096 bytes)");
        given().get("/clocks/default").then().statusCode(200).body("size", equalTo(60));
    }
}
