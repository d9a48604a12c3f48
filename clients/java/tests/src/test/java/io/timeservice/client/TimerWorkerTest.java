package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link TimerWorker} against a real TimeService: throughput, failures, leases, closing and a crashed JVM. */
@ExtendWith(TimeServiceExtension.class)
class TimerWorkerTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void tenThousandDeliveries_eightHandlers_eachHandledExactlyOnce(@TestClock(queued = true) ClockClient clock) {
        int count = 10_000;
        ManyTimers.add(clock, "job-", count, i -> Duration.ofMillis(i % 100));
        Set<Long> fired = clock.advance(Duration.ofSeconds(1)).stream().map(Timer::sequence)
                .collect(Collectors.toSet());
        Map<Long, AtomicInteger> handled = new ConcurrentHashMap<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();

        TimerWorker worker = TimerWorker.on(clock).concurrency(8).pollWait(Duration.ofMillis(500)).handler(delivery -> {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            handled.computeIfAbsent(delivery.sequence(), s -> new AtomicInteger()).incrementAndGet();
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // a little work, so that handlers overlap
            running.decrementAndGet();
        }).start();
        try {
            // a bound for a machine its neighbours load heavily: quiet, this takes a few seconds
            Await.until("every delivery acknowledged", Duration.ofMinutes(3), () -> worker.stats().acked() == count,
                    worker::stats);
        } finally {
            worker.close();
        }

