package io.timeservice.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One of a clock's busiest keys ({@link ClockClient#busiestKeys}): its deliveries and the limits that apply to it.
 *
 * @param key         the key ({@code ""} for the timers without one)
 * @param ready       its ready deliveries, the held-back ones among them
 * @param inFlight    its deliveries claimed and not settled
 * @param heldBack    its ready deliveries held back by its concurrency or rate
 * @param concurrency its concurrency limit, or null for none
 * @param rate        its rate, or null for none
 * @param tokens      the whole tokens in its bucket, or null without a rate
 * @param overridden  whether the limits are its own ({@link ClockClient#setKeyLimits})
 */
public record KeyState(String key, int ready, int inFlight, int heldBack, Integer concurrency, FlowRate rate,
                       Long tokens, boolean overridden) {

    static KeyState of(JsonNode node) {
        JsonNode concurrency = node.get("concurrency");
        JsonNode tokens = node.get("tokens");
        return new KeyState(node.get("key").asText(), node.get("ready").asInt(), node.get("inFlight").asInt(),
                node.get("heldBack").asInt(), concurrency == null ? null : concurrency.asInt(),
                FlowRate.of(node.get("rate")), tokens == null ? null : tokens.asLong(),
                node.get("overridden").asBoolean());
    }
}
