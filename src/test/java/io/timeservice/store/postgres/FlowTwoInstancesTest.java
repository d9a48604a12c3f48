package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 44 on the PostgreSQL store: two store instances on one schema, 16 claimers (8 on each) claiming and
 * acknowledging 1,200 ready deliveries of 6 keys under a concurrency of 3 per key. Each claimer holds what it claimed
 * until its next claim has answered, so the keys are at their limit all the time. A key never has more than 3 in
 * flight: counted by the claimers (a delivery counts from its claim's answer until its ack is sent, inside the time
 * the store holds it in flight) and read from the rows themselves after every claim; and 3 is reached, so the limit
 * is kept exactly, not by handing out less. Every delivery is claimed and acknowledged exactly once, and the key rows
 * end with nothing ready or in flight.
 */
class FlowTwoInstancesTest {

    private static final String CLOCK = "flow";
    private static final int KEYS = 6;
    private static final int PER_KEY = 200;
    private static final int CLAIMERS = 16;
    private static final int CONCURRENCY = 3;

    private static TestDatabase database;
    private static PostgresStore first;
    private static PostgresStore second;

    @BeforeAll
    static void twoInstancesAndAFlowClock() {
        database = TestDatabase.create(FlowTwoInstancesTest.class, CLAIMERS + 4);
        first = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        second = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        first.clocks().create(CLOCK, 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                RetryPolicy.DEFAULT).withFlow(new FlowLimits(CONCURRENCY, null, null, null, null)));
        for (int batch = 0; batch < KEYS; batch++) {
            List<BatchOp> adds = new ArrayList<>();
            for (int n = batch * PER_KEY; n < (batch + 1) * PER_KEY; n++) {
                adds.add(BatchOp.Add.keyed("job-" + n, Due.after(1 + n % 50), 0, null, "tenant-" + n % KEYS));
            }
            second.timerChanges().batch(CLOCK, adds);
        }
        assertThat(first.clockFiring().advance(CLOCK, 100L, null, Integer.MAX_VALUE).fired())
                .hasSize(KEYS * PER_KEY);
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @Test
    void sixteenClaimersOnTwoInstances_keepThreeInFlightPerKey_exactly() throws Exception {
        Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> most = new ConcurrentHashMap<>();
        Map<Long, UUID> claimBySequence = new ConcurrentHashMap<>();
        AtomicInteger doubleClaims = new AtomicInteger();
        AtomicInteger lostAcks = new AtomicInteger();
        AtomicInteger overLimitInRows = new AtomicInteger();
        AtomicInteger acked = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
        try {
            List<Future<?>> claimers = new ArrayList<>();
            for (int c = 0; c < CLAIMERS; c++) {
                PostgresStore mine = c % 2 == 0 ? first : second;
                PostgresStore other = c % 2 == 0 ? second : first;
                Random random = new Random(c);
                claimers.add(pool.submit(() -> {
                    start.await();
                    List<ClaimedDelivery> held = List.of();
                    int idle = 0;
                    while (acked.get() < KEYS * PER_KEY && idle < 10_000) {
                        List<ClaimedDelivery> claimed = mine.deliveries().claim(CLOCK, 1 + random.nextInt(4), 600_000);
                        for (ClaimedDelivery delivery : claimed) {
                            if (claimBySequence.putIfAbsent(delivery.sequence(), delivery.claim()) != null) {
                                doubleClaims.incrementAndGet();
                            }
                            int now = inFlight.computeIfAbsent(delivery.key(), k -> new AtomicInteger())
                                    .incrementAndGet();
                            most.computeIfAbsent(delivery.key(), k -> new AtomicInteger()).accumulateAndGet(now,
                                    Math::max);
                        }
                        overLimitInRows.addAndGet((int) database.queryLong("""
                                SELECT count(*) FROM (SELECT key FROM deliveries
                                                       WHERE clock = 'flow' AND state = 'in_flight'
                                                       GROUP BY key HAVING count(*) > %d) over""".formatted(CONCURRENCY)));
                        for (ClaimedDelivery delivery : held) { // acked through either instance
                            inFlight.get(delivery.key()).decrementAndGet();
                            PostgresStore acking = random.nextBoolean() ? mine : other;
                            if (acking.deliveries().ack(CLOCK, delivery.id(), delivery.claim().toString())) {
                                acked.incrementAndGet();
                            } else {
                                lostAcks.incrementAndGet();
                            }
                        }
                        held = claimed;
                        idle = claimed.isEmpty() ? idle + 1 : 0;
                    }
                    for (ClaimedDelivery delivery : held) {
                        inFlight.get(delivery.key()).decrementAndGet();
                        if (mine.deliveries().ack(CLOCK, delivery.id(), delivery.claim().toString())) {
                            acked.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> claimer : claimers) {
                claimer.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(doubleClaims).hasValue(0);
        assertThat(lostAcks).hasValue(0);
        assertThat(overLimitInRows).as("keys over their concurrency in the rows after a claim").hasValue(0);
        assertThat(most).hasSize(KEYS);
        for (int k = 0; k < KEYS; k++) {
            assertThat(most.get("tenant-" + k)).as("the most tenant-" + k + " had in flight").hasValue(CONCURRENCY);
        }
        assertThat(claimBySequence).hasSize(KEYS * PER_KEY);
        assertThat(database.queryLong("SELECT count(*) FROM deliveries WHERE state = 'acked'"))
                .isEqualTo(KEYS * PER_KEY);
        assertThat(database.queryLong("SELECT count(*) FROM flow_keys WHERE ready <> 0 OR in_flight <> 0")).isZero();
    }
}
