package io.timeservice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Issue 44's crash test, shared by the memory store with its journal ({@code FlowCrashIT}) and the PostgreSQL store
 * ({@code FlowKillIT}): a virtual queueing clock with flow control (a concurrency of 2 and a rate of 4 per minute per
 * key), keyed deliveries claimed up to the keys' concurrency when the process is killed. After a restart each key's
 * in-flight count, held-back deliveries and whole tokens are what they were; nothing is lost; a claim takes nothing
 * from a key at its limit; and once the leases end (the clock advanced past them) every key hands out again, within
 * the tokens it had left: no key is stuck at its limit.
 */
public final class FlowAcrossKill {

    public static final String CLOCK = "flow";
    private static final long LEASE = 1_000;

    private FlowAcrossKill() {
    }

    /**
     * Makes the clock and claims until the kill may come: key {@code a} with 2 in flight (a1, a2; a0 acknowledged), 3
     * ready and 1 token; {@code b} with 2 in flight, 4 ready and 2 tokens; {@code c} with 1 in flight and 3 tokens.
     * Answers the ids acknowledged (a0).
     */
    public static List<String> claimToTheLimits(ServiceApi api) throws IOException {
        api.expect(201, "PUT", "/clocks/" + CLOCK, "{\"mode\":\"virtual\",\"delivery\":\"queue\",\"retry\":"
                + "{\"maxAttempts\":100,\"initialBackoff\":0,\"jitter\":0},\"flow\":{\"concurrency\":2,\"rate\":"
                + "{\"limit\":4,\"period\":60000}}}");
        for (String key : List.of("a", "b")) {
            for (int i = 0; i < 6; i++) {
                add(api, key + i, key);
            }
        }
        add(api, "c0", "c");
        api.expect(200, "POST", "/clocks/" + CLOCK + "/advance", "{\"by\":1}");
        List<JsonNode> first = api.claim(CLOCK, 10, LEASE, 0);
        assertThat(ids(first)).containsExactly("a0", "b0", "c0", "a1", "b1");
        assertThat(api.ackAll(CLOCK, first.subList(0, 1))).containsExactly("acked");
        assertThat(ids(api.claim(CLOCK, 10, LEASE, 0))).containsExactly("a2");
        assertKeys(api, "before the kill");
        return List.of("a0");
    }

    /** After the restart: the keys as they were, nothing handed out beyond the limits, every key free after the leases. */
    public static void afterRestart(ServiceApi api, List<String> acknowledged) throws IOException {
        assertKeys(api, "after the restart");
        JsonNode counts = api.deliveryCounts(CLOCK);
        assertThat(counts.get("ready").asInt()).as("ready").isEqualTo(7);
        assertThat(counts.get("inFlight").asInt()).as("in flight").isEqualTo(5);
        assertThat(api.claim(CLOCK, 10, LEASE, 0)).as("a and b at their concurrency, c with nothing ready").isEmpty();

        api.expect(200, "POST", "/clocks/" + CLOCK + "/advance", "{\"by\":" + LEASE + "}"); // every lease ends
        List<JsonNode> again = api.claim(CLOCK, 20, 60_000, 0);
        Map<String, Integer> byKey = new HashMap<>();
        for (JsonNode delivery : again) {
            byKey.merge(delivery.get("key").asString(), 1, Integer::sum);
        }
        assertThat(byKey).as("within the tokens left: a 1, b 2, c 1 (its retried c0)")
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", 1, "b", 2, "c", 1));
        assertThat(ids(again)).doesNotContainAnyElementsOf(acknowledged);
        JsonNode keys = busiest(api);
        assertThat(keys.get("a").get("tokens").asInt()).isZero();
        assertThat(keys.get("b").get("tokens").asInt()).isZero();
        assertThat(keys.get("c").get("tokens").asInt()).isEqualTo(2);
        counts = api.deliveryCounts(CLOCK);
        assertThat(counts.get("ready").asInt() + counts.get("inFlight").asInt() + counts.get("waiting").asInt())
                .as("nothing lost: 13 added, 1 acknowledged").isEqualTo(12);
    }

    private static void assertKeys(ServiceApi api, String when) throws IOException {
        JsonNode keys = busiest(api);
        assertKey(keys, "a", 3, 2, 3, 1, when);
        assertKey(keys, "b", 4, 2, 4, 2, when);
        assertKey(keys, "c", 0, 1, 0, 3, when);
    }

    private static void assertKey(JsonNode keys, String key, int ready, int inFlight, int heldBack, int tokens,
                                  String when) {
        JsonNode state = keys.get(key);
        assertThat(state).as("key %s %s", key, when).isNotNull();
        assertThat(List.of(state.get("ready").asInt(), state.get("inFlight").asInt(), state.get("heldBack").asInt(),
                state.get("tokens").asInt())).as("key %s %s: ready, in flight, held back, tokens", key, when)
                .containsExactly(ready, inFlight, heldBack, tokens);
    }

    /** The clock's busiest keys by name. */
    private static JsonNode busiest(ServiceApi api) throws IOException {
        JsonNode answer = api.expect(200, "GET", "/clocks/" + CLOCK + "/flow/keys?busiest=10", null);
        tools.jackson.databind.node.ObjectNode byKey = ServiceApi.JSON.createObjectNode();
        answer.get("keys").forEach(state -> byKey.set(state.get("key").asString(), state));
        return byKey;
    }

    private static void add(ServiceApi api, String id, String key) throws IOException {
        api.expect(201, "POST", "/clocks/" + CLOCK + "/timers", "{\"id\":\"" + id + "\",\"delay\":1,\"key\":\"" + key
                + "\"}");
    }

    private static List<String> ids(List<JsonNode> deliveries) {
        List<String> ids = new ArrayList<>();
        deliveries.forEach(d -> ids.add(d.get("id").asString()));
        return ids;
    }
}
