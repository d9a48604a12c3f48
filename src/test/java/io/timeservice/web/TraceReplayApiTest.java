package io.timeservice.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trace contract over HTTP: for random sequences of traced add, cancel, edit and advance calls, replaying each
 * call's trace on the previous {@code /queue/heap} array reproduces the next one, every compare names the right
 * slot and key, and an advance's removals are its fired timers in order.
 *
 * <p>The random loop (about 600 calls) uses the JDK's HttpClient and Jackson: REST-assured measured about ten
 * times slower per request here (70 to 150 ms against 10 to 20 ms on two shared cores), which would have made it
 * take minutes. The scripted cases and {@link QueueHeapApiTest} use REST-assured.
 */
class TraceReplayApiTest extends DemoServiceTestBase {

    private static final int OPERATIONS = 100;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    /** One traced call: what was asked and what came back. */
    private record Call(String description, JsonNode answer) {
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void replayingEachTrace_onThePreviousArray_reproducesTheNextArray(long seed) {
        Random random = new Random(seed);
        JsonNode before = heap();
        for (int i = 0; i < OPERATIONS; i++) {
            List<String> pending = ids(before);
            TraceReplay replay = new TraceReplay(pending, keysOf(before.get("slots")));
            Call call = randomTracedCall(random, pending, replay);
            String described = "seed " + seed + ", operation " + i + " (" + call.description() + "): ";
            JsonNode trace = call.answer().get("trace");
            assertThat(trace).as(described + "returns a trace").isNotNull();
            for (JsonNode step : trace) {
                replay.apply(asMap(step));
            }
            JsonNode after = heap();
            assertThat(replay.result()).as(described + "replayed trace " + trace).isEqualTo(ids(after));
            JsonNode fired = call.answer().get("fired");
            if (fired != null) {
                List<String> firedIds = new ArrayList<>();
                fired.forEach(timer -> firedIds.add(timer.get("id").stringValue()));
                assertThat(replay.removed()).as(described + "removes exactly the fired timers, in order")
                        .isEqualTo(firedIds);
            }
            assertThat(after.get("invariants").get("ok").booleanValue())
                    .as(described + "leaves the invariants true: " + after.get("invariants")).isTrue();
            before = after;
        }
    }

    @Test
    void tracedAdvanceOfTheSeed004Example_replaysToTheNextArray_andRemovesInFiringOrder() {
        Map<String, Integer> priorities = new LinkedHashMap<>();
        priorities.put("A", 3);
        priorities.put("B", 1);
        priorities.put("C", 2);
        priorities.put("D", 1);
        priorities.put("E", 4);
        priorities.forEach((id, priority) -> api().body(Map.of("id", id, "delay", 5, "priority", priority))
                .post("/timers").then().statusCode(201));
        JsonNode before = JSON.readTree(api().get("/queue/heap").asString());
        TraceReplay replay = new TraceReplay(ids(before), keysOf(before.get("slots")));

        JsonNode answer = JSON.readTree(api().body(Map.of("by", 5)).post("/clock/advance?trace=true")
                .then().statusCode(200).extract().asString());
        answer.get("trace").forEach(step -> replay.apply(asMap(step)));

        assertThat(replay.removed()).containsExactly("B", "D", "C", "A", "E");
        assertThat(replay.result()).isEqualTo(ids(JSON.readTree(api().get("/queue/heap").asString())))
                .isEmpty();
    }

    @Test
    void tracedCancelOfAMiddleSlot_replaysToTheNextArray() {
        for (int i = 0; i < 12; i++) {
            api().body(Map.of("id", "m" + i, "delay", i)).post("/timers").then().statusCode(201);
        }
        JsonNode before = JSON.readTree(api().get("/queue/heap").asString());
        TraceReplay replay = new TraceReplay(ids(before), keysOf(before.get("slots")));
        String middle = ids(before).get(1);

        JsonNode answer = JSON.readTree(api().delete("/timers/" + middle + "?trace=true")
                .then().statusCode(200).extract().asString());
        answer.get("trace").forEach(step -> replay.apply(asMap(step)));

        assertThat(answer.get("trace").get(0).get("op").stringValue()).isEqualTo("remove");
        assertThat(answer.get("trace").get(1).get("op").stringValue()).as("the last timer fills the hole")
                .isEqualTo("lift");
        assertThat(replay.result()).isEqualTo(ids(JSON.readTree(api().get("/queue/heap").asString())))
                .hasSize(11).doesNotContain(middle);
    }

    /** Makes one random valid traced call; an added or edited timer's new keys are told to the replay. */
    private Call randomTracedCall(Random random, List<String> pending, TraceReplay replay) {
        int choice = pending.isEmpty() ? 0 : random.nextInt(10);
        if (choice < 4) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", freeId(random, pending));
            body.put("delay", random.nextInt(12));
            if (random.nextBoolean()) {
                body.put("priority", random.nextInt(5) - 2);
            }
            return timerCall("add " + body, replay, send("POST", "/timers?trace=true", body), 201);
        }
        String id = pending.get(random.nextInt(pending.size()));
        if (choice < 6) {
            return new Call("cancel " + id, read(send("DELETE", "/timers/" + id + "?trace=true", null), 200));
        }
        if (choice < 9) {
            Map<String, Object> body = new LinkedHashMap<>();
            if (random.nextInt(3) > 0) {
                body.put("delay", random.nextInt(12));
            }
            if (body.isEmpty() || random.nextBoolean()) {
                body.put("priority", random.nextInt(5) - 2);
            }
            return timerCall("edit " + id + " " + body, replay,
                    send("PATCH", "/timers/" + id + "?trace=true", body), 200);
        }
        Map<String, Object> body = Map.of("by", random.nextInt(4));
        return new Call("advance " + body, read(send("POST", "/clock/advance?trace=true", body), 200));
    }

    private static Call timerCall(String description, TraceReplay replay, HttpResponse<String> response,
                                  int status) {
        JsonNode timer = read(response, status);
        replay.know(timer.get("id").stringValue(), keys(timer));
        return new Call(description, timer);
    }

    private static String freeId(Random random, List<String> pending) {
        String id;
        do {
            id = "t" + random.nextInt(100);
        } while (pending.contains(id));
        return id;
    }

    private JsonNode heap() {
        return read(send("GET", "/queue/heap?limit=1023", null), 200);
    }

    private HttpResponse<String> send(String method, String path, Map<String, Object> body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode read(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    private static List<String> ids(JsonNode heap) {
        assertThat(heap.get("size").intValue()).as("the whole queue fits the view").isLessThanOrEqualTo(1023);
        List<String> ids = new ArrayList<>();
        heap.get("slots").forEach(slot -> ids.add(slot.get("id").stringValue()));
        return ids;
    }

    private static Map<String, TraceReplay.Keys> keysOf(JsonNode timers) {
        Map<String, TraceReplay.Keys> keys = new HashMap<>();
        timers.forEach(timer -> keys.put(timer.get("id").stringValue(), keys(timer)));
        return keys;
    }

    private static TraceReplay.Keys keys(JsonNode timer) {
        return new TraceReplay.Keys(timer.get("fireTime").longValue(), timer.get("priority").intValue(),
                timer.get("sequence").longValue());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(JsonNode step) {
        return JSON.treeToValue(step, Map.class);
    }
}
