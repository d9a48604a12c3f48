package io.timeservice.metrics;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Schedule;
import io.timeservice.store.postgres.PostgresFiringLoop;
import io.timeservice.store.postgres.PostgresStore;
import io.timeservice.store.postgres.StoreSample;

/**
 * The queue, delivery, schedule and firing gauges of {@link QueueGauges} and {@link DeliveryGauges}, under the same names, on
 * the PostgreSQL store, plus this instance's clock skew against the database. The counts are the firing loop's last
 * {@link StoreSample} (taken every {@code timeservice.postgresql.sample-period}), so a scrape reads memory and never
 * waits for the database; they read NaN until the first sample. Figures over all clocks, no clock label.
 *
 * <p>Not here: {@code timer_queue_invariants_ok} (no heap), {@code timer_queue_serving} (the memory store's fail-stop;
 * a lost database shows in readiness and recovers by itself). {@code timer_delivery_held_back} counts the clocks
 * that fire by themselves with a timer due by their now while the deliveries hold {@code timeservice.deliveries.max}
 * (sampled). {@code timer_flow_held_back} and {@code timer_flow_keys_at_limit} are read from the flow key rows
 * (sampled); {@code timer_flow_tokens_denied_total} is counted by the claims, as on the memory store.
 * New: {@code timer_store_clock_skew_seconds},
 * the database's clock minus this instance's (positive: the database is ahead), measured with each sample; the
 * database's clock decides every due time, so a skew shows only in times this instance reports from its own clock.
 */
public class PostgresStoreGauges implements MeterBinder {

    private final PostgresStore store;
    private final Capacities capacities;

    /** The configured bounds the gauges report beside the sampled figures. */
    public record Capacities(int timers, long timerBytes, long deliveries) {
    }

    public PostgresStoreGauges(PostgresStore store, Capacities capacities) {
        this.store = store;
        this.capacities = capacities;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (ClockSettings.Mode mode : ClockSettings.Mode.values()) {
            Gauge.builder("timer.clocks", this, gauges -> gauges.fromSample(sample -> sample.clocks(mode)))
                    .description("Clocks by mode, default included (timeservice.clocks.max at most over all modes)"
                            + "; sampled by the firing loop")
                    .tag("mode", mode.name().toLowerCase(java.util.Locale.ROOT))
                    .strongReference(true)
                    .register(registry);
        }
        for (Schedule.State state : Schedule.State.values()) {
            Gauge.builder("timer.schedules", this, gauges -> gauges.fromSample(sample -> sample.schedules(state)))
                    .description("Recurring schedules over all clocks, by state (active, paused, done);"
                            + " timeservice.schedules.max at most; sampled by the firing loop")
                    .tag("state", state.wire())
                    .strongReference(true)
                    .register(registry);
        }
        sampled(registry, "timer.clocks.paused", null, "Clocks paused by POST /clocks/{clock}/pause: their"
                + " deliveries are held back until a resume", StoreSample::pausedClocks);
        sampled(registry, "timer.queue.depth", null, "Pending timers over all clocks", StoreSample::pendingTimers);
        sampled(registry, "timer.queue.oldest.age", "seconds", "Age of the longest-waiting pending timer of any clock"
                + " (the database's clock)", sample -> sample.oldestPendingAgeMillis() / 1000.0);
        sampled(registry, "timer.queue.oldest.age.virtual", "seconds", "Largest virtual-clock age of a pending timer"
                + " over all clocks: its clock's now - its createdAt",
                sample -> sample.oldestPendingVirtualAgeMillis() / 1000.0);
        sampled(registry, "timer.queue.payload", "bytes", "Id + payload characters the pending timers of all clocks"
                + " hold, against timer_queue_capacity_bytes", StoreSample::pendingBytes);
        Gauge.builder("timer.queue.capacity", capacities, Capacities::timers)
                .description("Most pending timers and unacknowledged deliveries over all clocks"
                        + " (timeservice.capacity); an add beyond it gets capacity_exceeded")
                .register(registry);
        Gauge.builder("timer.queue.capacity.bytes", capacities, Capacities::timerBytes)
                .description("Most id + payload bytes all pending timers may hold (timeservice.capacity-bytes)")
                .register(registry);
        String states = "Deliveries of all clocks by state; ready: claimable now, in_flight: claimed with a lease"
                + " running, waiting: nacked or expired, until their retry time, dead: out of attempts";
        sampledState(registry, "ready", states, StoreSample::ready);
        sampledState(registry, "in_flight", states, StoreSample::inFlight);
        sampledState(registry, "waiting", states, StoreSample::waiting);
        sampledState(registry, "dead", states, StoreSample::dead);
        sampled(registry, "timer.delivery.oldest.ready.age", "seconds", "Age of the longest-ready delivery of any"
                + " system clock (0 when none is ready)", sample -> sample.oldestReadyAgeMillis() / 1000.0);
        sampled(registry, "timer.delivery.held.back", null, "Clocks whose due timers stay pending because the"
                + " deliveries of all clocks hold timeservice.deliveries.max; they fire once deliveries are"
                + " acknowledged or deleted", StoreSample::heldBackClocks);
        sampled(registry, "timer.flow.held.back", null, "Ready deliveries that flow control holds back because their"
                + " key is at its concurrency or out of rate tokens, over all clocks (from the key rows)",
                StoreSample::flowHeldBack);
        sampled(registry, "timer.flow.keys.at.limit", null, "Keys whose ready deliveries flow control holds back,"
                + " over all clocks", StoreSample::flowKeysAtLimit);
        Gauge.builder("timer.delivery.capacity", capacities, Capacities::deliveries)
                .description("Most deliveries of all clocks together, in every state (timeservice.deliveries.max)")
                .register(registry);
        sampled(registry, "timer.store.clock.skew", "seconds", "The database's clock minus this instance's"
                + " (positive: the database is ahead), within half the measuring round trip",
                sample -> sample.skew().skewMillis() / 1000.0);
        Gauge.builder("timer.firing.thread.lag", this, gauges -> gauges.fromLoop(loop -> loop.lagMillis() / 1000.0))
                .description("How late the firing loop's last look was: the database's now minus the earliest due"
                        + " time it found passed, 0 when nothing was overdue")
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.firing.thread.alive", this, gauges -> gauges.fromLoop(loop -> loop.isAlive() ? 1 : 0))
                .description("1 while the thread that fires system clocks runs, 0 once it has stopped")
                .strongReference(true)
                .register(registry);
    }

    private void sampled(MeterRegistry registry, String name, String unit, String description,
                         ToDoubleFunction<StoreSample> value) {
        Gauge.builder(name, this, gauges -> gauges.fromSample(value))
                .description(description + "; sampled by the firing loop")
                .baseUnit(unit)
                .strongReference(true)
                .register(registry);
    }

    private void sampledState(MeterRegistry registry, String state, String description,
                              ToDoubleFunction<StoreSample> value) {
        Gauge.builder("timer.delivery.queue.depth", this, gauges -> gauges.fromSample(value))
                .description(description + "; sampled by the firing loop")
                .tag("state", state)
                .strongReference(true)
                .register(registry);
    }

    private double fromSample(ToDoubleFunction<StoreSample> value) {
        PostgresFiringLoop loop = store.firing();
        StoreSample sample = loop == null ? null : loop.sample();
        return sample == null ? Double.NaN : value.applyAsDouble(sample);
    }

    private double fromLoop(ToDoubleFunction<PostgresFiringLoop> value) {
        PostgresFiringLoop loop = store.firing();
        return loop == null ? 0 : value.applyAsDouble(loop);
    }
}
