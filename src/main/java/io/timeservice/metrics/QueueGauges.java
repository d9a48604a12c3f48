package io.timeservice.metrics;

import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.timeservice.core.QueueStatus;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.TimerScheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Queue gauges read at scrape time from {@link TimerScheduler#status()}, which is O(1): a scrape never walks the
 * heap. Prometheus names: {@code timer_queue_depth}, {@code timer_queue_oldest_age_seconds} (wall clock) and
 * {@code timer_queue_oldest_age_virtual_seconds} (virtual clock, whose milliseconds it reports as seconds, the unit
 * Prometheus names carry); both ages are 0 when the queue is empty.
 *
 * <p>For the capacity and health alerts: {@code timer_queue_capacity} and {@code timer_queue_capacity_bytes} (the
 * configured limits), {@code timer_queue_payload_bytes} (id + payload bytes held, against the byte limit),
 * {@code timer_queue_serving} (0 once the scheduler stopped after a failure, fail-stop) and
 * {@code timer_queue_invariants_ok} (0 while the last invariant report has a broken rule). The invariant gauge reads
 * {@link TimerScheduler#invariants()}, the report health and {@code GET /queue/invariants} share, so a scrape walks
 * the heap only when the queue changed since the last walk, and within the same rate limit as every other reader.
 * Gauges the stopped scheduler cannot answer read NaN.
 */
@Component
class QueueGauges implements MeterBinder {

    private final TimerScheduler scheduler;
    private final LongSupplier wallClockMillis;

    @Autowired
    QueueGauges(TimerScheduler scheduler) {
        this(scheduler, System::currentTimeMillis);
    }

    QueueGauges(TimerScheduler scheduler, LongSupplier wallClockMillis) {
        this.scheduler = scheduler;
        this.wallClockMillis = wallClockMillis;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("timer.queue.depth", scheduler, s -> s.status().size())
                .description("Pending timers")
                .register(registry);
        Gauge.builder("timer.queue.oldest.age", this, QueueGauges::oldestAgeSeconds)
                .description("Wall-clock age of the longest-waiting pending timer")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("timer.queue.oldest.age.virtual", this, QueueGauges::oldestAgeVirtualSeconds)
                .description("Virtual-clock age of the longest-waiting pending timer: now - its createdAt")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("timer.queue.capacity", scheduler, TimerScheduler::capacity)
                .description("Most pending timers (timeservice.capacity); an add beyond it gets capacity_exceeded")
                .register(registry);
        Gauge.builder("timer.queue.capacity.bytes", scheduler, TimerScheduler::capacityBytes)
                .description("Most id + payload bytes all pending timers may hold (timeservice.capacity-bytes)")
                .register(registry);
        Gauge.builder("timer.queue.payload", this, gauges -> gauges.unlessStopped(scheduler::pendingBytes))
                .description("Id + payload bytes the pending timers hold, against timer_queue_capacity_bytes")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("timer.queue.serving", scheduler, s -> s.stoppedBecause() == null ? 1 : 0)
                .description("1 while the scheduler serves, 0 once it stopped after a failure (fail-stop until"
                        + " restart: every queue call answers 503 storage_unavailable)")
                .register(registry);
        Gauge.builder("timer.queue.invariants.ok", this,
                        gauges -> gauges.unlessStopped(() -> scheduler.invariants().ok() ? 1 : 0))
                .description("1 while the heap's four invariants held at the last check, 0 when one is broken")
                .register(registry);
    }

    /** The value, or NaN once the scheduler has stopped serving and answers nothing. */
    private double unlessStopped(DoubleSupplier value) {
        try {
            return value.getAsDouble();
        } catch (SchedulerException stopped) {
            return Double.NaN;
        }
    }

    private double oldestAgeSeconds() {
        QueueStatus status = scheduler.status();
        Long created = status.oldestCreatedAtWallMillis();
        return created == null ? 0 : Math.max(0, wallClockMillis.getAsLong() - created) / 1000.0;
    }

    private double oldestAgeVirtualSeconds() {
        QueueStatus status = scheduler.status();
        Long created = status.oldestCreatedAt();
        return created == null ? 0 : (status.now() - created) / 1000.0;
    }
}
