package io.timeservice.store.postgres;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * What the deliveries' tests share: a store on a schema of the test class's own, and a fresh virtual queue clock at 0
 * per test, retried by {@link #THREE_ATTEMPTS}. On the virtual clocks, as in memory, leases and retries follow the
 * clock's own time, so the tests end them by advancing; on a system clock a test moves a row's time into the past
 * with SQL instead of sleeping.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class QueueClockTest {

    /** Three attempts, 60 s then 120 s of backoff, no jitter. */
    static final RetryPolicy THREE_ATTEMPTS = new RetryPolicy(3, 60_000, 2.0, 600_000, 0);

    static TestDatabase database;
    static PostgresStore store;
    static FreshClocks clocks;
    static String clock;

    @BeforeAll
    void openStore() {
        database = TestDatabase.create(getClass(), 4);
        // patient: a test holds a clock's row while a claim queues behind it (LockWaits.PATIENT)
        store = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 100, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        clocks = new FreshClocks(store, "q");
    }

    @AfterAll
    void dropSchema() {
        database.close();
    }

    @BeforeEach
    void freshQueueClock() {
        clock = clocks.next(0, ClockSettings.DeliveryMode.QUEUE, THREE_ATTEMPTS);
    }

    static PostgresDeliveries deliveries() {
        return store.deliveries();
    }

    /** Adds timers due 1 ms from now with the given priorities, then advances the clock by 1 ms. */
    static void fired(String... idsAndPriorities) {
        for (int i = 0; i < idsAndPriorities.length; i += 2) {
            store.timerChanges().add(clock, idsAndPriorities[i], 1, Integer.parseInt(idsAndPriorities[i + 1]),
                    "{\"i\":" + i + "}");
        }
        advance(1);
    }

    static void advance(long by) {
        store.clockFiring().advance(clock, by, null, Integer.MAX_VALUE);
    }

    static long now() {
        return store.clocks().get(clock).now();
    }

    static String token(ClaimedDelivery delivery) {
        return delivery.claim().toString();
    }

    static long pendingInBudget() {
        return database.queryLong("SELECT sum(timers) FROM pending_budget");
    }

    /** Claims and nacks every ready delivery until the retry policy gives up on each: all of them end dead. */
    static void killAllReady() {
        for (int attempt = 1; attempt <= THREE_ATTEMPTS.maxAttempts(); attempt++) {
            for (ClaimedDelivery claimed : deliveries().claim(clock, 100, 30_000)) {
                deliveries().nack(clock, claimed.id(), token(claimed), 0L);
            }
        }
    }
}
