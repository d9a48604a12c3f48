package io.timeservice.client;

import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A rate limit of flow control: at most {@code limit} deliveries per {@code period} of the clock's time, as a token
 * bucket (the service checks the ranges: 1 to 1,000,000 per 1 ms to a day).
 *
 * @param limit  deliveries per period
 * @param period the period, in whole milliseconds
 */
public record FlowRate(long limit, Duration period) {

    public FlowRate {
        java.util.Objects.requireNonNull(period, "period");
    }

    /** {@code limit} deliveries per {@code period}. */
    public static FlowRate of(long limit, Duration period) {
        return new FlowRate(limit, period);
    }

    ObjectNode json() {
        return Json.object().put("limit", limit).put("period", Json.millis(period, "period"));
    }

    /** The rate the node holds, or null when it is missing. */
    static FlowRate of(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? null
                : new FlowRate(node.get("limit").asLong(), Duration.ofMillis(node.get("period").asLong()));
    }
}