        assertEquals(fired, handled.keySet());
        assertEquals(List.of(), handled.entrySet().stream().filter(e -> e.getValue().get() != 1).toList());
        assertTrue(mostRunning.get() <= 8, "at most 8 handlers at once, saw " + mostRunning.get());
        assertTrue(mostRunning.get() > 1, "handlers ran side by side, saw at most " + mostRunning.get());
        WorkerStats stats = worker.stats();
        assertEquals(count, stats.claimed());
        assertEquals(0, stats.failed() + stats.lost() + stats.errors(), stats::toString);
        assertTrue(clock.deliveries().drained());
    }

    @Test
    void failedHandler_isNacked_andItsDeliveryComesAgain_afterItsRetryAfterWhenItAsks(
            @TestClock(queued = true) ClockClient clock) {
        clock.add("plain", Duration.ZERO);
        clock.add("later", Duration.ZERO);
        clock.advance(Duration.ZERO);
        Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();

        try (TimerWorker worker = TimerWorker.on(clock).concurrency(2).pollWait(Duration.ofMillis(500))
                .handler(delivery -> {
                    attempts.computeIfAbsent(delivery.id(), id -> new CopyOnWriteArrayList<>()).add(delivery.attempt());
                    if (delivery.attempt() == 1) {
                        throw delivery.id().equals("later") ? new RetryLaterException(Duration.ofMinutes(10))
                                : new IllegalStateException("the mail server is down");
                    }
                }).start()) {
            Await.until("both nacked", DEADLINE, () -> worker.stats().nacked() == 2, worker::stats);
            assertEquals(2, clock.deliveries().waiting());

            clock.advance(Duration.ofSeconds(2)); // past the clock's backoff (1 s ± 20 %), before 10 minutes
            Await.until("plain handled again", DEADLINE, () -> worker.stats().acked() == 1, worker::stats);
            assertEquals(List.of(1), attempts.get("later"));
            assertEquals(1, clock.deliveries().waiting());

            clock.advance(Duration.ofMinutes(10));
            Await.until("later handled again", DEADLINE, () -> worker.stats().acked() == 2, worker::stats);
        }
        assertEquals(Map.of("plain", List.of(1, 2), "later", List.of(1, 2)), attempts);
        assertTrue(clock.deliveries().drained());
    }

    @Test
    void aKeyAtItsConcurrency_holdsBackOnlyItsOwn_andTheWorkerGetsThemAfterItsAcks(TimeServiceClient ts)
            throws Exception {
        ClockClient clock = ts.createClock("flow-" + UUID.randomUUID(), ClockOptions.virtual(0).queued()
                .flow(FlowControl.perKey().concurrency(1)));
        for (int i = 0; i < 3; i++) {
            clock.add("hot-" + i, Duration.ZERO, 0, null, AddOptions.key("hot"));
        }
        clock.add("cold-a", Duration.ZERO, 0, null, AddOptions.key("a"));
        clock.add("cold-b", Duration.ZERO, 0, null, AddOptions.key("b"));
        clock.advance(Duration.ZERO);
        CountDownLatch release = new CountDownLatch(1);
        List<String> handled = new CopyOnWriteArrayList<>();
        AtomicInteger hotRunning = new AtomicInteger();
        AtomicInteger mostHotRunning = new AtomicInteger();

        try (TimerWorker worker = TimerWorker.on(clock).concurrency(4).pollWait(Duration.ofMillis(500))
                .handler(delivery -> {
                    if (delivery.key().equals("hot")) {
                        mostHotRunning.accumulateAndGet(hotRunning.incrementAndGet(), Math::max);
                        release.await(30, TimeUnit.SECONDS);
                        hotRunning.decrementAndGet();
                    }
                    handled.add(delivery.id());
                }).start()) {
            // hot-0 holds the hot key's one slot: the worker takes the other keys' deliveries meanwhile
            Await.until("both cold keys handled", DEADLINE, () -> worker.stats().acked() == 2, worker::stats);
            assertEquals(Set.of("cold-a", "cold-b"), Set.copyOf(handled));
            DeliveryCounts held = clock.deliveries();
            assertEquals(1, held.inFlight(), held::toString);
            assertEquals(2, held.ready(), held::toString);
            List<KeyState> busiest = clock.busiestKeys(1);
            assertEquals(List.of(new KeyState("hot", 2, 1, 2, 1, null, null, false)), busiest);

            release.countDown();
            Await.until("the held ones handled after the acks", DEADLINE, () -> worker.stats().acked() == 5,
                    worker::stats);
        } finally {
            clock.delete();
        }
        assertEquals(List.of("hot-0", "hot-1", "hot-2"), handled.subList(2, 5));
        assertEquals(1, mostHotRunning.get(), "the hot key never had more than its 1 in flight");
    }

    @Test
    void handlerLongerThanItsLease_keepsItByExtendingAtHalfTheLease(TimeServiceClient ts) throws Exception {
        ClockClient clock = ts.createClock("lease-" + UUID.randomUUID(), ClockOptions.system());
        CountDownLatch release = new CountDownLatch(1);
        try (TimerWorker worker = TimerWorker.on(clock).lease(Duration.ofSeconds(6)).pollWait(Duration.ofMillis(500))
                .handler(delivery -> release.await(30, TimeUnit.SECONDS)).start()) {
            clock.add("slow", Duration.ZERO);

            // two extensions, each half a 6 s lease after the one before: the handler has run 6 s, as long as its
            // first lease. The lease is long enough that an extension delayed by 3 s on a loaded machine still
            // comes in time (a 2 s lease left 1 s, which a stalled JVM can miss)
            Await.until("two extensions", DEADLINE, () -> worker.stats().extended() >= 2, worker::stats);
            DeliveryCounts held = clock.deliveries();
            assertEquals(1, held.inFlight(), held::toString);
            assertEquals(0, held.ready() + held.waiting(), held::toString);
            assertEquals(List.of(), clock.claim(1, Duration.ofSeconds(1), Duration.ZERO));

            release.countDown();
            Await.until("acknowledged", DEADLINE, () -> worker.stats().acked() == 1, worker::stats);
            assertEquals(0, worker.stats().lost());
        } finally {
            clock.delete();
        }
    }

    @Test
    void close_stopsClaiming_waitsForRunningHandlers_andSendsTheirAcks(@TestClock(queued = true) ClockClient clock)
            throws Exception {
        ManyTimers.add(clock, "first-", 4, i -> Duration.ZERO);
        clock.advance(Duration.ZERO);
        CountDownLatch started = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        TimerWorker worker = TimerWorker.on(clock).concurrency(4).prefetch(0).pollWait(Duration.ofMillis(500))
                .handler(delivery -> {
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
        }).start();
        assertTrue(started.await(30, TimeUnit.SECONDS));
        ManyTimers.add(clock, "second-", 3, i -> Duration.ZERO);
        clock.advance(Duration.ZERO);

        Thread closing = new Thread(worker::close);
        closing.start();
        Await.until("closing", DEADLINE, () -> worker.state() == TimerWorker.State.CLOSING);
        release.countDown();
        closing.join(DEADLINE.toMillis());

        assertFalse(closing.isAlive());
        assertEquals(TimerWorker.State.CLOSED, worker.state());
        assertEquals(new WorkerStats(4, 4, 0, 4, 0, 0, 0, 0), worker.stats());
        DeliveryCounts left = clock.deliveries();
        assertEquals(3, left.ready(), left::toString);
        assertEquals(0, left.inFlight(), left::toString);
    }

    @Test
    void handlerJvmCrashes_itsDeliveriesComeAgainToAnotherWorker_onceTheLeaseEnds(TimeServiceClient ts)
            throws Exception {
        ClockClient clock = ts.createClock("crash-" + UUID.randomUUID(), ClockOptions.virtual().queued()
                .retry(RetryPolicy.defaults().withInitialBackoff(Duration.ZERO).withJitter(0)));
        try {
            int count = 20;
            ManyTimers.add(clock, "crash-", count, i -> Duration.ZERO);
            clock.advance(Duration.ZERO);

            List<Long> handledByTheDead = runCrashingWorker(ts, clock);
            assertFalse(handledByTheDead.isEmpty());
            long heldByTheDead = clock.deliveries().inFlight();
            assertTrue(heldByTheDead >= handledByTheDead.size(), "in flight: " + heldByTheDead);

            clock.advance(Duration.ofSeconds(5)); // the dead worker's leases end
            Map<Long, List<Integer>> attempts = new ConcurrentHashMap<>();
            try (TimerWorker survivor = TimerWorker.on(clock).concurrency(4).pollWait(Duration.ofMillis(500))
                    .handler(d -> attempts.computeIfAbsent(d.sequence(), s -> new CopyOnWriteArrayList<>())
                            .add(d.attempt())).start()) {
                Await.until("every delivery acknowledged", DEADLINE, () -> survivor.stats().acked() == count,
                        survivor::stats);
            }
            assertEquals(count, attempts.size());
            for (long sequence : handledByTheDead) {
                assertEquals(List.of(2), attempts.get(sequence), "sequence " + sequence);
            }
            assertEquals(heldByTheDead, attempts.values().stream().filter(a -> a.equals(List.of(2))).count());
            assertTrue(clock.deliveries().drained());
        } finally {
            clock.delete();
        }
    }

    /** Runs {@link CrashingWorker} in a JVM of its own until it halts; the sequences it began to handle. */
    private static List<Long> runCrashingWorker(TimeServiceClient ts, ClockClient clock) throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, CrashingWorker.class.getName(), ts.uri().toString(), clock.name())
                .redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                lines.lines().forEach(output::add);
            } catch (IOException ignored) {
                // the child is gone
            }
        });
        reader.start();
        try {
            assertTrue(child.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the child did not halt: " + output);
        } finally {
            child.destroyForcibly();
        }
        reader.join(DEADLINE.toMillis());
        assertEquals(CrashingWorker.HALT_STATUS, child.exitValue(), () -> String.join("\n", output));
        List<Long> sequences = new ArrayList<>();
        for (String line : output) {
            if (line.startsWith("handling ")) {
                sequences.add(Long.parseLong(line.substring("handling ".length())));
            }
        }
        return sequences;
    }
}
