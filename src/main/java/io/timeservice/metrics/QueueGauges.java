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
 * {@code timer_queue_oldest_age_virtual_ms} (virtual clock); both ages are 0 when the queue is empty.
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
        Gauge.builder("timer.queue.oldest.age.virtual.ms", this, QueueGauges::oldestAgeVirtualMillis)
                .description("Virtual-clock age of the longest-waiting pending timer, in virtual ms")
                .register(registry);
    }

    private double oldestAgeSeconds() {
        QueueStatus status = scheduler.status();
        Long created = status.oldestCreatedAtWallMillis();
        return created == null ? 0 : Math.max(0, wallClockMillis.getAsLong() - created) / 1000.0;
    }

    private double oldestAgeVirtualMillis() {
        QueueStatus status = scheduler.status();
        Long created = status.oldestCreatedAt();
        return created == null ? 0 : status.now() - created;
    }
}
