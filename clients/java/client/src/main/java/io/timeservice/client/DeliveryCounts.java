package io.timeservice.client;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A queueing clock's deliveries by state.
 *
 * @param ready          ready to claim
 * @param inFlight       claimed, under a lease
 * @param waiting        waiting for a retry
 * @param dead           out of attempts
 * @param oldestReadyAt  when the longest-ready one became ready, or null when none is ready
 * @param firingHeldBack true while due timers stay pending because the service holds its most deliveries
 */
public record DeliveryCounts(long ready, long inFlight, long waiting, long dead, Instant oldestReadyAt,
                             boolean firingHeldBack) {

    /** True when no delivery is ready, in flight or waiting (dead ones do not count). */
    public boolean drained() {
        return ready == 0 && inFlight == 0 && waiting == 0;
    }

    static DeliveryCounts of(JsonNode node) {
        return new DeliveryCounts(node.get("ready").asLong(), node.get("inFlight").asLong(),
                node.get("waiting").asLong(), node.get("dead").asLong(), Json.instant(node, "oldestReadyAt"),
                node.path("firingHeldBack").asBoolean());
    }
}
