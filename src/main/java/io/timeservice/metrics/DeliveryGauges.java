package io.timeservice.metrics;

import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.time.FiringLoop;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Delivery and firing-thread gauges over every clock, read at scrape time from each clock's
 * {@link MemoryClock#deliveryCounts()} (a volatile read, no scheduler lock): a scrape costs O(clocks) and never
 * waits for a busy clock. No clock label (the number of clocks is unbounded); per-clock figures are in
 * {@code GET /clocks/{clock}}.
 *
 * <p>Prometheus names: {@code timer_delivery_queue_depth{state}} (deliveries of all clocks by state: ready,
 * in_flight, waiting, dead), {@code timer_delivery_oldest_ready_age_seconds} (wall-clock age of the longest-ready
 * delivery of any system clock, 0 when none is ready; a virtual clock's times are not wall time, so its deliveries
 * are left out), {@code timer_delivery_held_back} (clocks whose due timers stay pending because the deliveries
 * hold {@code timeservice.deliveries.max}), {@code timer_delivery_capacity} (that limit, against the sum of
 * {@code timer_delivery_queue_depth}), {@code timer_firing_thread_lag_seconds} (how far behind the firing thread
 * is: wall now minus the earliest deadline it has not taken, 0 when none is overdue),
 * {@code timer_firing_refused_clocks} (clocks whose firing rounds the journal refuses),
 * {@code timer_firing_thread_alive} (1 while the firing thread runs), and for flow control (issue 44; no key label,
 * one key's figures are the busiest-keys call's) {@code timer_flow_held_back} (ready deliveries whose key is at its
 * concurrency or out of tokens) and {@code timer_flow_keys_at_limit} (the keys holding them).
 *
 * <p>The state gauge is not named {@code timer_deliveries}: that family is the {@code timer_deliveries_total}
 * counter's, Prometheus allows one type per family, and Micrometer's Prometheus registry silently drops a gauge
 * registered under a counter's name. The gauges read through this binder hold it strongly (as {@link QueueGauges}
 * does: Micrometer holds a gauge's object weakly by default).
 */
public class DeliveryGauges implements MeterBinder {

    private final ClockRegistry clocks;
    private final FiringLoop firing;
    private final LongSupplier wallClockMillis;

    @Autowired
    public DeliveryGauges(ClockRegistry clocks, FiringLoop firing) {
        this(clocks, firing, System::currentTimeMillis);
    }

    DeliveryGauges(ClockRegistry clocks, FiringLoop firing, LongSupplier wallClockMillis) {
        this.clocks = clocks;
        this.firing = firing;
        this.wallClockMillis = wallClockMillis;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        state(registry, "ready", DeliveryCounts::ready);
        state(registry, "in_flight", DeliveryCounts::inFlight);
        state(registry, "waiting", DeliveryCounts::waiting);
        state(registry, "dead", DeliveryCounts::dead);
        Gauge.builder("timer.delivery.oldest.ready.age", this, DeliveryGauges::oldestReadyAgeSeconds)
                .description("Wall-clock age of the longest-ready delivery of any system clock (0 when none is"
                        + " ready): how long the oldest claimable delivery has waited for a worker")
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.delivery.held.back", this,
                        gauges -> gauges.sum(counts -> counts.firingHeldBack() ? 1 : 0))
                .description("Clocks whose due timers stay pending because the deliveries of all clocks hold"
                        + " timeservice.deliveries.max; they fire once deliveries are acknowledged or deleted")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.flow.held.back", this, gauges -> gauges.sumFlow(0))
                .description("Ready deliveries that flow control holds back because their key is at its concurrency"
                        + " or out of rate tokens, over all clocks")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.flow.keys.at.limit", this, gauges -> gauges.sumFlow(1))
                .description("Keys whose ready deliveries flow control holds back, over all clocks")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.delivery.capacity", clocks, all -> all.budget().maxDeliveries())
                .description("Most deliveries of all clocks together, in every state (timeservice.deliveries.max)")
                .register(registry);
        Gauge.builder("timer.firing.thread.lag", firing, loop -> loop.lagMillis() / 1000.0)
                .description("How far behind the firing thread is: wall now minus the earliest deadline it has"
                        + " not taken yet, 0 when nothing is overdue")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("timer.firing.refused.clocks", firing, FiringLoop::refusingClocks)
                .description("Clocks whose last firing round was refused (storage_unavailable: journal back-pressure"
                        + " or a stopped journal); their rounds are tried again with backoff")
                .register(registry);
        Gauge.builder("timer.firing.thread.alive", firing, loop -> loop.isAlive() ? 1 : 0)
                .description("1 while the thread that fires system clocks runs, 0 once it has stopped")
                .register(registry);
    }

    private void state(MeterRegistry registry, String state, ToIntFunction<DeliveryCounts> count) {
        Gauge.builder("timer.delivery.queue.depth", this, gauges -> gauges.sum(count))
                .description("Deliveries of all clocks by state; ready: claimable now, in_flight: claimed with a"
                        + " lease running, waiting: nacked or expired, until their retry time, dead: out of"
                        + " attempts, until redriven or deleted")
                .tag("state", state)
                .strongReference(true)
                .register(registry);
    }

    private double sum(ToIntFunction<DeliveryCounts> count) {
        long sum = 0;
        for (ClockRegistry.Clock clock : clocks.all()) {
            sum += count.applyAsInt(clock.scheduler().deliveryCounts());
        }
        return sum;
    }

    /** The sum over clocks of {@link MemoryClock#flowHeldBack()}'s figure {@code index}. */
    private double sumFlow(int index) {
        long sum = 0;
        for (ClockRegistry.Clock clock : clocks.all()) {
            sum += clock.scheduler().flowHeldBack()[index];
        }
        return sum;
    }

    private double oldestReadyAgeSeconds() {
        long now = wallClockMillis.getAsLong();
        long oldestAge = 0;
        for (ClockRegistry.Clock clock : clocks.all()) {
            Long readyAt = clock.scheduler().deliveryCounts().oldestReadyAt();
            if (readyAt != null && clock.settings().isSystem()) {
                oldestAge = Math.max(oldestAge, now - readyAt);
            }
        }
        return oldestAge / 1000.0;
    }
}
