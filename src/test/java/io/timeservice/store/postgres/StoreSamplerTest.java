package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.model.ClockSettings;
import org.junit.jupiter.api.Test;

/**
 * The gauges' sampler ({@link StoreSampler}): samples at once and then every period on its own thread, keeps the last
 * sample when one fails, and, on a real PostgreSQL through the firing loop, counts what the store holds.
 */
class StoreSamplerTest {

    private static final Duration NEVER_IN_THIS_TEST = Duration.ofMinutes(10);

    private static StoreSample takenAt(long dbMillis) {
        return new StoreSample(dbMillis, Map.of(), 0, 0, 0, 0, 0, 0, 0, 0, 0, new ClockSkew.Measurement(0, 0), 0, 0,
                0, 0, 0, 0, 0);
    }

    @Test
    void samples_atOnce_andThenEveryPeriod() throws Exception {
        AtomicInteger taken = new AtomicInteger();
        try (StoreSampler sampler = new StoreSampler(() -> takenAt(taken.incrementAndGet()), Duration.ofMillis(1))) {
            assertThat(sampler.sample()).as("before the start").isNull();

            sampler.start();

            Poll.until("three samples", Duration.ofMinutes(1), () -> taken.get() >= 3);
            Poll.until("the third sample served", Duration.ofMinutes(1),
                    () -> sampler.sample() != null && sampler.sample().takenAtDbMillis() >= 3);
        }
    }

    @Test
    void aFailedSample_keepsTheLastOne_andSamplingGoesOn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (StoreSampler sampler = new StoreSampler(() -> {
            if (calls.incrementAndGet() == 1) {
                return takenAt(1);
            }
            throw new IllegalStateException("the database is unreachable");
        }, Duration.ofMillis(1))) {
            sampler.start();

            Poll.until("samples after a failed one", Duration.ofMinutes(1), () -> calls.get() >= 3);
            assertThat(sampler.sample().takenAtDbMillis()).isEqualTo(1);
        }
    }

    @Test
    void theSample_countsWhatIsPending_andReady_andMeasuresTheSkew() throws Exception {
        try (TestDatabase database = TestDatabase.create(StoreSamplerTest.class, 6);
             PostgresStore store = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10,
                     ClockSettings.Mode.VIRTUAL)) {
            store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
            store.timerChanges().add("s", "later", 3_600_000, 0, null);
            store.timerChanges().add("s", "now", 0, 0, null);
            store.clocks().create("v", ClockSettings.Mode.VIRTUAL, 0, null);
            store.timerChanges().add("v", "virtual", 10, 0, "{\"x\":1}");
            PostgresFiringLoop loop = store.startFiring(new PostgresFiringLoop.Settings(NEVER_IN_THIS_TEST, 100,
                    Duration.ofMinutes(5), Duration.ofMillis(100)));

            Counts.awaitAtLeast(() -> loop.sample() != null && loop.sample().ready() == 1 ? 1 : 0, 1,
                    "a sample that saw the ready delivery");
            StoreSample sample = loop.sample();
            assertThat(sample.clocks()).isEqualTo(3); // default, s, v
            assertThat(sample.pendingTimers()).isEqualTo(2);
            assertThat(sample.pendingBytes()).isEqualTo("later".length() + "virtual".length() + "{\"x\":1}".length());
            assertThat(sample.inFlight() + sample.waiting() + sample.dead()).isZero();
            assertThat(Math.abs(sample.skew().skewMillis())).isLessThanOrEqualTo(sample.skew().roundTripMillis() + 50);
        }
    }
}
