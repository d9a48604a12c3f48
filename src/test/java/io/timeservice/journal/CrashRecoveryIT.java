package io.timeservice.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kills the real service with SIGKILL in the middle of concurrent traffic and checks, after a restart on the same
 * data directory, that every acknowledged operation survived: the model of acknowledged responses is the oracle.
 * An operation in flight when the process died may or may not have been applied; both outcomes are accepted, but
 * nothing else is.
 */
class CrashRecoveryIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int WORKERS = 4;

    @TempDir
    Path dataDir;

    @Test
    void sigkillUnderLoad_losesNothingAcknowledged() throws Exception {
        runCrashScenario(20260101L, false);
    }

    @Test
    void sigkillWhileASnapshotIsBeingWritten_losesNothingAcknowledged() throws Exception {
        runCrashScenario(20260102L, true);
    }

    private void runCrashScenario(long seed, boolean killDuringSnapshot) throws Exception {
        Random random = new Random(seed);
        int killAfterAcks = 800 + random.nextInt(800);
        String[] snapshotArgs = killDuringSnapshot
                ? new String[] {"--timeservice.snapshot.min-journal-size=0", "--timeservice.snapshot.multiple=1"}
                : new String[] {"--timeservice.snapshot.min-journal-size=1GB"};
        Traffic traffic = new Traffic(seed);
        try (ServiceProcess service = ServiceProcess.start(dataDir, snapshotArgs)) {
            String base = service.baseUrl();
            AtomicBoolean snapshotSeen = new AtomicBoolean();
            Runnable kill = () -> {
                try {
                    service.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            Thread watcher = killDuringSnapshot
                    ? startSnapshotWatcher(traffic, killAfterAcks, snapshotSeen, kill) : null;
            traffic.run(base, killDuringSnapshot ? Integer.MAX_VALUE : killAfterAcks, kill);
            if (watcher != null) {
                watcher.join(TimeUnit.MINUTES.toMillis(1));
                assertThat(snapshotSeen).as("a snapshot file was being written when the process was killed").isTrue();
            }
        }
        assertThat(traffic.ackedAdds.get()).as("seed " + seed).isGreaterThan(200);

        try (ServiceProcess restarted = ServiceProcess.start(dataDir)) {
            String base = restarted.baseUrl();
            assertThat(restarted.output()).anySatisfy(line -> assertThat(line).contains("recovered"));
            traffic.verifyAgainst(base, "seed " + seed);
        }
    }

    /** Kills the service the moment a snapshot's temporary file appears, once enough traffic was acknowledged. */
    private Thread startSnapshotWatcher(Traffic traffic, int minAcks, AtomicBoolean seen, Runnable kill)
            throws IOException {
        WatchService watch = FileSystems.getDefault().newWatchService();
        dataDir.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
        Thread thread = new Thread(() -> {
            try (watch) {
                while (!seen.get() && !traffic.stopped.get()) {
                    WatchKey key = watch.poll(100, TimeUnit.MILLISECONDS);
                    if (key == null) {
                        continue;
                    }
                    for (WatchEvent<?> event : key.pollEvents()) {
                        if (event.context().toString().endsWith(".snap.tmp") && traffic.acks.get() >= minAcks) {
                            kill.run();
                            seen.set(true);
                            traffic.stopped.set(true);
                        }
                    }
                    key.reset();
                }
            } catch (IOException | InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "snapshot-watcher");
        thread.start();
        return thread;
    }

    /** What the clients sent and what the service acknowledged, per timer id. Ids are never reused. */
    private static final class Traffic {

        final long seed;
        final Map<String, Record> records = new ConcurrentHashMap<>();
        final AtomicInteger acks = new AtomicInteger();
        final AtomicInteger ackedAdds = new AtomicInteger();
        final AtomicLong ackedNow = new AtomicLong();
        final AtomicLong requestedNow = new AtomicLong();
        final AtomicLong maxSequence = new AtomicLong();
        final AtomicBoolean stopped = new AtomicBoolean();
        final java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

        Traffic(long seed) {
            this.seed = seed;
        }

        void run(String base, int killAfterAcks, Runnable kill) throws InterruptedException {
            CountDownLatch done = new CountDownLatch(WORKERS);
            for (int w = 0; w < WORKERS; w++) {
                int worker = w;
                Thread thread = new Thread(() -> {
                    try {
                        work(base, worker, new Random(seed * 31 + worker), killAfterAcks, kill);
                    } catch (Throwable failure) {
                        failures.add(failure);
                        stopped.set(true);
                    } finally {
                        done.countDown();
                    }
                }, "client-" + w);
                thread.start();
            }
            assertThat(done.await(5, TimeUnit.MINUTES)).as("clients finished").isTrue();
            assertThat(failures).as("seed " + seed + ": client assertions").isEmpty();
        }

        private void work(String base, int worker, Random random, int killAfterAcks, Runnable kill) {
            List<Record> mine = new ArrayList<>();
            for (int n = 0; !stopped.get() && n < 100_000; n++) {
                try {
                    int op = random.nextInt(100);
                    if (worker == 0 && op < 4) {
                        advance(base, random.nextInt(3_000));
                    } else if (mine.isEmpty() || op < 55) {
                        mine.add(add(base, "w" + worker + "-" + n, random));
                    } else {
                        Record target = mine.get(random.nextInt(mine.size()));
                        if (target.acked != null && !target.gone) {
                            if (op < 80) {
                                edit(base, target, random);
                            } else {
                                cancel(base, target);
                            }
                        }
                    }
                } catch (IOException e) {
                    stopped.set(true); // the service is gone: whatever was in flight stays marked so
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (acks.incrementAndGet() == killAfterAcks) {
                    kill.run();
                    stopped.set(true);
                }
            }
        }

        private Record add(String base, String id, Random random) throws IOException, InterruptedException {
            Record record = new Record(id, random.nextInt(4), "{\"n\":" + random.nextInt(1000) + "}");
            records.put(id, record);
            record.inFlight = "add";
            HttpResponse<String> response = send(base, "POST", "/timers", "{\"id\":\"" + id + "\",\"delay\":"
                    + (1_000 + random.nextInt(100_000)) + ",\"priority\":" + record.priority + ",\"payload\":"
                    + record.payload + "}");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            record.ack(parse(response));
            ackedAdds.incrementAndGet();
            return record;
        }

        private void edit(String base, Record record, Random random) throws IOException, InterruptedException {
            record.inFlight = "edit";
            record.requestedPriority = random.nextInt(4);
            HttpResponse<String> response = send(base, "PATCH", "/timers/" + record.id, "{\"delay\":"
                    + (1_000 + random.nextInt(100_000)) + ",\"priority\":" + record.requestedPriority + "}");
            if (response.statusCode() == 404) {
                record.inFlight = null; // fired by an advance meanwhile
                return;
            }
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            record.ack(parse(response));
        }

        private void cancel(String base, Record record) throws IOException, InterruptedException {
            record.inFlight = "cancel";
            HttpResponse<String> response = send(base, "DELETE", "/timers/" + record.id, null);
            assertThat(response.statusCode()).isIn(204, 404);
            record.gone = true;
            record.inFlight = null;
        }

        private void advance(String base, long by) throws IOException, InterruptedException {
            requestedNow.addAndGet(by);
            // the largest limit, so an advance fires everything due as before (3,000 ms fire far fewer than 10,000)
            HttpResponse<String> response = send(base, "POST", "/clock/advance?limit=10000", "{\"by\":" + by + "}");
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode body = parse(response);
            ackedNow.accumulateAndGet(body.get("now").asLong(), Math::max);
            for (JsonNode fired : body.get("fired")) {
                Record record = records.get(fired.get("id").asString());
                record.gone = true;
            }
        }

        private HttpResponse<String> send(String base, String method, String path, String body)
                throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body));
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        private JsonNode parse(HttpResponse<String> response) {
            JsonNode node = JSON.readTree(response.body());
            if (node.has("sequence")) {
                maxSequence.accumulateAndGet(node.get("sequence").asLong(), Math::max);
            }
            return node;
        }

        /** Checks the restarted service against every acknowledged response. */
        void verifyAgainst(String base, String context) throws IOException, InterruptedException {
            long now = parse(send(base, "GET", "/clock", null)).get("now").asLong();
            assertThat(now).as(context + ": clock").isGreaterThanOrEqualTo(ackedNow.get())
                    .isLessThanOrEqualTo(requestedNow.get());
            int checked = 0;
            for (Record record : records.values()) {
                HttpResponse<String> response = send(base, "GET", "/timers/" + record.id, null);
                String what = context + ": " + record + " -> " + response.statusCode() + " " + response.body();
                JsonNode found = response.statusCode() == 200 ? parse(response) : null;
                assertThat(response.statusCode()).as(what).isIn(200, 404);
                if (record.gone && record.inFlight == null) {
                    assertThat(found).as(what + " (cancelled or fired, acknowledged)").isNull();
                } else if (record.acked == null) {
                    if (found != null) {   // an add in flight may have been applied, exactly as sent
                        assertThat(found.get("priority").asInt()).as(what).isEqualTo(record.priority);
                        assertThat(found.get("payload").toString()).as(what).isEqualTo(record.payload);
                        assertThat(found.get("version").asLong()).as(what).isEqualTo(1);
                    }
                } else if (found == null) {
                    boolean firedByUnacknowledgedAdvance = record.acked.get("fireTime").asLong() <= now;
                    assertThat("cancel".equals(record.inFlight) || "edit".equals(record.inFlight)
                            || firedByUnacknowledgedAdvance).as(what + " vanished").isTrue();
                } else if ("edit".equals(record.inFlight)
                        && found.get("version").asLong() == record.acked.get("version").asLong() + 1) {
                    assertThat(found.get("priority").asInt()).as(what).isEqualTo(record.requestedPriority);
                    assertThat(found.get("sequence")).as(what).isEqualTo(record.acked.get("sequence"));
                } else {
                    assertThat(found).as(what + " differs from its last acknowledged state").isEqualTo(record.acked);
                }
                checked++;
            }
            assertThat(checked).isEqualTo(records.size());
            JsonNode invariants = parse(send(base, "GET", "/queue/invariants", null));
            assertThat(invariants.get("ok").asBoolean()).as(context + ": " + invariants).isTrue();
            HttpResponse<String> added = send(base, "POST", "/timers", "{\"id\":\"after-restart\",\"delay\":1}");
            assertThat(added.statusCode()).isEqualTo(201);
            long before = maxSequence.get();
            assertThat(parse(added).get("sequence").asLong()).as(context + ": sequences continue")
                    .isGreaterThan(before);
        }
    }

    private static final class Record {

        final String id;
        final int priority;
        final String payload;
        volatile JsonNode acked;
        volatile String inFlight;
        volatile boolean gone;
        volatile int requestedPriority;

        Record(String id, int priority, String payload) {
            this.id = id;
            this.priority = priority;
            this.payload = payload;
        }

        void ack(JsonNode timer) {
            acked = timer;
            inFlight = null;
        }

        @Override
        public String toString() {
            return id + "[acked=" + acked + ", inFlight=" + inFlight + ", gone=" + gone + "]";
        }
    }
}
