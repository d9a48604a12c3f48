package io.timeservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.JsonNode;

/**
 * Issue 43's retry race across a SIGKILL, for a crash test of each store: a producer's add lands (acknowledged) on a
 * system clock with a dedupe window, fires and is delivered and acknowledged; the service dies by SIGKILL
 * ({@link ServiceProcess#kill}); after the restart the producer's retries never fire the timer a second time: the
 * same id is 409 {@code duplicate_id} naming the first (or, with {@code onConflict: "keep"}, 200 kept), and the same
 * {@code Idempotency-Key} gets the first answer again, byte for byte, with {@code Idempotent-Replayed: true}.
 */
public final class RetryRaceAcrossKill {

    private static final String CLOCK = "orders";
    private static final String KEYED = "{\"id\":\"order-keyed\",\"delay\":0,\"payload\":{\"total\":12}}";
    private static final String PLAIN = "{\"id\":\"order-plain\",\"delay\":0}";
    private static final String KEY = "retry-race-1";

    /** What the producer heard before the kill: the two adds' answers. */
    public record Landed(HttpResponse<String> keyed, HttpResponse<String> plain) {
    }

    private RetryRaceAcrossKill() {
    }

    /**
     * On the first process: a system queue clock with a one-hour window, the two adds (201), their firing, and their
     * deliveries claimed and acknowledged; then the caller kills the process.
     */
    public static Landed landAndFire(ServiceApi api) throws IOException {
        api.expect(201, "PUT", "/clocks/" + CLOCK, "{\"mode\":\"system\",\"delivery\":\"queue\","
                + "\"dedupeWindow\":3600000}");
        HttpResponse<String> keyed = api.send("POST", "/clocks/" + CLOCK + "/timers", KEYED, "Idempotency-Key", KEY);
        assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(201);
        HttpResponse<String> plain = api.send("POST", "/clocks/" + CLOCK + "/timers", PLAIN);
        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(201);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        await("both timers fired, delivered and acknowledged").atMost(Duration.ofMinutes(1)).pollInSameThread()
                .until(() -> {
                    List<JsonNode> claimed = api.claim(CLOCK, 10, 60_000, 1_000);
                    if (!claimed.isEmpty()) {
                        assertThat(api.ackAll(CLOCK, claimed)).containsOnly("acked");
                    }
                    claimed.forEach(delivery -> acknowledged.add(delivery.get("id").asString()));
                    return acknowledged.size() == 2;
                });
        assertThat(acknowledged).containsExactlyInAnyOrder("order-keyed", "order-plain");
        return new Landed(keyed, plain);
    }

    /** On the restarted process: every retry refused or replayed, nothing pending, nothing delivered again. */
    public static void retriesAfterRestart(ServiceApi api, Landed landed) throws IOException {
        HttpResponse<String> replayed = api.send("POST", "/clocks/" + CLOCK + "/timers", KEYED, "Idempotency-Key",
                KEY);
        assertThat(replayed.statusCode()).as(replayed.body()).isEqualTo(201);
        assertThat(replayed.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(replayed.body()).isEqualTo(landed.keyed().body());

        for (HttpResponse<String> first : List.of(landed.keyed(), landed.plain())) {
            JsonNode timer = ServiceApi.JSON.readTree(first.body());
            String id = timer.get("id").asString();
            JsonNode refused = api.expect(409, "POST", "/clocks/" + CLOCK + "/timers",
                    "{\"id\":\"" + id + "\",\"delay\":0}");
            assertThat(refused.get("code").asString()).isEqualTo("duplicate_id");
            assertThat(refused.get("previous").get("state").asString()).isEqualTo("acknowledged");
            assertThat(refused.get("previous").get("sequence").asLong()).isEqualTo(timer.get("sequence").asLong());
            JsonNode kept = api.expect(200, "POST", "/clocks/" + CLOCK + "/timers",
                    "{\"id\":\"" + id + "\",\"delay\":0,\"onConflict\":\"keep\"}");
            assertThat(kept.get("result").asString()).isEqualTo("kept");
            assertThat(kept.get("previous").get("sequence").asLong()).isEqualTo(timer.get("sequence").asLong());
        }
        JsonNode batch = api.expect(409, "POST", "/clocks/" + CLOCK + "/batch",
                "{\"ops\":[{\"op\":\"add\",\"id\":\"order-plain\",\"delay\":0,\"onConflict\":\"replace\"}]}");
        assertThat(batch.get("code").asString()).isEqualTo("duplicate_id");

        JsonNode pending = api.expect(200, "GET", "/clocks/" + CLOCK + "/timers", null);
        assertThat(pending.toString()).as("nothing pending that could fire again").doesNotContain("order-");
        JsonNode counts = api.deliveryCounts(CLOCK);
        assertThat(counts.toString()).contains("\"ready\":0", "\"inFlight\":0", "\"waiting\":0", "\"dead\":0");
        assertThat(api.claim(CLOCK, 10, 60_000, 0)).as("no second delivery").isEmpty();
    }
}
