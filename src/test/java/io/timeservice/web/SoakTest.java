package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * A bounded soak: 32 concurrent clients send 20,000 requests in all, mixing every operation, each client on its own
 * ids (never reused) and keeping a record of what the service acknowledged. Afterwards: no 5xx, the invariants
 * hold, and the records add up — every id that got 201 was fired (seen in exactly one advance answer), cancelled
 * (exactly one 204) or is still pending, exactly one of the three. Then an advance drains the queue, and the heap
 * returns near where it started (the queue's arrays are released when it drains empty above 4096 timers; each
 * client starts with 150 far-off timers so the queue passes that size).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SoakTest {

    private static final long SEED = Long.getLong("soak.seed", 42L);
    private static final int CLIENTS = 32;
    private static final int REQUESTS_PER_CLIENT = 625;   // 20,000 in all
    private static final int FAR_OFF_TIMERS_PER_CLIENT = 150;
    private static final long FAR_OFF = 1_000_000_000L;
    private static final long HEAP_SLACK_BYTES = 64L << 20;
    /** A clock of the test's own: the default clock is shared with the other suites of the cached context. */
    private static final String CLOCK = "/clocks/soak-" + SEED;

    @LocalServerPort
    int port;

    private final Set<String> added = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> fired = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> cancelled = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> cancelFoundNothing = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();

    @Test
    void thirtyTwoClients_twentyThousandRequests_recordsAddUp_andTheHeapReturnsAfterADrain() throws Exception {
        String prefix = "soak" + SEED;
        HttpProbe http = new HttpProbe(port);
        assertThat(http.json("PUT", CLOCK, "{}").status()).isIn(200, 201);
        drain(http);   // start from an empty queue so that the drain at the end releases the arrays
        long heapBefore = usedHeapAfterGc();

        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.add(pool.submit(() -> runClient(client, prefix + "-c" + client + "-")));
            }
            for (Future<?> client : clients) {
                client.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        long soakMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        String context = "seed=" + SEED + " statuses=" + statuses;
        assertThat(failures).as(context).isEmpty();
        assertThat(statuses.keySet()).as(context).allMatch(status -> status < 500);
        assertThat(statuses.values().stream().mapToInt(AtomicInteger::get).sum()).as(context)
                .isEqualTo(CLIENTS * REQUESTS_PER_CLIENT);
        assertThat(http.get(CLOCK + "/queue/invariants").json().path("ok").asBoolean()).as(context).isTrue();

        // every acknowledged id is fired, cancelled or pending: exactly one of them, exactly once
        List<String> ourFired = fired.stream().filter(id -> id.startsWith(prefix)).toList();
        assertThat(ourFired).as(context + " fired twice").doesNotHaveDuplicates();
        assertThat(cancelled).as(context + " cancelled twice").doesNotHaveDuplicates();
        assertThat(added).as(context).containsAll(ourFired).containsAll(cancelled);
        Set<String> firedSet = new HashSet<>(ourFired);
        assertThat(cancelled).as(context + " both fired and cancelled").noneMatch(firedSet::contains);
        assertThat(firedSet).as(context + " a 404 on cancel means it had fired").containsAll(cancelFoundNothing);
        Set<String> pending = new HashSet<>(added);
        pending.removeAll(firedSet);
        pending.removeAll(cancelled);
        for (String id : pending) {
            assertThat(http.get(CLOCK + "/timers/" + id).status()).as(context + " pending " + id).isEqualTo(200);
        }
        int queued = http.get(CLOCK + "/queue").json().path("size").asInt();
        assertThat(queued).as(context).isEqualTo(pending.size());
        assertThat(added.size()).as(context).isGreaterThan(CLIENTS * FAR_OFF_TIMERS_PER_CLIENT);

        // drain: the last advance fires exactly the pending ones, and the queue is empty
        Set<String> drained = drain(http);
        assertThat(drained).as(context).isEqualTo(pending);
        assertThat(http.get(CLOCK + "/queue").json().path("size").asInt()).isZero();
        assertThat(http.get(CLOCK + "/queue/invariants").json().path("ok").asBoolean()).isTrue();

        long heapAfter = usedHeapAfterGc();
        assertThat(heapAfter).as(context + " heap before " + heapBefore + " after " + heapAfter)
                .isLessThan(heapBefore + HEAP_SLACK_BYTES);
        System.out.printf("soak seed=%d: %d requests in %d ms; %d added, %d fired, %d cancelled, %d drained; "
                        + "statuses %s; heap %d -> %d MB%n", SEED, CLIENTS * REQUESTS_PER_CLIENT, soakMillis,
                added.size(), ourFired.size(), cancelled.size(), drained.size(), statuses, heapBefore >> 20,
                heapAfter >> 20);
    }

    private void runClient(int client, String prefix) {
        Random random = new Random(SEED * 31 + client);
        HttpProbe http = new HttpProbe(port);
        List<String> mine = new ArrayList<>();
        Map<String, String> tags = new java.util.HashMap<>();
        int next = 0;
        for (int n = 0; n < REQUESTS_PER_CLIENT; n++) {
            String where = "seed=" + SEED + " client=" + client + " request=" + n;
            int dice = n < FAR_OFF_TIMERS_PER_CLIENT ? 0 : random.nextInt(100);
            try {
                if (dice < 35) {
                    String id = prefix + next++;
                    long delay = n < FAR_OFF_TIMERS_PER_CLIENT ? FAR_OFF + random.nextInt(1000) : random.nextInt(1500);
                    String payload = random.nextInt(4) == 0 ? ",\"payload\":{\"client\":" + client + ",\"pad\":\""
                            + "p".repeat(random.nextInt(200)) + "\"}" : "";
                    HttpProbe.Reply reply = http.json("POST", CLOCK + "/timers", "{\"id\":\"" + id + "\",\"delay\":" + delay
                            + ",\"priority\":" + (random.nextInt(11) - 5) + payload + "}");
                    if (expect(where + " add", reply, 201)) {
                        added.add(id);
                        mine.add(id);
                        tags.put(id, reply.headers().get("etag").get(0));
                    }
                } else if (dice < 50 && !mine.isEmpty()) {
                    expect(where + " get", http.get(CLOCK + "/timers/" + pick(random, mine)), 200, 404);
                } else if (dice < 65 && !mine.isEmpty()) {
                    String id = pick(random, mine);
                    Map<String, String> headers = random.nextBoolean() && tags.containsKey(id)
                            ? Map.of("Content-Type", "application/json", "If-Match", tags.get(id))
                            : Map.of("Content-Type", "application/json");
                    HttpProbe.Reply reply = http.send("PATCH", CLOCK + "/timers/" + id, headers,
                            ("{\"delay\":" + random.nextInt(1500) + "}").getBytes());
                    if (expect(where + " edit", reply, 200, 404, 412) && reply.status() == 200) {
                        tags.put(id, reply.headers().get("etag").get(0));
                    }
                } else if (dice < 77 && !mine.isEmpty()) {
                    String id = mine.remove(random.nextInt(mine.size()));
                    HttpProbe.Reply reply = http.send("DELETE", CLOCK + "/timers/" + id, Map.of(), null);
                    if (expect(where + " cancel", reply, 204, 404)) {
                        (reply.status() == 204 ? cancelled : cancelFoundNothing).add(id);
                    }
                } else if (dice < 87) {
                    HttpProbe.Reply reply = http.json("POST", CLOCK + "/advance", "{\"by\":" + random.nextInt(25) + "}");
                    if (expect(where + " advance", reply, 200)) {
                        for (JsonNode timer : reply.json().path("fired")) {
                            fired.add(timer.path("id").asString());
                        }
                    }
                } else {
                    String path = new String[] {CLOCK + "/queue", CLOCK + "/timers?limit=50", CLOCK + "/queue/next", CLOCK,
                        CLOCK + "/queue/heap"}
                            [random.nextInt(5)];
                    expect(where + " read " + path, http.get(path), 200, 404);
                }
            } catch (RuntimeException e) {
                failures.add(where + ": " + e);
                statuses.computeIfAbsent(-1, k -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    /** Counts the status and records a failure unless it is one of {@code allowed}. */
    private boolean expect(String where, HttpProbe.Reply reply, int... allowed) {
        statuses.computeIfAbsent(reply.status(), k -> new AtomicInteger()).incrementAndGet();
        for (int status : allowed) {
            if (reply.status() == status) {
                return true;
            }
        }
        failures.add(where + ": " + reply.status() + " " + reply.text());
        return false;
    }

    private static String pick(Random random, List<String> ids) {
        return ids.get(random.nextInt(ids.size()));
    }

    /**
     * Fires everything pending and returns the ids fired: one advance to a far time, repeated while it stops at its
     * limit (an advance fires at most 1,000 timers by default), so each repeat continues where the last stopped.
     */
    private static Set<String> drain(HttpProbe http) {
        long now = http.get(CLOCK).json().path("now").asLong();
        long to = now + Math.min(1_000_000_000_000_000L, io.timeservice.model.Limits.MAX_TIME - now);
        Set<String> ids = new HashSet<>();
        boolean complete = false;
        while (!complete) {
            HttpProbe.Reply reply = http.json("POST", CLOCK + "/advance", "{\"to\":" + to + "}");
            assertThat(reply.status()).as(reply.text()).isEqualTo(200);
            for (JsonNode timer : reply.json().path("fired")) {
                assertThat(ids.add(timer.path("id").asString())).as("fired once").isTrue();
            }
            complete = reply.json().path("complete").asBoolean();
        }
        assertThat(http.get(CLOCK + "/queue").json().path("size").asInt()).isZero();
        return ids;
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 5; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
