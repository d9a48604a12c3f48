package io.timeservice.metrics;

import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.timeservice.core.QueueStatus;
import io.timeservice.core.TimerScheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Queue gauges read at scrape time from {@link TimerScheduler#status()}, which is O(1): a scrape never walks the
 * heap. Prometheus names: {@code timer_queue_depth}, {@code timer_queue_oldest_age_seconds} (wall clock) and
 * {@code timer_queue_oldest_age_virtual_seconds} (virtual clock, whose milliseconds it reports as seconds, the unit
 * Prometheus names carry); both ages are 0 when the queue is empty.
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
