package io.timeservice.client;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A clock as the service describes it.
 *
 * @param name         the clock's name
 * @param now          its time: virtual milliseconds from the epoch, or the wall clock for a system clock
 * @param system       true for a clock on the wall clock
 * @param queued       true when fired timers become deliveries
 * @param retry        the delivery retry policy
 * @param size         how many timers are pending
 * @param nextFireTime the next pending timer's fireTime, or null when none is pending
 * @param createdAt    the wall-clock time of the creation (the epoch for {@code default})
 * @param deliveries   the deliveries by state, or null for a clock that does not queue
 */
public record ClockInfo(String name, Instant now, boolean system, boolean queued, RetryPolicy retry, long size,
                        Instant nextFireTime, Instant createdAt, DeliveryCounts deliveries) {

    static ClockInfo of(JsonNode node) {
        JsonNode deliveries = node.get("deliveries");
        return new ClockInfo(node.get("name").asText(), Json.instant(node, "now"),
                "system".equals(node.path("mode").asText()), "queue".equals(node.path("delivery").asText()),
                RetryPolicy.of(node.get("retry")), node.get("size").asLong(), Json.instant(node, "nextFireTime"),
                Json.instant(node, "createdAt"), deliveries == null ? null : DeliveryCounts.of(deliveries));
    }
}
