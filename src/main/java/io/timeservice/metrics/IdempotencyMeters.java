package io.timeservice.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.timeservice.store.IdempotencyStore;

/**
 * The {@code Idempotency-Key} meters, read from the {@link IdempotencyStore} at scrape time: {@code
 * timer_idempotency_keys} (keys held, kept answers and running requests, over every clock and caller) and {@code
 * timer_idempotency_replays_total} (repeats answered with a kept answer; per instance on PostgreSQL). No clock and no
 * key label, as the other gauges (the number of clocks is unbounded); the store gives the figure per clock.
 */
public final class IdempotencyMeters implements MeterBinder {

    private final IdempotencyStore store;

    public IdempotencyMeters(IdempotencyStore store) {
        this.store = store;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("timer.idempotency.keys", this, IdempotencyMeters::held).strongReference(true)
                .description("Idempotency-Keys held: kept answers and running first requests").register(registry);
        FunctionCounter.builder("timer.idempotency.replays", store, IdempotencyStore::replays)
                .description("Repeated requests answered with the answer kept for their Idempotency-Key")
                .register(registry);
    }

    private double held() {
        try {
            return store.heldByClock().values().stream().mapToLong(Long::longValue).sum();
        } catch (RuntimeException unavailable) {
            return Double.NaN; // the database cannot be reached: no figure rather than a wrong one
        }
    }
}
