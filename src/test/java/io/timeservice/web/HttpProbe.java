package io.timeservice.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small java.net.http client for the web tests: HTTP/1.1 to 127.0.0.1 only, every request bounded by a timeout, the
 * body kept as bytes (it may be anything) and parsed as JSON on demand.
 */
final class HttpProbe {

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final int port;

    HttpProbe(int port) {
        this.port = port;
    }

    Reply send(String method, String rawPathAndQuery, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + rawPathAndQuery))
                .timeout(TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().map(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + rawPathAndQuery + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends the body without a Content-Length (chunked), as a client streaming it would. */
    Reply sendStreamed(String method, String rawPathAndQuery, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + rawPathAndQuery))
                .timeout(TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body)));
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().map(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + rawPathAndQuery + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Reply get(String path) {
        return send("GET", path, Map.of(), null);
    }

    Reply json(String method, String path, String body) {
        return send(method, path, Map.of("Content-Type", "application/json"), body.getBytes(StandardCharsets.UTF_8));
    }

    record Reply(int status, String contentType, Map<String, java.util.List<String>> headers, byte[] body) {

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            return JsonMapper.shared().readTree(body);
        }

        String code() {
            return json().path("code").asString();
        }

        boolean isProblem() {
            return contentType.startsWith("application/problem+json");
        }
    }
}
