package io.timeservice.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The client's one JSON mapper and the readings shared by the value types. Times on the wire are the clock's
 * milliseconds (virtual milliseconds from 0, or Unix epoch milliseconds on a system clock); the client shows both as
 * {@link Instant}s from the epoch, so a virtual clock at 0 reads {@code 1970-01-01T00:00:00Z}.
 */
final class Json {

    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** The field as an Instant, or null when it is absent or null. */
    static Instant instant(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : Instant.ofEpochMilli(value.asLong());
    }

    /** The field as compact JSON text, or null when it is absent or null. */
    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.isTextual() ? value.asText() : value.toString();
    }

    /** The payload member as compact JSON, or null when there is none. */
    static String payload(JsonNode node) {
        JsonNode value = node.get("payload");
        return value == null || value.isNull() ? null : value.toString();
    }

    /** Puts {@code payload} (JSON text, or null for none) into the request; malformed JSON is the caller's mistake. */
    static void putPayload(ObjectNode request, String payloadJson) {
        if (payloadJson != null) {
            request.set("payload", parse(payloadJson));
        }
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + type.getName() + " from " + json, e);
        }
    }

    /** Milliseconds of a non-negative duration, the unit of every delay, lease and backoff on the wire. */
    static long millis(Duration duration, String name) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must be >= 0: " + duration);
        }
        return duration.toMillis();
    }
}
