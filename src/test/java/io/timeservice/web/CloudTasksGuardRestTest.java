package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A task's URL passes the push SSRF guard (issue 47): without {@code timeservice.push.allow-private-targets} a loopback
 * or cloud-metadata target is INVALID_ARGUMENT at create, in Google's error shape, and no task is stored.
 */
class CloudTasksGuardRestTest extends RestTestSupport {

    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void deleteQueues() {
        deleteClocksButDefault();
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void privateTargets_areRefusedWithoutTheOptIn_asForPush() throws Exception {
        assertThat(post(CloudTasksRestTest.QUEUES, "{\"name\":\"" + CloudTasksRestTest.QUEUE + "\"}").statusCode())
                .isEqualTo(200);
        for (String url : new String[] {"http://127.0.0.1:9/hook", "http://169.254.169.254/latest/meta-data"}) {
            HttpResponse<String> refused = post("/v2/" + CloudTasksRestTest.QUEUE + "/tasks",
                    "{\"task\":{\"httpRequest\":{\"url\":\"" + url + "\"}}}");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            JsonNode error = JsonMapper.shared().readTree(refused.body()).path("error");
            assertThat(error.path("status").asString()).isEqualTo("INVALID_ARGUMENT");
        }
        given().get("/clocks/" + CloudTasksRestTest.CLOCK).then().statusCode(200)
                .body("size", org.hamcrest.Matchers.equalTo(0));
    }
}
