package io.timeservice.metrics;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueStatus;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.TimerScheduler;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code timerQueue} health component: UP while the heap's four invariants hold, DOWN naming the broken one,
 * and DOWN with {@code stopped} once the scheduler has stopped serving after a failure (fail-stop, until restart).
 * Part of the {@code readiness} group, so a load balancer routes away from a stopped service.
 *
 * <p>Every clock is checked. The invariant report comes from {@link TimerScheduler#invariants()}, the one mechanism every reader shares: it
 * is reused while the queue does not change, and above {@code timeservice.invariants.rate-limited-above} timers a
 * new O(n) walk (on a copy of the heap) starts at most once per {@code timeservice.invariants.min-check-interval},
 * so a probe never costs more than any other reader.
 */
public class TimerQueueHealthIndicator implements HealthIndicator {

    private final Clocks clocks;

    public TimerQueueHealthIndicator(Clocks clocks) {
        this.clocks = clocks;
    }

    @Override
    public Health health() {
        TimerScheduler main = clocks.defaultScheduler();
        try {
            String stopped = main.stoppedBecause();
            return stopped == null ? serving() : stopped(stopped);
        } catch (ProblemException stoppedMeanwhile) {
            return stopped(main.stoppedBecause());
        }
    }

    private Health stopped(String reason) {
        return Health.down()
                .withDetail("stopped", reason + "; every queue call answers 503 storage_unavailable until restart")
                .build();
    }

    /** UP while every clock's invariants hold; DOWN naming the first clock (by name) whose report fails. */
    private Health serving() {
        long size = 0;
        long payloadBytes = 0;
        long oldestCheck = Long.MAX_VALUE;
        for (Clocks.Clock clock : clocks.all()) {
            TimerScheduler scheduler = clock.scheduler();
            InvariantReport report;
            QueueStatus status;
            try {
                report = scheduler.invariants();
                status = scheduler.status();
            } catch (ProblemException deletedMeanwhile) {
                if (deletedMeanwhile.code() == ErrorCode.CLOCK_NOT_FOUND) {
                    continue;
                }
                throw deletedMeanwhile;
            }
            InvariantReport.Check broken = report.firstFailure();
            if (broken != null) {
                return Health.down().withDetail("clock", clock.name()).withDetail("brokenInvariant", broken.name())
                        .withDetail("detail", broken.detail()).withDetail("invariantsCheckedAt", report.checkedAt())
                        .build();
            }
            size += status.size();
            payloadBytes += scheduler.pendingBytes();
            oldestCheck = Math.min(oldestCheck, report.checkedAt());
        }
        return Health.up().withDetail("invariants", "hold")
                .withDetail("invariantsCheckedAt", oldestCheck == Long.MAX_VALUE ? 0 : oldestCheck)
                .withDetail("clocks", clocks.count())
                .withDetail("size", size)
                .withDetail("payloadBytes", payloadBytes)
                .withDetail("capacityBytes", clocks.budget().capacityBytes())
                .withDetail("now", clocks.defaultScheduler().now())
                .withDetail("arity", clocks.defaultScheduler().arity())
                .build();
    }
}
