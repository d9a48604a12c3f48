package io.timeservice.client;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A clock saved as the service's snapshot document ({@code GET /clocks/{clock}/snapshot}, format 1): its time and
 * settings, every pending timer, every schedule with its counts and every delivery (an in-flight one saved ready, no
 * claim token, no push secrets). {@link TimeServiceClient#loadClock} creates a clock from it that fires exactly what
 * the saved one would. A fixture kept in a repository is one too: {@code ClockSnapshot.of(Files.readString(path))}.
 * The document's members are in the service's docs/API.md and {@code openapi.yaml} ({@code Snapshot}).
 *
 * @param json the document as compact JSON
 */
public record ClockSnapshot(String json) {

    public ClockSnapshot {
        Objects.requireNonNull(json, "json");
    }

    /** The document in {@code json}; refused with an {@link IllegalArgumentException} when it is not a JSON object. */
    public static ClockSnapshot of(String json) {
        JsonNode document = Json.parse(json);
        if (!document.isObject()) {
            throw new IllegalArgumentException("a snapshot is a JSON object, not " + document.getNodeType());
        }
        return new ClockSnapshot(document.toString());
    }

    /** The name of the clock it was saved from (or the name a hand-written document gives), or null when none. */
    public String clockName() {
        return Json.text(Json.parse(json).path("clock"), "name");
    }

    JsonNode document() {
        return Json.parse(json);
    }
}
