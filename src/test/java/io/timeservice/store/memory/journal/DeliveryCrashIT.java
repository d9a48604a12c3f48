package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * SIGKILL in the middle of delivery traffic on a system clock: timers fire by themselves, four workers claim and
 * acknowledge them, and the process dies. After a restart on the same data directory no acknowledged delivery comes
 * again, and every timer whose add was acknowledged and whose delivery was not is delivered (a claim in flight at
 * the crash comes back after its lease, measured from the restart).
 */
class DeliveryCrashIT {

    private static final int TIMERS = 3_000;
    private static final int WORKERS = 4;
    /**
     * Long enough that a worker acking its 20 one by one on a loaded machine does not lose a lease before the kill
     * (an ack refused as claim_lost would count as "in flight at the kill"), short enough that the claims in flight
     * at the kill come back soon after the restart.
     */
    private static final long LEASE = 10_000;

    @TempDir
    Path dataDir;

    @Test
    void sigkillWhileWorkersAck_losesNoDelivery_andRepeatsNoAcknowledgedOne() throws Exception {
        Set<String> added = ConcurrentHashMap.newKeySet();
        Set<String> ackedBeforeCrash = ConcurrentHashMap.newKeySet();
        // an ack sent when the process died may have been applied without its answer arriving: outcome unknown
        Set<String> ackSent = ConcurrentHashMap.newKeySet();
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            assertThat(api.send("PUT", "/clocks/work", "{\"mode\":\"system\",\"retry\":{\"maxAttempts\":100,"
                    + "\"initialBackoff\":0}}").statusCode()).isEqualTo(201);
            for (int i = 0; i < TIMERS; i++) {
                String id = "job-" + i;
                // spread over the next two seconds, so firing, claims and acks all run when the kill comes
                HttpResponse<String> response = api.send("POST", "/clocks/work/timers", "{\"id\":\"" + id
                        + "\",\"delay\":" + (i % 2_000) + "}");
                assertThat(response.statusCode()).isEqualTo(201);
                added.add(id);
            }
            AtomicBoolean dead = new AtomicBoolean();
            AtomicInteger acks = new AtomicInteger();
            // the workers claim no more once a third is acknowledged, so however fast they are compared with this
            // thread, the kill comes before every delivery is done (at most WORKERS claims of 20 are finished)
            CountDownLatch enoughAcked = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                workers.add(pool.submit(() -> {
                    while (!dead.get() && acks.get() < TIMERS / 3) {
                        try {
                            for (JsonNode d : api.claim("work", 20, LEASE, 200)) {
                                String id = d.get("id").asString();
                                ackSent.add(id);
                                HttpResponse<String> ack = api.send("POST", "/clocks/work/deliveries/" + id
                                        + "/ack", "{\"claim\":\"" + d.get("claim").asString() + "\"}");
                                if (ack.statusCode() == 204) {
                                    ackedBeforeCrash.add(id);
                                    if (acks.incrementAndGet() >= TIMERS / 3) {
                                        enoughAcked.countDown();
                                    }
                                }
                            }
                        } catch (IOException refused) {
                            return null; // the process is gone
                        }
                    }
                    return null;
                }));
            }
            assertThat(enoughAcked.await(2, TimeUnit.MINUTES)).as(TIMERS / 3 + " deliveries acknowledged").isTrue();
            service.kill();
            dead.set(true);
            for (Future<?> worker : workers) {
                worker.get(1, TimeUnit.MINUTES);
            }
            pool.shutdownNow();
        }
        assertThat(ackedBeforeCrash).isNotEmpty().hasSizeLessThan(TIMERS);

        Set<String> unknown = ConcurrentHashMap.newKeySet();
        unknown.addAll(ackSent);
        unknown.removeAll(ackedBeforeCrash);
        Map<String, Integer> deliveredAfter = new ConcurrentHashMap<>();
        Set<String> accountedFor = ConcurrentHashMap.newKeySet();
        accountedFor.addAll(ackedBeforeCrash);
        accountedFor.addAll(unknown);
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            await("every timer accounted for").atMost(Duration.ofMinutes(2)).pollInSameThread().until(() -> {
                // a long lease: acking a hundred one by one on a busy machine may take longer than LEASE
                for (JsonNode d : api.claim("work", 100, 60_000, 1_000)) {
                    String id = d.get("id").asString();
                    deliveredAfter.merge(id, 1, Integer::sum);
                    accountedFor.add(id);
                    assertThat(api.send("POST", "/clocks/work/deliveries/" + id + "/ack", "{\"claim\":\""
                            + d.get("claim").asString() + "\"}").statusCode()).isEqualTo(204);
                }
                return accountedFor.size() >= TIMERS;
            });
            JsonNode counts = api.deliveryCounts("work");
            assertThat(counts.toString()).contains("\"ready\":0", "\"inFlight\":0", "\"dead\":0");
        }
        assertThat(deliveredAfter.keySet()).as("acknowledged deliveries delivered again")
                .doesNotContainAnyElementsOf(ackedBeforeCrash);
        Set<String> everyDelivery = ConcurrentHashMap.newKeySet();
        everyDelivery.addAll(ackedBeforeCrash);
        everyDelivery.addAll(deliveredAfter.keySet());
        everyDelivery.addAll(unknown);
        assertThat(unknown).as("acks in flight at the kill: at most one per worker").hasSizeLessThanOrEqualTo(WORKERS);
        assertThat(everyDelivery).as("acknowledged adds whose delivery was lost").containsAll(added);
        assertThat(deliveredAfter.values()).containsOnly(1);
    }
}
