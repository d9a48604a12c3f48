package io.timeservice.client;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A pending timer as the service answered it (or, in what an advance fired, as it was when it fired).
 *
 * @param id          the caller's id
 * @param fireTime    when it is due, in the clock's time (a virtual clock's milliseconds from the epoch)
 * @param priority    the second key of the firing order; smaller fires first
 * @param sequence    the third key, given at the add from a strictly increasing counter and kept by edits
 * @param version     1 at the add, plus one per edit
 * @param createdAt   the clock's time of the add
 * @param payloadJson the caller's payload as compact JSON, or null when it has none
 * @param schedule    for an occurrence of a recurring schedule ({@link ScheduleClient}), the schedule's id; null for
 *                    a timer a client added
 * @param key         its flow-control key ({@link AddOptions#key}), or null for none
 */
public record Timer(String id, Instant fireTime, int priority, long sequence, long version, Instant createdAt,
                    String payloadJson, String schedule, String key) {

    /** A timer without a flow-control key. */
    public Timer(String id, Instant fireTime, int priority, long sequence, long version, Instant createdAt,
                 String payloadJson, String schedule) {
        this(id, fireTime, priority, sequence, version, createdAt, payloadJson, schedule, null);
    }

    /** The strong entity tag of this revision, {@code "<sequence>-<version>"}: pass it as If-Match. */
    public String etag() {
        return "\"" + sequence + "-" + version + "\"";
    }

    static Timer of(JsonNode node) {
        return new Timer(node.get("id").asText(), Json.instant(node, "fireTime"), node.path("priority").asInt(),
                node.get("sequence").asLong(), node.get("version").asLong(), Json.instant(node, "createdAt"),
                Json.payload(node), Json.text(node, "schedule"), Json.text(node, "key"));
    }
}
