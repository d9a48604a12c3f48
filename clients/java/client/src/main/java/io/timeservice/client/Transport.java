package io.timeservice.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * HTTP/1.1 with JSON bodies over the JDK's client, one per {@link TimeServiceClient}. Thread-safe.
 *
 * <p>Retries: a call marked safe to repeat (reads, the idempotent {@code PUT} of a clock, acks, extends) is sent
 * again after a 503 or a transport failure, up to {@link #ATTEMPTS} times in all, waiting 50 ms, 100 ms, 200 ms
 * (each with up to half again of jitter) in between. Every other call is sent once: an add, edit, cancel, advance,
 * batch, claim or nack that failed in transit may have been applied, and only the caller can tell whether to repeat
 * it — unless it carries an {@code Idempotency-Key} ({@link Call#idempotencyKey}): then it is repeated too, and a 409
 * {@code idempotency_key_in_use} (the first attempt still running) is waited out the same way.
 */
final class Transport {

    static final int ATTEMPTS = 4;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long one call may take, beyond a long poll's own wait. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final URI base;
    private final String authorization;

    Transport(URI base, String token) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.authorization = token == null ? null : "Bearer " + token;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    URI base() {
        return base;
    }

    /** An answer: its status, its ETag header (or null) and its JSON body (a missing node when it had none). */
    record Answer(int status, String etag, JsonNode body) {
    }

    /** One request. {@code repeatable}: safe to send again (see the class comment). */
    record Call(String method, String path, JsonNode body, String ifMatch, boolean repeatable, Duration extraWait,
                String idempotencyKey, boolean keyOptional, String traceparent) {

        static Call get(String path) {
            return new Call("GET", path, null, null, true, Duration.ZERO, null, false, null);
        }

        static Call once(String method, String path, JsonNode body) {
            return new Call(method, path, body, null, false, Duration.ZERO, null, false, null);
        }

        static Call repeatable(String method, String path, JsonNode body) {
            return new Call(method, path, body, null, true, Duration.ZERO, null, false, null);
        }

        Call ifMatch(String tag) {
            return new Call(method, path, body, tag, repeatable, extraWait, idempotencyKey, keyOptional, traceparent);
        }

        Call waiting(Duration wait) {
            return new Call(method, path, body, ifMatch, repeatable, wait, idempotencyKey, keyOptional, traceparent);
        }

        /**
         * Sent with this W3C {@code traceparent} header (none when null): a settlement of a delivery sends the
         * delivery's, so the service records the ack, nack or extension in the trace of the request that added it.
         */
        Call inTrace(String parent) {
            return new Call(method, path, body, ifMatch, repeatable, extraWait, idempotencyKey, keyOptional, parent);
        }

        /**
         * Sent with this {@code Idempotency-Key} (none when null): the service answers a repeat with the first
         * answer, so the call becomes safe to send again, and it is, after a 503, a transport failure or a 409
         * {@code idempotency_key_in_use}.
         */
        Call idempotencyKey(String key) {
            return key == null ? this : new Call(method, path, body, ifMatch, true, extraWait, key, false, traceparent);
        }

        /**
         * As {@link #idempotencyKey}, for a key the client chose itself to make its own repeats safe (a
         * settlement's): when the service holds its most keys (429 {@code idempotency_key_limit}, refused before
         * anything ran) the call is sent once more without it rather than failing — an ack is harmless to repeat
         * anyway, and a nack or extend without a key is what it was before keys existed.
         */
        Call optionalIdempotencyKey(String key) {
            return new Call(method, path, body, ifMatch, true, extraWait, key, true, traceparent);
        }

        Call withoutIdempotencyKey() {
            return new Call(method, path, body, ifMatch, repeatable, extraWait, null, false, traceparent);
        }
    }

    /** Sends the call; a 4xx or 5xx answer is thrown as a {@link TimeServiceException}. */
    Answer send(Call call) {
        HttpRequest request = request(call);
        if (call.keyOptional()) {
            try {
                return sendAsIs(call, request);
            } catch (TimeServiceException e) {
                if (e.status() == 429 && "idempotency_key_limit".equals(e.code())) {
                    return sendAsIs(call.withoutIdempotencyKey(), request(call.withoutIdempotencyKey()));
                }
                throw e;
            }
        }
        return sendAsIs(call, request);
    }

    private Answer sendAsIs(Call call, HttpRequest request) {
        for (int attempt = 1; ; attempt++) {
            boolean last = !call.repeatable() || attempt == ATTEMPTS;
            HttpResponse<byte[]> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                if (last) {
                    throw new UncheckedIOException(call.method() + " " + call.path() + " failed: " + e, e);
                }
                pause(attempt);
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new InterruptedIOException(call.method() + " " + call.path()
                        + " interrupted"));
            }
            if (!last && (response.statusCode() == 503 || response.statusCode() == 409 && call.idempotencyKey() != null
                    && new String(response.body(), StandardCharsets.UTF_8).contains("\"idempotency_key_in_use\""))) {
                pause(attempt);
                continue;
            }
            return answer(response);
        }
    }

    /** Sends the call; an answer refused with the problem code {@code absent} ({@code timer_not_found}) is empty. */
    Optional<JsonNode> find(Call call, String absent) {
        try {
            return Optional.of(send(call).body());
        } catch (TimeServiceException e) {
            if (absent.equals(e.code())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private HttpRequest request(Call call) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + call.path()))
                .timeout(REQUEST_TIMEOUT.plus(call.extraWait())).header("Accept", "application/json");
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        if (call.idempotencyKey() != null) {
            builder.header("Idempotency-Key", call.idempotencyKey());
        }
        if (call.ifMatch() != null) {
            builder.header("If-Match", call.ifMatch());
        }
        if (call.traceparent() != null) {
            builder.header("traceparent", call.traceparent());
        }
        if (call.body() != null) {
            builder.header("Content-Type", "application/json").method(call.method(),
                    HttpRequest.BodyPublishers.ofByteArray(call.body().toString().getBytes(StandardCharsets.UTF_8)));
        } else {
            builder.method(call.method(), HttpRequest.BodyPublishers.noBody());
        }
        return builder.build();
    }

    private static Answer answer(HttpResponse<byte[]> response) {
        byte[] bytes = response.body();
        JsonNode body = MissingNode.getInstance();
        if (bytes.length > 0) {
            try {
                body = Json.MAPPER.readTree(bytes);
            } catch (IOException e) {
                if (response.statusCode() < 400) {
                    throw new UncheckedIOException("the service answered " + response.statusCode()
                            + " with a body that is not JSON", e);
                }
            }
        }
        if (response.statusCode() >= 400) {
            throw new TimeServiceException(problem(response, body));
        }
        return new Answer(response.statusCode(), response.headers().firstValue("ETag").orElse(null), body);
    }

    /** The problem the answer carries, or one made up from its status when it carries none (a proxy's page). */
    private static Problem problem(HttpResponse<byte[]> response, JsonNode body) {
        int status = response.statusCode();
        String path = response.request().uri().getPath();
        if (!body.hasNonNull("code")) {
            String code = status >= 500 ? "internal_error" : "client_error";
            return new Problem("urn:timeservice:problem:" + code, "HTTP " + status, status,
                    "the answer carried no problem detail", path, code, null, null);
        }
        JsonNode op = body.get("op");
        return new Problem(body.path("type").asText(null), body.path("title").asText(null), status,
                body.path("detail").asText(null), body.path("instance").asText(path), body.get("code").asText(),
                op == null || !op.canConvertToInt() ? null : op.asInt(), Json.text(body, "member"));
    }

    private static void pause(int attempt) {
        long millis = 50L << (attempt - 1);
        try {
            Thread.sleep(millis + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new InterruptedIOException("interrupted while backing off"));
        }
    }

    /** A path segment: ids and clock names are URL-safe when valid; anything else is percent-encoded as UTF-8. */
    static String segment(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "-._~:".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
