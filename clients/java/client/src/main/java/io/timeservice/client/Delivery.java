package io.timeservice.client;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A fired timer on its way to a worker. Delivery is at least once: the same delivery can come again (its lease ended
 * before the ack arrived), so a consumer deduplicates on {@link #sequence()}, which no other timer of the service
 * ever has.
 *
 * @param id          the timer's id
 * @param sequence    the timer's sequence; tells apart deliveries of one id
 * @param attempt     1 for the first delivery, one more for each retry
 * @param fireTime    when the timer was due, in the clock's time
 * @param priority    the timer's priority
 * @param payloadJson the timer's payload as compact JSON, or null when it has none
 * @param state       where the delivery is
 * @param claim       the lease's token while in flight, otherwise null
 * @param leaseUntil  when the lease ends (the clock's time) while in flight, otherwise null
 * @param readyAt     when it last became ready
 * @param retryAt     when it is ready again while waiting, otherwise null
 * @param deadReason  why it is dead, otherwise null
 * @param schedule    for an occurrence of a recurring schedule, the schedule's id; otherwise null
 * @param traceparent the W3C trace context of the request that added the timer, which a worker continues; or null
 * @param tracestate  its W3C {@code tracestate}, or null
 * @param key         its timer's flow-control key ({@link AddOptions#key}), or null for none
 */
public record Delivery(String id, long sequence, int attempt, Instant fireTime, int priority, String payloadJson,
                       State state, String claim, Instant leaseUntil, Instant readyAt, Instant retryAt,
                       String deadReason, String schedule, String traceparent, String tracestate, String key) {

    /** A delivery without a flow-control key. */
    public Delivery(String id, long sequence, int attempt, Instant fireTime, int priority, String payloadJson,
                    State state, String claim, Instant leaseUntil, Instant readyAt, Instant retryAt,
                    String deadReason, String schedule, String traceparent, String tracestate) {
        this(id, sequence, attempt, fireTime, priority, payloadJson, state, claim, leaseUntil, readyAt, retryAt,
                deadReason, schedule, traceparent, tracestate, null);
    }

    /** A delivery without a trace context (as before services kept one). */
    public Delivery(String id, long sequence, int attempt, Instant fireTime, int priority, String payloadJson,
                    State state, String claim, Instant leaseUntil, Instant readyAt, Instant retryAt,
                    String deadReason, String schedule) {
        this(id, sequence, attempt, fireTime, priority, payloadJson, state, claim, leaseUntil, readyAt, retryAt,
                deadReason, schedule, null, null, null);
    }

    /** Where a delivery is. */
    public enum State { READY, IN_FLIGHT, WAITING, DEAD }

    /** The payload read as {@code type} with Jackson's defaults, or null when the timer has no payload. */
    public <T> T payload(Class<T> type) {
        return payloadJson == null ? null : Json.read(payloadJson, type);
    }

    static Delivery of(JsonNode node) {
        return new Delivery(node.get("id").asText(), node.get("sequence").asLong(), node.get("attempt").asInt(),
                Json.instant(node, "fireTime"), node.path("priority").asInt(), Json.payload(node),
                State.valueOf(node.get("state").asText().toUpperCase(java.util.Locale.ROOT)),
                Json.text(node, "claim"), Json.instant(node, "leaseUntil"), Json.instant(node, "readyAt"),
                Json.instant(node, "retryAt"), Json.text(node, "deadReason"), Json.text(node, "schedule"),
                Json.text(node, "traceparent"), Json.text(node, "tracestate"), Json.text(node, "key"));
    }
}
