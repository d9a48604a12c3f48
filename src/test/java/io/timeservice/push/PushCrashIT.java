package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of the service jar (memory store, journal, fsync always) while a push is in flight: after a restart on the
 * same data directory, no push the service acknowledged comes again, the one in flight comes again (after its lease,
 * counted from the restart), and every other timer is pushed once.
 *
 * <p>The clock pushes one at a time ({@code concurrency: 1}), so a push arriving proves that the one before it was
 * acknowledged: the pusher claims the next only once the last settlement, which waits for the journal, returned. The
 * receiver answers the first {@link #ACKED} pushes and holds the next open; the kill comes when that one arrives.
 */
class PushCrashIT {

    private static final int TIMERS = 60;
    private static final int ACKED = 30;

    @TempDir
    Path dataDir;

    @Test
    void sigkillWithAPushInFlight_repeatsOnlyTheUnacknowledgedPush_andLosesNone() throws Exception {
        Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch heldOpen = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        String inFlight;
        Set<String> acknowledged;
        try (Receiver receiver = new Receiver()) {
            AtomicInteger answered = new AtomicInteger();
            receiver.answer(request -> {
                String id = request.header("webhook-id");
                received.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
                order.add(id);
                if (answered.incrementAndGet() <= ACKED) {
                    return Receiver.Answer.status(204);
                }
                heldOpen.countDown();
                return new Receiver.Answer(204, Map.of(), () -> await(never, 120));
            });
            String clock = "{\"mode\":\"system\",\"retry\":{\"maxAttempts\":10,\"initialBackoff\":0},\"push\":{\"url\":\""
                    + receiver.url("/hooks") + "\",\"timeout\":10000,\"concurrency\":1}}";
            try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir,
                    "--timeservice.push.allow-private-targets=true", "--timeservice.fsync=always")) {
                ServiceApi api = new ServiceApi(service.baseUrl());
                api.expect(201, "PUT", "/clocks/hooks", clock);
                for (int i = 0; i < TIMERS; i++) {
                    api.expect(201, "POST", "/clocks/hooks/timers", "{\"id\":\"t" + i + "\",\"delay\":0}");
                }
                assertThat(heldOpen.await(2, TimeUnit.MINUTES)).as("push " + (ACKED + 1) + " arrived").isTrue();
                assertThat(service.kill()).isEqualTo(137);
                synchronized (order) {
                    acknowledged = new HashSet<>(order.subList(0, ACKED));
                    inFlight = order.get(ACKED);
                }
            }
            never.countDown(); // the held request's connection is gone with the process
            assertThat(acknowledged).hasSize(ACKED).doesNotContain(inFlight);

            receiver.answer(request -> {
                received.computeIfAbsent(request.header("webhook-id"), key -> new AtomicInteger()).incrementAndGet();
                return Receiver.Answer.status(204);
            });
            try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir,
                    "--timeservice.push.allow-private-targets=true")) {
                ServiceApi api = new ServiceApi(service.baseUrl());
                Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                        .untilAsserted(() -> assertThat(api.deliveryCounts("hooks").toString())
                                .contains("\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0"));
                assertThat(api.expect(200, "GET", "/clocks/hooks", null).get("size").asInt()).isZero();
            }
        }
        assertThat(received).as("every timer pushed").hasSize(TIMERS);
        for (String id : acknowledged) {
            assertThat(received.get(id).get()).as("acknowledged " + id + " pushed again").isEqualTo(1);
        }
        assertThat(received.get(inFlight).get()).as("the push in flight at the kill, pushed again").isEqualTo(2);
        received.forEach((id, times) -> {
            if (!acknowledged.contains(id) && !id.equals(inFlight)) {
                assertThat(times.get()).as(id + " pushed once").isEqualTo(1);
            }
        });
    }

    private static void await(CountDownLatch latch, long seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
