package io.timeservice.client;

import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How a queueing clock retries a delivery whose lease ended or that was nacked without a retryAfter: retry n waits
 * {@code min(maxBackoff, initialBackoff * multiplier^(n-1))}, spread by up to ±{@code jitter} of itself; after
 * {@code maxAttempts} failed attempts the delivery is dead. The service checks the ranges (1 to 1,000 attempts,
 * backoffs up to 7 days, multiplier 1 to 10, jitter 0 to 1).
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, double multiplier, Duration maxBackoff,
                          double jitter) {

    /** The service's defaults: 10 attempts, 1 s doubling up to 5 min, ±20 % jitter. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(10, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.2);
    }

    public RetryPolicy withMaxAttempts(int maxAttempts) {
        return new RetryPolicy(maxAttempts, initialBackoff, multiplier, maxBackoff, jitter);
    }

    public RetryPolicy withInitialBackoff(Duration initialBackoff) {
        return new RetryPolicy(maxAttempts, initialBackoff, multiplier, maxBackoff, jitter);
    }

    public RetryPolicy withMultiplier(double multiplier) {
        return new RetryPolicy(maxAttempts, initialBackoff, multiplier, maxBackoff, jitter);
    }

    public RetryPolicy withMaxBackoff(Duration maxBackoff) {
        return new RetryPolicy(maxAttempts, initialBackoff, multiplier, maxBackoff, jitter);
    }

    public RetryPolicy withJitter(double jitter) {
        return new RetryPolicy(maxAttempts, initialBackoff, multiplier, maxBackoff, jitter);
    }

    ObjectNode json() {
        ObjectNode node = Json.object();
        node.put("maxAttempts", maxAttempts);
        node.put("initialBackoff", Json.millis(initialBackoff, "initialBackoff"));
        node.put("multiplier", multiplier);
        node.put("maxBackoff", Json.millis(maxBackoff, "maxBackoff"));
        node.put("jitter", jitter);
        return node;
    }

    static RetryPolicy of(JsonNode node) {
        return new RetryPolicy(node.get("maxAttempts").asInt(), Duration.ofMillis(node.get("initialBackoff").asLong()),
                node.get("multiplier").asDouble(), Duration.ofMillis(node.get("maxBackoff").asLong()),
                node.get("jitter").asDouble());
    }
}
