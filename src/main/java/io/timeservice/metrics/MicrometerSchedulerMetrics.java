package io.timeservice.metrics;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerMetrics;
import org.springframework.stereotype.Component;

/**
 * Reports the scheduler's operations to Micrometer. Every meter is registered up front from fixed enums, so no tag
 * value can ever come from a request (no timer ids, no payloads) and recording is a map lookup plus an add.
 *
 * <p>Prometheus names: {@code timer_operation_seconds{operation,outcome}} (histogram), {@code timer_added_total},
 * {@code timer_cancelled_total}, {@code timer_edited_total}, {@code timer_fired_total},
 * {@code timer_rejected_total{reason}}, {@code timer_advance_fired} and {@code timer_heap_sift_levels}.
 */
@Component
public class MicrometerSchedulerMetrics implements SchedulerMetrics {

    private final Map<Operation, Map<Outcome, Timer>> operationTimers = new EnumMap<>(Operation.class);
    private final Map<ErrorCode, Counter> rejections = new EnumMap<>(ErrorCode.class);
    private final Counter added;
    private final Counter cancelled;
    private final Counter edited;
    private final Counter fired;
    private final DistributionSummary firedPerAdvance;
    private final DistributionSummary siftLevels;

    public MicrometerSchedulerMetrics(MeterRegistry registry) {
        for (Operation operation : Operation.values()) {
            Map<Outcome, Timer> byOutcome = new EnumMap<>(Outcome.class);
            for (Outcome outcome : Outcome.values()) {
                byOutcome.put(outcome, Timer.builder("timer.operation")
                        .description("Latency of one scheduler call, waiting for the lock included")
                        .tag("operation", tagValue(operation))
                        .tag("outcome", tagValue(outcome))
                        .publishPercentileHistogram()
                        .register(registry));
            }
            operationTimers.put(operation, byOutcome);
        }
        for (ErrorCode code : ErrorCode.values()) {
            rejections.put(code, Counter.builder("timer.rejected")
                    .description("Requests refused, by the problem code sent to the client")
                    .tag("reason", code.code())
                    .register(registry));
        }
        added = Counter.builder("timer.added").description("Timers accepted").register(registry);
        cancelled = Counter.builder("timer.cancelled").description("Timers cancelled").register(registry);
        edited = Counter.builder("timer.edited").description("Successful timer edits").register(registry);
        fired = Counter.builder("timer.fired").description("Timers fired by advances").register(registry);
        firedPerAdvance = DistributionSummary.builder("timer.advance.fired")
                .description("Timers fired per advance call")
                .register(registry);
        siftLevels = DistributionSummary.builder("timer.heap.sift.levels")
                .description("Heap levels an entry moved in one sift")
                .register(registry);
    }

    @Override
    public void operation(Operation operation, Outcome outcome, long nanos) {
        operationTimers.get(operation).get(outcome).record(nanos, TimeUnit.NANOSECONDS);
        if (outcome == Outcome.SUCCESS) {
            switch (operation) {
                case ADD -> added.increment();
                case CANCEL -> cancelled.increment();
                case EDIT -> edited.increment();
                default -> {
                }
            }
        }
    }

    @Override
    public void advanced(int count) {
        fired.increment(count);
        firedPerAdvance.record(count);
    }

    @Override
    public void siftLevels(int levels) {
        siftLevels.record(levels);
    }

    @Override
    public void rejected(ErrorCode code) {
        rejections.get(code).increment();
    }

    private static String tagValue(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
