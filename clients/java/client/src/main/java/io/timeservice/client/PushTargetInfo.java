package io.timeservice.client;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A push clock's target as the service shows it ({@link ClockInfo#push()}): the secrets are write-only, so only
 * their number comes back.
 *
 * @param url          where each delivery is POSTed
 * @param timeout      one attempt's limit
 * @param concurrency  the most requests in flight at once
 * @param headers      the static extra headers
 * @param secretsCount how many signing secrets the clock holds
 */
public record PushTargetInfo(URI url, Duration timeout, int concurrency, Map<String, String> headers,
                             int secretsCount) {

    static PushTargetInfo of(JsonNode node) {
        Map<String, String> headers = new LinkedHashMap<>();
        node.path("headers").properties().forEach(header -> headers.put(header.getKey(), header.getValue().asText()));
        return new PushTargetInfo(URI.create(node.get("url").asText()), Duration.ofMillis(node.get("timeout")
                .asLong()), node.get("concurrency").asInt(), Map.copyOf(headers), node.get("secretsCount").asInt());
    }
}
