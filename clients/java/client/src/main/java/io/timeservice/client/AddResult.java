package io.timeservice.client;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What an add with {@link AddOptions#onConflict} did.
 *
 * @param result           {@code added} (201), {@code kept} or {@code replaced} (200)
 * @param timer            the timer added, kept or replaced; null when the clock keeps the id reserved (kept)
 * @param previousState    for a kept reservation, how its timer left: fired, acknowledged, dead or cancelled
 * @param previousTime     for a kept reservation, the clock time its window counts from
 * @param previousSequence for a kept reservation, its timer's sequence
 */
public record AddResult(String result, Timer timer, String previousState, Instant previousTime,
                        Long previousSequence) {

    static AddResult of(JsonNode node) {
        String result = node.path("result").asText("added");
        JsonNode previous = node.get("previous");
        if (previous != null) {
            return new AddResult(result, null, previous.get("state").asText(),
                    Instant.ofEpochMilli(previous.get("time").asLong()), previous.get("sequence").asLong());
        }
        return new AddResult(result, Timer.of(node), null, null, null);
    }

    /** Whether the add changed nothing (the pending timer or the reservation was kept). */
    public boolean kept() {
        return "kept".equals(result);
    }
}
