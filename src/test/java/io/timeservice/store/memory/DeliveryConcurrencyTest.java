package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.time.FiringLoop;
import org.junit.jupiter.api.Test;

/**
 * Eight claimers drain 20,000 timers a system clock's firing thread fires: every timer is acknowledged exactly once,
 * no delivery is ever held by two live claims, and the deliveries of a claimer that stops acknowledging come back to
 * the others with attempt 2.
 */
class DeliveryConcurrencyTest {

    private static final int TIMERS = 20_000;
    private static final int CLAIMERS = 8;
    /** The quitter's lease, which runs out; the others' are long, so a stalled thread never loses one. */
    private static final long ABANDONED_LEASE = 1_000;
    private static final long LEASE = 600_000;

    @Test
    void eightClaimers_ackEveryTimerExactlyOnce_andAnAbandonedClaimIsRedelivered() throws Exception {
        ClockRegistry clocks = new ClockRegistry((clock, budget) -> new MemoryClock(clock, 4, budget,
                System::currentTimeMillis, StoreMetrics.NONE), new PendingBudget(TIMERS, Long.MAX_VALUE), 10,
                System::currentTimeMillis);
        ClockSettings settings = new ClockSettings(ClockSettings.Mode.SYSTEM, ClockSettings.DeliveryMode.QUEUE,
                new RetryPolicy(10, 0, 1.0, 0, 0.0));
        MemoryClock clock = clocks.create("work", 0, settings).clock().scheduler();
        FiringLoop firing = new FiringLoop(System::currentTimeMillis, 1_000, 1_000);
        clocks.fireWith(firing);
        firing.start();
        ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
        try {
            for (int i = 0; i < TIMERS; i++) {
                clock.add("job-" + i, i % 50, i % 3, null, Trace.NONE);
            }
            Map<Long, String> held = new ConcurrentHashMap<>(); // sequence -> claim holding it now
            Set<Long> acked = ConcurrentHashMap.newKeySet();
            Map<Long, Integer> abandoned = new ConcurrentHashMap<>(); // sequence -> attempt abandoned
            AtomicInteger twiceHeld = new AtomicInteger();
            AtomicInteger ackedTwice = new AtomicInteger();
            List<Integer> redeliveredAttempts = java.util.Collections.synchronizedList(new ArrayList<>());
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean stop = new AtomicBoolean();
            List<Future<?>> claimers = new ArrayList<>();
            for (int c = 0; c < CLAIMERS; c++) {
                boolean quitter = c == 0; // takes one claim and never acknowledges it
                claimers.add(pool.submit(() -> {
                    start.await();
                    while (acked.size() < TIMERS && !stop.get()) {
                        for (Delivery d : clock.claim(50, quitter ? ABANDONED_LEASE : LEASE, 200)) {
                            if (held.putIfAbsent(d.sequence(), d.claim()) != null) {
                                twiceHeld.incrementAndGet();
                            }
                            if (abandoned.containsKey(d.sequence())) {
                                redeliveredAttempts.add(d.attempt());
                            }
                            if (quitter) {
                                abandoned.put(d.sequence(), d.attempt());
                                // the lease runs out with nobody holding it any more
                                held.remove(d.sequence(), d.claim());
                                continue;
                            }
                            held.remove(d.sequence(), d.claim());
                            clock.ack(d.id(), d.claim());
                            if (!acked.add(d.sequence())) {
                                ackedTwice.incrementAndGet();
                            }
                        }
                        if (quitter && !abandoned.isEmpty()) {
                            return null;
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            try {
                // the acknowledging claimers stop only once every delivery is acknowledged, or by failing
                await("every delivery acknowledged").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                        .until(() -> acked.size() == TIMERS || claimers.stream().skip(1).anyMatch(Future::isDone));
            } finally {
                stop.set(true);
            }
            for (Future<?> claimer : claimers) {
                claimer.get(60, TimeUnit.SECONDS);
            }
            assertThat(acked).hasSize(TIMERS);
            assertThat(twiceHeld.get()).isZero();
            assertThat(ackedTwice.get()).isZero();
            assertThat(abandoned).isNotEmpty();
            assertThat(redeliveredAttempts).hasSize(abandoned.size()).containsOnly(2);
            assertThat(clock.deliveryCounts().total()).isZero();
            assertThat(clocks.budget().timers()).isZero();
            assertThat(clocks.budget().deliveries()).isZero();
        } finally {
            pool.shutdownNow();
            firing.stop();
        }
    }
}
