package io.timeservice.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One key's own flow limits ({@link ClockClient#setKeyLimits}), in place of the clock's per-key {@link FlowControl}
 * ones: a member left null keeps the clock's; at least one is set. A rate here brings its own bucket of
 * {@code limit} tokens.
 *
 * @param concurrency most deliveries of the key in flight at once, or null
 * @param rate        the key's rate, or null
 */
public record KeyLimits(Integer concurrency, FlowRate rate) {

    public KeyLimits {
        if (concurrency == null && rate == null) {
            throw new IllegalArgumentException("key limits name a concurrency, a rate or both");
        }
    }

    /** At most {@code n} of the key's deliveries in flight. */
    public static KeyLimits concurrency(int n) {
        return new KeyLimits(n, null);
    }

    ObjectNode json() {
        ObjectNode node = Json.object();
        if (concurrency != null) {
            node.put("concurrency", concurrency);
        }
        if (rate != null) {
            node.set("rate", rate.json());
        }
        return node;
    }

    static KeyLimits of(JsonNode node) {
        JsonNode concurrency = node.get("concurrency");
        return new KeyLimits(concurrency == null ? null : concurrency.asInt(), FlowRate.of(node.get("rate")));
    }
}
