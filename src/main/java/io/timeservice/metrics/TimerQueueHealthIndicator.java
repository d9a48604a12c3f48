package io.timeservice.metrics;

import io.timeservice.core.InvariantReport;
import io.timeservice.core.QueueStatus;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.TimerScheduler;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code timerQueue} health component: UP while the heap's four invariants hold, DOWN naming the broken one,
 * and DOWN with {@code stopped} once the scheduler has stopped serving after a failure (fail-stop, until restart).
 * Part of the {@code readiness} group, so a load balancer routes away from a stopped service.
 *
 * <p>The invariant report comes from {@link TimerScheduler#invariants()}, the one mechanism every reader shares: it
 * is reused while the queue does not change, and above {@code timeservice.invariants.rate-limited-above} timers a
 * new O(n) walk (on a copy of the heap) starts at most once per {@code timeservice.invariants.min-check-interval},
 * so a probe never costs more than any other reader.
 */
@Component
class TimerQueueHealthIndicator implements HealthIndicator {

    private final TimerScheduler scheduler;

    TimerQueueHealthIndicator(TimerScheduler scheduler) {
        this.scheduler = scheduler;
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
        InvariantReport report = scheduler.invariants();
        InvariantReport.Check broken = report.firstFailure();
        Health.Builder health = broken == null
                ? Health.up().withDetail("invariants", "hold")
                : Health.down().withDetail("brokenInvariant", broken.name()).withDetail("detail", broken.detail());
        return health.withDetail("invariantsCheckedAt", report.checkedAt())
                .withDetail("size", status.size())
                .withDetail("now", status.now())
                .withDetail("arity", scheduler.arity())
                .withDetail("payloadBytes", scheduler.pendingBytes())
                .withDetail("capacityBytes", scheduler.capacityBytes())
                .build();
    }
}
