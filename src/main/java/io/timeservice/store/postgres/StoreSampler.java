package io.timeservice.store.postgres;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Takes the gauges' figures ({@link StoreSample}) every sample period on a thread of its own, started and stopped with
 * the firing loop: a sample scans rows, and firing must not wait for it. A failed sample keeps the last one (the
 * firing loop's looks log the outage). Thread-safe.
 */
final class StoreSampler implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StoreSampler.class.getName());

    private final Supplier<StoreSample> take;
    private final Duration period;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread sampling = new Thread(task, "timeservice-postgres-sample");
        sampling.setDaemon(true);
        return sampling;
    });
    private volatile StoreSample sample;

    StoreSampler(Supplier<StoreSample> take, Duration period) {
        this.take = take;
        this.period = period;
    }

    /** The sampler of the store's figures; {@code maxDeliveries} is {@code timeservice.deliveries.max}. */
    static StoreSampler of(Jdbc jdbc, ClockSkew skew, LongSupplier maxDeliveries, Duration period) {
        return new StoreSampler(() -> StoreSample.take(jdbc, skew, maxDeliveries.getAsLong()), period);
    }

    /** Takes the first sample at once, then one every period. */
    void start() {
        executor.scheduleWithFixedDelay(this::takeSample, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The last sample, null until the first was taken. */
    StoreSample sample() {
        return sample;
    }

    /** Stops sampling and waits for a sample being taken. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void takeSample() {
        try {
            sample = take.get();
        } catch (RuntimeException unavailable) {
            LOG.log(System.Logger.Level.DEBUG, "no gauge sample this period: " + unavailable.getMessage());
        }
    }
}
