package io.timeservice.metrics;

import java.time.Duration;
import java.util.function.LongSupplier;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.core.InvariantReport;
import io.timeservice.core.QueueStatus;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.TimerScheduler;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The {@code timerQueue} health component: UP while the heap's four invariants hold, DOWN naming the broken one,
 * and DOWN with {@code stopped} once the scheduler has stopped serving after a failure (fail-stop, until restart).
 * Part of the {@code readiness} group, so a load balancer routes away from a stopped service.
 *
 * <p>The invariant walk is O(n). It runs on a copy of the heap, so the scheduler lock is held only for the array
 * copies, but the copies and the walk still cost memory and CPU, so a probe must not trigger them every time: the
 * result is cached for {@code timeservice.health.invariant-check-interval} (default 10 s), and queues larger than
 * {@code timeservice.health.max-checked-size} (default 100,000) are not walked by probes at all (the detail
 * {@code invariants} then says {@code "not checked"}; {@code GET /queue/invariants} still checks on demand). Both
 * settings are bound and checked at start-up with the others ({@link TimeServiceProperties.Health}).
 */
@Component
class TimerQueueHealthIndicator implements HealthIndicator {

    private final TimerScheduler scheduler;
    private final long intervalNanos;
    private final int maxCheckedSize;
    private final LongSupplier nanoClock;

    private volatile CachedReport cached;

    @Autowired
    TimerQueueHealthIndicator(TimerScheduler scheduler, TimeServiceProperties properties) {
        this(scheduler, properties.health().invariantCheckInterval(), properties.health().maxCheckedSize(),
                System::nanoTime);
    }

    TimerQueueHealthIndicator(TimerScheduler scheduler, Duration interval, int maxCheckedSize,
                              LongSupplier nanoClock) {
        this.scheduler = scheduler;
        this.intervalNanos = interval.toNanos();
        this.maxCheckedSize = maxCheckedSize;
        this.nanoClock = nanoClock;
    }

    @Override
    public Health health() {
        try {
            String stopped = scheduler.stoppedBecause();
            return stopped == null ? serving() : stopped(stopped);
        } catch (SchedulerException stoppedMeanwhile) {
            return stopped(scheduler.stoppedBecause());
        }
    }

    private Health stopped(String reason) {
        return Health.down()
                .withDetail("stopped", reason + "; every queue call answers 503 storage_unavailable until restart")
                .build();
    }

    private Health serving() {
        QueueStatus status = scheduler.status();
        Health.Builder health = Health.up();
        if (status.size() > maxCheckedSize) {
            health.withDetail("invariants", "not checked above " + maxCheckedSize + " timers");
        } else {
            InvariantReport report = currentReport();
            InvariantReport.Check broken = report.firstFailure();
            if (broken != null) {
                health = Health.down()
                        .withDetail("brokenInvariant", broken.name())
                        .withDetail("detail", broken.detail());
            } else {
                health.withDetail("invariants", "hold");
            }
        }
        return health.withDetail("size", status.size())
                .withDetail("now", status.now())
                .withDetail("arity", scheduler.arity())
                .withDetail("payloadBytes", scheduler.pendingBytes())
                .withDetail("capacityBytes", scheduler.capacityBytes())
                .build();
    }

    private InvariantReport currentReport() {
        long now = nanoClock.getAsLong();
        CachedReport last = cached;
        if (last == null || now - last.checkedAtNanos() >= intervalNanos) {
            last = new CachedReport(scheduler.invariants(), now);
            cached = last;
        }
        return last.report();
    }

    private record CachedReport(InvariantReport report, long checkedAtNanos) {
    }
}
