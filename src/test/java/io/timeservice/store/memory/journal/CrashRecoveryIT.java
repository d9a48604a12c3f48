package io.timeservice.store.memory.journal;

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

import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kills the real service with SIGKILL in the middle of concurrent traffic and checks, after a restart on the same
 * data directory, that every acknowledged operation survived: the model of acknowledged responses is the oracle.
 * An operation in flight when the process died may or may not have been applied; both outcomes are accepted, but
 * nothing else is. Traffic spreads over several clocks (issue 15): the {@code default} one, three shared ones, and
 * one that a single client deletes and creates again while it works on it. Batch clients (issue 17) send atomic
 * batches of adds, edits and cancels of their own timers on the shared clocks: every acknowledged batch must be
 * wholly present after the restart, and a batch in flight when the process died wholly present or wholly absent.
 */
class CrashRecoveryIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int WORKERS = 4;
    private static final int BATCH_WORKERS = 2;
    /** Requests the check after the restart keeps in flight at once. */
    private static final int FETCHES_AT_ONCE = 8;
    /** Far beyond every advance of the traffic, so no batch timer fires and the batch clients' model stays exact. */
    private static final long BATCH_DELAY = 1_000_000_000_000L;

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
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir, snapshotArgs)) {
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
            traffic.createClocks(base);
            traffic.run(base, killDuringSnapshot ? Integer.MAX_VALUE : killAfterAcks, kill);
            if (watcher != null) {
                watcher.join(TimeUnit.MINUTES.toMillis(1));
                assertThat(snapshotSeen).as("a snapshot file was being written when the process was killed").isTrue();
            }
        }
        assertThat(traffic.ackedAdds.get()).as("seed " + seed).isGreaterThan(200);
        assertThat(traffic.ackedBatches.get()).as("seed " + seed + ": acknowledged batches").isGreaterThan(20);

        try (ServiceProcess restarted = ServiceProcess.startWithJournal(dataDir)) {
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

    /**
     * What the clients sent and what the service acknowledged, per timer id, and per clock. Ids are never reused
     * during the traffic, so every id names one timer on one clock.
     */
    private static final class Traffic {

        /** Every client adds, edits and cancels on these; client 0 advances them. */
        static final List<String> SHARED_CLOCKS = List.of("default", "ci-a", "ci-b", "ci-c");
        /** Only client 0 uses this clock, so its model is exact across deletions: it deletes and re-creates it. */
        static final String CHURNED = "ci-churned";
        /** Created with timers and deleted before the traffic starts: it stays deleted, and so do its timers. */
        static final String DELETED = "ci-deleted";
        static final List<String> RECREATED = List.of(CHURNED, DELETED);

        final long seed;
        final Map<String, Record> records = new ConcurrentHashMap<>();
        final Map<String, ClockModel> clocks = new ConcurrentHashMap<>();
        /** Every ETag acknowledged before the crash, by clock and tag: the timer it named, in that state. */
        final Map<String, JsonNode> etags = new ConcurrentHashMap<>();
        final AtomicInteger acks = new AtomicInteger();
        final AtomicInteger ackedAdds = new AtomicInteger();
        final AtomicInteger churnedDeletes = new AtomicInteger();
        final AtomicBoolean stopped = new AtomicBoolean();
        /** The batch clients' timers by id, as the last acknowledged batch left them. */
        final Map<String, BatchTimer> batchTimers = new ConcurrentHashMap<>();
        /** Per batch client, the batch it sent and got no answer for (the process died), if any. */
        final Map<Integer, SentBatch> batchesInFlight = new ConcurrentHashMap<>();
        final AtomicInteger ackedBatches = new AtomicInteger();
        final AtomicInteger refusedBatches = new AtomicInteger();
        final java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

        Traffic(long seed) {
            this.seed = seed;
            for (String clock : SHARED_CLOCKS) {
                clocks.put(clock, new ClockModel());
            }
            clocks.put(CHURNED, new ClockModel());
            clocks.put(DELETED, new ClockModel());
        }

        void createClocks(String base) throws IOException, InterruptedException {
            for (String clock : clocks.keySet()) {
                if (!clock.equals("default")) {
                    createClock(base, clock);
                }
            }
            Random random = new Random(seed);
            for (int n = 0; n < 20; n++) {
                add(base, DELETED, "deleted-" + n, random);
            }
            deleteClock(base, DELETED);
        }

        void run(String base, int killAfterAcks, Runnable kill) throws InterruptedException {
            CountDownLatch done = new CountDownLatch(WORKERS + BATCH_WORKERS);
            for (int w = 0; w < WORKERS + BATCH_WORKERS; w++) {
                int worker = w;
                Thread thread = new Thread(() -> {
                    try {
                        Random random = new Random(seed * 31 + worker);
                        if (worker < WORKERS) {
                            work(base, worker, random, killAfterAcks, kill);
                        } else {
                            sendBatches(base, worker, random, killAfterAcks, kill);
                        }
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
            assertThat(churnedDeletes.get()).as("seed " + seed + ": deletions of " + CHURNED).isPositive();
        }

        private void work(String base, int worker, Random random, int killAfterAcks, Runnable kill) {
            List<Record> mine = new ArrayList<>();
            for (int n = 0; !stopped.get() && n < 100_000; n++) {
                try {
                    int op = random.nextInt(100);
                    ClockModel churned = clocks.get(CHURNED);
                    String clock = worker == 0 && churned.exists && random.nextInt(4) == 0 ? CHURNED
                            : SHARED_CLOCKS.get(random.nextInt(SHARED_CLOCKS.size()));
                    if (worker == 0 && op < 4) {
                        advance(base, clock, random.nextInt(3_000));
                    } else if (worker == 0 && op < 7) {
                        if (churned.exists) {
                            deleteClock(base, CHURNED);
                        } else {
                            createClock(base, CHURNED);
                        }
                    } else if (mine.isEmpty() || op < 55) {
                        mine.add(add(base, clock, "w" + worker + "-" + n, random));
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
                countAck(killAfterAcks, kill);
            }
        }

        private void countAck(int killAfterAcks, Runnable kill) {
            if (acks.incrementAndGet() == killAfterAcks) {
                kill.run();
                stopped.set(true);
            }
        }

        /**
         * Sends batches of 2 to 50 operations on the batch client's own timers, one batch at a time, each on one of
         * the shared clocks: adds of new ids, edits (delay, priority, sometimes with If-Match) and cancels of timers
         * an earlier operation or batch left pending. About one batch in ten ends with a cancel of an unknown id, so
         * it is refused and must change nothing.
         */
        private void sendBatches(String base, int worker, Random random, int killAfterAcks, Runnable kill) {
            for (int n = 0; !stopped.get() && n < 100_000; n++) {
                String clock = SHARED_CLOCKS.get(random.nextInt(SHARED_CLOCKS.size()));
                SentBatch batch = new SentBatch(clock);
                List<String> pending = new ArrayList<>(batchTimers.values().stream()
                        .filter(timer -> timer.clock.equals(clock) && timer.worker == worker && timer.acked != null)
                        .map(timer -> timer.id).toList());
                int size = 2 + random.nextInt(49);
                for (int i = 0; i < size; i++) {
                    int kind = random.nextInt(100);
                    if (pending.isEmpty() || kind < 40) {
                        String id = "b" + worker + "-" + n + "-" + i;
                        batch.add(id, BATCH_DELAY + random.nextInt(1_000_000), random.nextInt(4),
                                random.nextInt(4) == 0 ? null : "{\"b\":" + random.nextInt(1000) + "}");
                        pending.add(id);
                    } else {
                        String id = pending.get(random.nextInt(pending.size()));
                        BatchTimer timer = batchTimers.get(id);
                        String ifMatch = timer != null && !batch.touches(id) && random.nextBoolean()
                                ? timer.etag : null;
                        if (kind < 75) {
                            boolean delay = random.nextBoolean();
                            batch.edit(id, delay ? BATCH_DELAY + random.nextInt(1_000_000) : null,
                                    !delay || random.nextBoolean() ? random.nextInt(4) : null, ifMatch,
                                    timer == null ? null : timer.acked);
                        } else {
                            batch.cancel(id, ifMatch);
                            pending.remove(id);
                        }
                    }
                }
                if (random.nextInt(10) == 0) {
                    batch.cancel("b" + worker + "-missing-" + n, null);
                    batch.refused = true;
                }
                batch.before(batchTimers);
                batchesInFlight.put(worker, batch);
                HttpResponse<String> response;
                try {
                    response = send(base, "POST", prefix(clock) + "/batch", batch.body());
                } catch (IOException e) {
                    stopped.set(true); // the service is gone: the batch stays in flight
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (batch.refused) {
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
                    assertThat(parse(response).get("op").asInt()).as(response.body()).isEqualTo(batch.ops.size() - 1);
                    refusedBatches.incrementAndGet();
                } else {
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                    acknowledge(worker, batch, parse(response).get("results"));
                    ackedBatches.incrementAndGet();
                }
                batchesInFlight.remove(worker);
                countAck(killAfterAcks, kill);
            }
        }

        /** Records each operation's result: the timer it left (without its tag), or none after a cancel. */
        private void acknowledge(int worker, SentBatch batch, JsonNode results) {
            assertThat(results.size()).as(results.toString()).isEqualTo(batch.ops.size());
            for (int i = 0; i < results.size(); i++) {
                ObjectNode result = (ObjectNode) results.get(i);
                String id = batch.ops.get(i).get("id").asString();
                assertThat(result.get("id").asString()).isEqualTo(id);
                BatchTimer timer = batchTimers.computeIfAbsent(id, key -> new BatchTimer(batch.clock, worker, key));
                String etag = result.remove("etag").asString();
                if ("cancel".equals(batch.ops.get(i).get("op").asString())) {
                    timer.acked = null;
                } else {
                    timer.acked = result;
                    timer.etag = etag;
                    etags.put(batch.clock + " " + etag, result);
                    clocks.get(batch.clock).maxSequence.accumulateAndGet(result.get("sequence").asLong(), Math::max);
                }
            }
        }

        private void createClock(String base, String clock) throws IOException, InterruptedException {
            ClockModel model = clocks.get(clock);
            model.inFlight = "create";
            HttpResponse<String> response = send(base, "PUT", "/clocks/" + clock, "{\"now\":0}");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            model.generation++;
            model.ackedNow.set(0);
            model.requestedNow.set(0);
            model.exists = true;
            model.inFlight = null;
        }

        /** Deletes {@code clock} with every timer on it; each of them is gone once the deletion is acknowledged. */
        private void deleteClock(String base, String clock) throws IOException, InterruptedException {
            ClockModel model = clocks.get(clock);
            List<Record> onIt = records.values().stream()
                    .filter(record -> record.clock.equals(clock) && record.generation == model.generation)
                    .toList();
            model.inFlight = "delete";
            onIt.forEach(record -> record.inFlight = "delete-clock");
            HttpResponse<String> response = send(base, "DELETE", "/clocks/" + clock, null);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
            onIt.forEach(record -> {
                record.gone = true;
                record.inFlight = null;
            });
            model.exists = false;
            model.inFlight = null;
            if (clock.equals(CHURNED)) {
                churnedDeletes.incrementAndGet();
            }
        }

        private Record add(String base, String clock, String id, Random random)
                throws IOException, InterruptedException {
            Record record = new Record(clock, clocks.get(clock).generation, id, random.nextInt(4),
                    "{\"n\":" + random.nextInt(1000) + "}");
            records.put(id, record);
            record.inFlight = "add";
            HttpResponse<String> response = send(base, "POST", prefix(clock) + "/timers", "{\"id\":\"" + id
                    + "\",\"delay\":" + (1_000 + random.nextInt(100_000)) + ",\"priority\":" + record.priority
                    + ",\"payload\":" + record.payload + "}");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            acknowledge(record, response);
            ackedAdds.incrementAndGet();
            return record;
        }

        private void edit(String base, Record record, Random random) throws IOException, InterruptedException {
            record.inFlight = "edit";
            record.requestedPriority = random.nextInt(4);
            HttpResponse<String> response = send(base, "PATCH", record.path(), "{\"delay\":"
                    + (1_000 + random.nextInt(100_000)) + ",\"priority\":" + record.requestedPriority + "}");
            if (response.statusCode() == 404) {
                record.inFlight = null; // fired by an advance meanwhile
                return;
            }
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            acknowledge(record, response);
        }

        private void acknowledge(Record record, HttpResponse<String> response) {
            JsonNode timer = parse(response);
            String etag = response.headers().firstValue("ETag").orElseThrow();
            etags.put(record.clock + " " + etag, timer);
            record.etags.add(etag);
            clocks.get(record.clock).maxSequence.accumulateAndGet(timer.get("sequence").asLong(), Math::max);
            record.ack(timer);
        }

        private void cancel(String base, Record record) throws IOException, InterruptedException {
            record.inFlight = "cancel";
            HttpResponse<String> response = send(base, "DELETE", record.path(), null);
            assertThat(response.statusCode()).isIn(204, 404);
            record.gone = true;
            record.inFlight = null;
        }

        private void advance(String base, String clock, long by) throws IOException, InterruptedException {
            ClockModel model = clocks.get(clock);
            model.requestedNow.addAndGet(by);
            // the largest limit, so an advance fires everything due as before (3,000 ms fire far fewer than 10,000)
            String path = clock.equals("default") ? "/clock/advance" : prefix(clock) + "/advance";
            HttpResponse<String> response = send(base, "POST", path + "?limit=10000", "{\"by\":" + by + "}");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode body = parse(response);
            model.ackedNow.accumulateAndGet(body.get("now").asLong(), Math::max);
            for (JsonNode fired : body.get("fired")) {
                Record record = records.get(fired.get("id").asString());
                assertThat(record.clock).as("fired on " + clock + ": " + fired).isEqualTo(clock);
                record.gone = true;
            }
        }

        private HttpResponse<String> send(String base, String method, String path, String body, String... headers)
                throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body));
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            if (headers.length > 0) {
                request.headers(headers);
            }
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        private JsonNode parse(HttpResponse<String> response) {
            return JSON.readTree(response.body());
        }

        /** Checks the restarted service against every acknowledged response. */
        void verifyAgainst(String base, String context) throws IOException, InterruptedException {
            Map<String, Long> nows = new java.util.HashMap<>();
            for (Map.Entry<String, ClockModel> entry : clocks.entrySet()) {
                nows.put(entry.getKey(), verifyClock(base, entry.getKey(), entry.getValue(), context));
            }
            int checked = 0;
            for (Record record : records.values()) {
                verifyTimer(base, record, nows.get(record.clock), context);
                checked++;
            }
            assertThat(checked).isEqualTo(records.size());
            verifyBatches(base, nows, context);
            for (String clock : clocks.keySet()) {
                if (nows.get(clock) >= 0) {
                    JsonNode invariants = parse(send(base, "GET", prefix(clock) + "/queue/invariants", null));
                    assertThat(invariants.get("ok").asBoolean()).as(context + ": " + clock + invariants).isTrue();
                    HttpResponse<String> added = send(base, "POST", prefix(clock) + "/timers",
                            "{\"id\":\"after-restart\",\"delay\":1}");
                    assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
                    assertThat(parse(added).get("sequence").asLong()).as(context + ": " + clock + " sequences continue")
                            .isGreaterThan(clocks.get(clock).maxSequence.get());
                }
            }
            assertThat(nows.get(DELETED)).as(context + ": " + DELETED + " stays deleted").isEqualTo(-1);
            for (String clock : RECREATED) {
                verifyOldTagsNeverMatchATimerMadeAfterTheCrash(base, clock, context);
            }
        }

        /** The clock's state after the restart; returns its now, or -1 when it does not exist. */
        private long verifyClock(String base, String clock, ClockModel model, String context)
                throws IOException, InterruptedException {
            HttpResponse<String> response = send(base, "GET", clock.equals("default") ? "/clock"
                    : "/clocks/" + clock, null);
            String what = context + ": clock " + clock + " [exists=" + model.exists + ", inFlight=" + model.inFlight
                    + ", now " + model.ackedNow + ".." + model.requestedNow + "] -> " + response.statusCode() + " "
                    + response.body();
            boolean mayExist = model.exists || "create".equals(model.inFlight);
            boolean mayBeAbsent = !model.exists || "delete".equals(model.inFlight);
            assertThat(response.statusCode()).as(what).isIn(mayExist ? 200 : 404, mayBeAbsent ? 404 : 200);
            if (response.statusCode() == 404) {
                return -1;
            }
            long now = parse(response).get("now").asLong();
            if (model.exists) {
                assertThat(now).as(what).isBetween(model.ackedNow.get(), model.requestedNow.get());
            } else {
                assertThat(now).as(what + " (created while the process died)").isZero();
            }
            return now;
        }

        private void verifyTimer(String base, Record record, long now, String context)
                throws IOException, InterruptedException {
            HttpResponse<String> response = send(base, "GET", record.path(), null);
            String what = context + ": " + record + " -> " + response.statusCode() + " " + response.body();
            JsonNode found = response.statusCode() == 200 ? parse(response) : null;
            assertThat(response.statusCode()).as(what).isIn(200, 404);
            if (found != null) {
                String etag = response.headers().firstValue("ETag").orElseThrow();
                JsonNode tagged = etags.get(record.clock + " " + etag);
                if (tagged != null) {
                    assertThat(found).as(what + ": a tag acknowledged before the crash names this state only")
                            .isEqualTo(tagged);
                }
            }
            if (record.gone && record.inFlight == null) {
                assertThat(found).as(what + " (cancelled, fired or its clock deleted, acknowledged)").isNull();
            } else if (record.acked == null) {
                if (found != null) {   // an add in flight may have been applied, exactly as sent
                    assertThat(found.get("priority").asInt()).as(what).isEqualTo(record.priority);
                    assertThat(found.get("payload").toString()).as(what).isEqualTo(record.payload);
                    assertThat(found.get("version").asLong()).as(what).isEqualTo(1);
                }
            } else if (found == null) {
                boolean firedByUnacknowledgedAdvance = now >= 0 && record.acked.get("fireTime").asLong() <= now;
                assertThat("cancel".equals(record.inFlight) || "edit".equals(record.inFlight)
                        || "delete-clock".equals(record.inFlight) || firedByUnacknowledgedAdvance)
                        .as(what + " vanished").isTrue();
            } else if ("edit".equals(record.inFlight)
                    && found.get("version").asLong() == record.acked.get("version").asLong() + 1) {
                assertThat(found.get("priority").asInt()).as(what).isEqualTo(record.requestedPriority);
                assertThat(found.get("sequence")).as(what).isEqualTo(record.acked.get("sequence"));
            } else {
                assertThat(found).as(what + " differs from its last acknowledged state").isEqualTo(record.acked);
            }
        }

        /**
         * Every timer of the batch clients is as the last acknowledged batch left it, except those a batch in flight
         * touched: each of those is as before that batch or as after it, and all of one batch's timers agree.
         */
        private void verifyBatches(String base, Map<String, Long> nows, String context)
                throws IOException, InterruptedException {
            List<String> inFlightIds = batchesInFlight.values().stream().flatMap(batch -> batch.after.keySet().stream())
                    .toList();
            List<BatchTimer> settled = batchTimers.values().stream()
                    .filter(timer -> !inFlightIds.contains(timer.id)).toList();
            for (int from = 0; from < settled.size(); from += FETCHES_AT_ONCE) {   // thousands: a few at a time
                List<BatchTimer> chunk = settled.subList(from, Math.min(from + FETCHES_AT_ONCE, settled.size()));
                List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> responses = chunk.stream()
                        .map(timer -> client.sendAsync(HttpRequest.newBuilder(URI.create(base + prefix(timer.clock)
                                + "/timers/" + timer.id)).timeout(Duration.ofSeconds(30)).build(),
                                HttpResponse.BodyHandlers.ofString())).toList();
                for (int i = 0; i < chunk.size(); i++) {
                    HttpResponse<String> response = responses.get(i).join();
                    String what = context + ": " + chunk.get(i) + " as its last acknowledged batch left it, got "
                            + response.statusCode() + " " + response.body();
                    assertThat(response.statusCode()).as(what).isIn(200, 404);
                    assertThat(response.statusCode() == 200 ? parse(response) : null).as(what)
                            .isEqualTo(chunk.get(i).acked);
                }
            }
            for (SentBatch batch : batchesInFlight.values()) {
                List<String> applied = new ArrayList<>();
                List<String> absent = new ArrayList<>();
                for (String id : batch.after.keySet()) {
                    JsonNode found = fetch(base, batch.clock, id);
                    boolean asBefore = java.util.Objects.equals(found, batch.before.get(id));
                    Expected expected = batch.after.get(id);
                    boolean asAfter = !batch.refused
                            && (expected == null ? found == null : expected.matches(found, nows.get(batch.clock)));
                    String what = context + ": " + id + " of the batch in flight " + batch.body() + " -> " + found;
                    assertThat(asBefore || asAfter).as(what + " is neither as before nor as after the batch").isTrue();
                    if (asBefore != asAfter) {
                        (asAfter ? applied : absent).add(id);
                    }
                }
                assertThat(applied.isEmpty() || absent.isEmpty()).as(context + ": batch in flight " + batch.body()
                        + " partly applied: " + applied + " applied, " + absent + " not").isTrue();
            }
        }

        /** The timer {@code id} on {@code clock}, without volatile parts, or null when it is not pending. */
        private JsonNode fetch(String base, String clock, String id) throws IOException, InterruptedException {
            HttpResponse<String> response = send(base, "GET", prefix(clock) + "/timers/" + id, null);
            assertThat(response.statusCode()).as(clock + "/" + id + ": " + response.body()).isIn(200, 404);
            return response.statusCode() == 200 ? parse(response) : null;
        }

        /**
         * Deletes {@code clock} (when it exists), creates it again and adds timers under the ids it had before the
         * crash: no tag taken before the crash matches one of them (If-Match with it fails with 412), and their
         * sequences start past every sequence the clock ever gave.
         */
        private void verifyOldTagsNeverMatchATimerMadeAfterTheCrash(String base, String clock, String context)
                throws IOException, InterruptedException {
            List<Record> tagged = records.values().stream()
                    .filter(record -> record.clock.equals(clock) && !record.etags.isEmpty()).limit(40).toList();
            assertThat(tagged).as(context + ": timers acknowledged on " + clock).isNotEmpty();
            assertThat(send(base, "DELETE", "/clocks/" + clock, null).statusCode()).isIn(204, 404);
            assertThat(send(base, "PUT", "/clocks/" + clock, "{\"now\":0}").statusCode()).isEqualTo(201);
            for (Record record : tagged) {
                HttpResponse<String> added = send(base, "POST", prefix(clock) + "/timers", "{\"id\":\"" + record.id
                        + "\",\"delay\":1000,\"priority\":" + record.priority + ",\"payload\":" + record.payload + "}");
                assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
                String what = context + ": " + record + " added again as " + added.body();
                assertThat(added.headers().firstValue("ETag").orElseThrow()).as(what).isNotIn(record.etags);
                assertThat(parse(added).get("sequence").asLong()).as(what + ": past every sequence of before")
                        .isGreaterThan(clocks.get(clock).maxSequence.get());
                for (String old : record.etags) {
                    HttpResponse<String> edited = send(base, "PATCH", record.path(), "{\"priority\":3}",
                            "If-Match", old);
                    assertThat(edited.statusCode()).as(what + ", If-Match: " + old).isEqualTo(412);
                }
            }
        }

        private static String prefix(String clock) {
            return clock.equals("default") ? "" : "/clocks/" + clock;
        }
    }

    /** A timer of a batch client: only that client touches it, and it never fires during the test. */
    private static final class BatchTimer {

        final String clock;
        final int worker;
        final String id;
        /** Its state after the last acknowledged batch that touched it; null once cancelled. */
        volatile JsonNode acked;
        volatile String etag;

        BatchTimer(String clock, int worker, String id) {
            this.clock = clock;
            this.worker = worker;
            this.id = id;
        }

        @Override
        public String toString() {
            return clock + "/" + id + "[acked=" + acked + ", etag=" + etag + "]";
        }
    }

    /**
     * A batch as sent, with what each timer it touches must look like if it was applied ({@link #after}) and if it
     * was not ({@link #before}: the last acknowledged state, null when absent).
     */
    private static final class SentBatch {

        final String clock;
        final List<ObjectNode> ops = new ArrayList<>();
        final Map<String, Expected> after = new java.util.LinkedHashMap<>();
        final Map<String, JsonNode> before = new java.util.HashMap<>();
        boolean refused;

        SentBatch(String clock) {
            this.clock = clock;
        }

        boolean touches(String id) {
            return after.containsKey(id);
        }

        void add(String id, long delay, int priority, String payload) {
            ObjectNode op = op("add", id).put("delay", delay).put("priority", priority);
            if (payload != null) {
                op.set("payload", JSON.readTree(payload));
            }
            after.put(id, new Expected(priority, payload == null ? null : JSON.readTree(payload), 1, null, delay));
        }

        /** An edit; {@code acked} is the timer's acknowledged state, where this batch has not touched it yet. */
        void edit(String id, Long delay, Integer priority, String ifMatch, JsonNode acked) {
            ObjectNode op = op("edit", id);
            if (delay != null) {
                op.put("delay", delay);
            }
            if (priority != null) {
                op.put("priority", priority);
            }
            if (ifMatch != null) {
                op.put("ifMatch", ifMatch);
            }
            Expected current = touches(id) ? after.get(id) : new Expected(acked.get("priority").asInt(),
                    acked.get("payload"), acked.get("version").asLong(), acked, null);
            after.put(id, current.edited(delay, priority));
        }

        void cancel(String id, String ifMatch) {
            ObjectNode op = op("cancel", id);
            if (ifMatch != null) {
                op.put("ifMatch", ifMatch);
            }
            after.put(id, null);
        }

        /** Fills in, for every timer the batch touches, its acknowledged state before the batch. */
        void before(Map<String, BatchTimer> timers) {
            for (String id : after.keySet()) {
                BatchTimer timer = timers.get(id);
                before.put(id, timer == null ? null : timer.acked);
            }
        }

        String body() {
            ObjectNode body = JSON.createObjectNode();
            ArrayNode array = body.putArray("ops");
            ops.forEach(array::add);
            return body.toString();
        }

        private ObjectNode op(String kind, String id) {
            ObjectNode op = JSON.createObjectNode().put("op", kind).put("id", id);
            ops.add(op);
            return op;
        }
    }

    /**
     * A pending timer as a batch leaves it. {@code acked} is its state before the batch (sequence, creation time,
     * fire time unless {@code delay} moved it), null for a timer the batch added; {@code delay} is the last delay the
     * batch gave it, so its fire time is the clock's time at the batch plus that.
     */
    private record Expected(int priority, JsonNode payload, long version, JsonNode acked, Long delay) {

        Expected edited(Long newDelay, Integer newPriority) {
            return new Expected(newPriority != null ? newPriority : priority, payload, version + 1, acked,
                    newDelay != null ? newDelay : delay);
        }

        /** Whether {@code found} is this state; the batch was applied at a clock time from 0 to {@code now}. */
        boolean matches(JsonNode found, long now) {
            if (found == null || found.get("priority").asInt() != priority || found.get("version").asLong() != version
                    || !java.util.Objects.equals(found.get("payload"), payload)) {
                return false;
            }
            long fireTime = found.get("fireTime").asLong();
            boolean fireTimeMatches = delay == null ? fireTime == acked.get("fireTime").asLong()
                    : fireTime - delay >= 0 && fireTime - delay <= now;
            return fireTimeMatches && (acked == null ? found.get("createdAt").asLong() <= now
                    : found.get("sequence").equals(acked.get("sequence"))
                            && found.get("createdAt").equals(acked.get("createdAt")));
        }
    }

    /** A clock as the clients saw it: created, deleted, moved. */
    private static final class ClockModel {

        final AtomicLong ackedNow = new AtomicLong();
        final AtomicLong requestedNow = new AtomicLong();
        final AtomicLong maxSequence = new AtomicLong();
        volatile boolean exists = true;
        volatile int generation;
        volatile String inFlight;
    }

    private static final class Record {

        final String clock;
        final int generation;
        final String id;
        final int priority;
        final String payload;
        final List<String> etags = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile JsonNode acked;
        volatile String inFlight;
        volatile boolean gone;
        volatile int requestedPriority;

        Record(String clock, int generation, String id, int priority, String payload) {
            this.clock = clock;
            this.generation = generation;
            this.id = id;
            this.priority = priority;
            this.payload = payload;
        }

        String path() {
            return Traffic.prefix(clock) + "/timers/" + id;
        }

        void ack(JsonNode timer) {
            acked = timer;
            inFlight = null;
        }

        @Override
        public String toString() {
            return clock + "#" + generation + "/" + id + "[acked=" + acked + ", inFlight=" + inFlight + ", gone="
                    + gone + "]";
        }
    }
}
