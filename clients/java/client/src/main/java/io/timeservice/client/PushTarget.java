package io.timeservice.client;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where a push clock ({@link ClockOptions#push(PushTarget)}) POSTs its deliveries, with the Standard Webhooks
 * headers and, per secret, an HMAC-SHA256 signature (the service's docs/PUSH.md). Immutable:
 * {@code PushTarget.to(URI.create("https://hooks.example.com/timers")).withTimeout(Duration.ofSeconds(5))
 * .withHeader("X-Tenant", "acme").withSecrets("whsec_...")}. The service checks the ranges; a clock's target never
 * changes afterwards.
 *
 * @param url         an absolute {@code http} or {@code https} URL
 * @param timeout     one attempt, connecting included (100 ms to 60 s), or null for the service's 10 s
 * @param concurrency the most requests of this clock in flight at once (1 to 1,000), or null for the service's 16
 * @param headers     static extra headers (at most 32)
 * @param secrets     signing secrets (at most 8), write-only: the service shows only their number
 *                    ({@link PushTargetInfo#secretsCount()})
 */
public record PushTarget(URI url, Duration timeout, Integer concurrency, Map<String, String> headers,
                         List<String> secrets) {

    public PushTarget {
        Objects.requireNonNull(url, "url");
        headers = Map.copyOf(headers);
        secrets = List.copyOf(secrets);
    }

    /** A target at {@code url} with the service's defaults, no headers and no secrets (unsigned). */
    public static PushTarget to(URI url) {
        return new PushTarget(url, null, null, Map.of(), List.of());
    }

    public PushTarget withTimeout(Duration newTimeout) {
        return new PushTarget(url, newTimeout, concurrency, headers, secrets);
    }

    public PushTarget withConcurrency(int newConcurrency) {
        return new PushTarget(url, timeout, newConcurrency, headers, secrets);
    }

    /** These settings and one more header. */
    public PushTarget withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new PushTarget(url, timeout, concurrency, more, secrets);
    }

    /** These settings with exactly these signing secrets (two while rotating). */
    public PushTarget withSecrets(String... newSecrets) {
        return new PushTarget(url, timeout, concurrency, headers, List.of(newSecrets));
    }

    ObjectNode json() {
        ObjectNode node = Json.object().put("url", url.toString());
        if (timeout != null) {
            node.put("timeout", Json.millis(timeout, "timeout"));
        }
        if (concurrency != null) {
            node.put("concurrency", concurrency.intValue());
        }
        if (!headers.isEmpty()) {
            ObjectNode named = node.putObject("headers");
            headers.forEach(named::put);
        }
        if (!secrets.isEmpty()) {
            secrets.forEach(node.putArray("secrets")::add);
        }
        return node;
    }

    /** Names the secrets' number, never the secrets. */
    @Override
    public String toString() {
        return "PushTarget[url=" + url + ", timeout=" + timeout + ", concurrency=" + concurrency + ", headers="
                + headers + ", secrets=" + secrets.size() + "]";
    }
}
