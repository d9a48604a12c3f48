package io.timeservice.client;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A clock as the service describes it.
 *
 * @param name         the clock's name
 * @param now          its time: virtual milliseconds from the epoch, or the wall clock for a system clock
 * @param system       true for a clock on the wall clock
 * @param queued       true when fired timers become deliveries that workers claim
 * @param retry        the delivery retry policy
 * @param size         how many timers are pending
 * @param nextFireTime the next pending timer's fireTime, or null when none is pending
 * @param createdAt    the wall-clock time of the creation (the epoch for {@code default})
 * @param deliveries   the deliveries by state, or null for a clock that neither queues nor pushes
 * @param rate         a scaled clock's current rate (clock milliseconds per wall-clock millisecond), otherwise null
 * @param push         a push clock's target, otherwise null
 * @param paused       true while the clock is paused ({@link ClockClient#pause}): its deliveries are held back
 */
public record ClockInfo(String name, Instant now, boolean system, boolean queued, RetryPolicy retry, long size,
                        Instant nextFireTime, Instant createdAt, DeliveryCounts deliveries, Double rate,
                        PushTargetInfo push, boolean paused) {

    /** True for a scaled clock ({@link ClockOptions#scaled}). */
    public boolean scaled() {
        return rate != null;
    }

    static ClockInfo of(JsonNode node) {
        JsonNode deliveries = node.get("deliveries");
        JsonNode rate = node.get("rate");
        JsonNode push = node.get("push");
        return new ClockInfo(node.get("name").asText(), Json.instant(node, "now"),
                "system".equals(node.path("mode").asText()), "queue".equals(node.path("delivery").asText()),
                RetryPolicy.of(node.get("retry")), node.get("size").asLong(), Json.instant(node, "nextFireTime"),
                Json.instant(node, "createdAt"), deliveries == null ? null : DeliveryCounts.of(deliveries),
                rate == null ? null : rate.asDouble(), push == null ? null : PushTargetInfo.of(push),
                node.path("paused").asBoolean(false));
    }
}
