package io.timeservice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One HTTP client (the JDK's {@link HttpClient}, HTTP/1.1) of one service instance, for the integration tests that
 * drive the packaged jar ({@link ServiceProcess}): JSON in, the answer as it came. Not shared between threads that stand for different
 * clients; each such thread makes its own.
 */
public final class ServiceApi {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public ServiceApi(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** {@code body} is JSON, or null for none. */
    public HttpResponse<String> send(String method, String path, String body) throws IOException {
        return send(method, path, body, new String[0]);
    }

    /** As {@link #send(String, String, String)}, with {@code headers}: names and values in turn. */
    public HttpResponse<String> send(String method, String path, String body, String... headers)
            throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + method + " " + path, e);
        }
    }

    /** The JSON answer of a call that must answer {@code status}; fails with the answer otherwise. */
    public JsonNode expect(int status, String method, String path, String body) throws IOException {
        HttpResponse<String> response = send(method, path, body);
        assertThat(response.statusCode()).as(method + " " + path + " answered " + response.body())
                .isEqualTo(status);
        return response.body().isEmpty() ? null : JSON.readTree(response.body());
    }

    /** Creates a clock: {@code mode} virtual or system, {@code delivery} response or queue. */
    public void createClock(String clock, String mode, String delivery) throws IOException {
        expect(201, "PUT", "/clocks/" + clock, "{\"mode\":\"" + mode + "\",\"delivery\":\"" + delivery + "\"}");
    }

    /** Claims up to {@code max} deliveries, waiting up to {@code waitMillis} for one; they come in firing order. */
    public List<JsonNode> claim(String clock, int max, long leaseMillis, long waitMillis) throws IOException {
        JsonNode answer = expect(200, "POST", "/clocks/" + clock + "/deliveries/claim",
                "{\"max\":" + max + ",\"lease\":" + leaseMillis + ",\"wait\":" + waitMillis + "}");
        List<JsonNode> deliveries = new ArrayList<>();
        answer.get("deliveries").forEach(deliveries::add);
        return deliveries;
    }

    /** Acknowledges claimed deliveries in one request: each one's outcome, in order ({@code acked} or a code). */
    public List<String> ackAll(String clock, List<JsonNode> deliveries) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode acks = body.putArray("acks");
        for (JsonNode delivery : deliveries) {
            acks.addObject().put("id", delivery.get("id").asString()).put("claim", delivery.get("claim").asString());
        }
        JsonNode answer = expect(200, "POST", "/clocks/" + clock + "/deliveries/ack", body.toString());
        List<String> outcomes = new ArrayList<>();
        answer.get("results").forEach(result -> outcomes.add(result.get("outcome").asString()));
        return outcomes;
    }

    /** A clock's deliveries by state ({@code ready}, {@code inFlight}, {@code waiting}, {@code dead}). */
    public JsonNode deliveryCounts(String clock) throws IOException {
        return expect(200, "GET", "/clocks/" + clock + "/deliveries", null);
    }
}
