package io.timeservice.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.timeservice.tracing.TimerSpans;
import org.springframework.beans.factory.annotation.Autowired;
import io.micrometer.core.instrument.Timer;
import io.timeservice.model.ErrorCode;
import io.timeservice.store.StoreMetrics;
import org.springframework.stereotype.Component;

/**
 * Reports the scheduler's operations to Micrometer. Every meter is registered up front from fixed enums, so no tag
 * value can ever come from a request (no timer ids, no payloads) and recording is a map lookup plus an add.
 *
 * <p>Prometheus names: {@code timer_operation_seconds{operation,outcome}} (histogram), {@code timer_added_total},
 * {@code timer_cancelled_total}, {@code timer_edited_total}, {@code timer_fired_total},
 * {@code timer_rejected_total{reason}}, {@code timer_dedupe_refused_total}, {@code timer_advance_fired} and {@code timer_heap_sift_levels}; for
 * deliveries {@code timer_deliveries_total{event}}, and the histograms {@code timer_delivery_lateness_seconds}
 * (claim time minus the time a system clock's delivery became ready) and {@code timer_fire_lag_seconds} (when the
 * firing thread fired a timer minus its fireTime; schedule occurrences included, so it is their lateness too); for
 * schedules {@code timer_schedule_occurrences_total{outcome="fired|skipped"}}.
 *
 * <p>The two delivery histograms have fixed buckets from 1 ms to 60 s ({@link #DELIVERY_BUCKETS}) rather than
 * Micrometer's percentile histogram: 17 series each instead of about 70, and bucket bounds at the values an
 * objective is written in (the lateness alert's 1 s is a bound, so its p99 test is exact, not interpolated).
 */
@Component
public class MicrometerStoreMetrics implements StoreMetrics {

    /** Bucket bounds of the delivery lateness and fire lag histograms: 1 ms to 60 s, about 1-2.5-5 per decade. */
    static final Duration[] DELIVERY_BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
        Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)};

    private final Map<Operation, Map<Outcome, Timer>> operationTimers = new EnumMap<>(Operation.class);
    private final Map<ErrorCode, Counter> rejections = new EnumMap<>(ErrorCode.class);
    private final Map<DeliveryEvent, Counter> deliveryEvents = new EnumMap<>(DeliveryEvent.class);
    private final Counter added;
    private final Counter reservedRefused;
    private final Counter flowTokensDenied;
    private final Counter cancelled;
    private final Counter edited;
    private final Counter fired;
    private final DistributionSummary firedPerAdvance;
    private final DistributionSummary siftLevels;
    private final Counter occurrencesFired;
    private final Counter occurrencesSkipped;
    private final Timer deliveryLateness;
    private final Timer fireLag;

    /** The firing spans (issue 46); a tracer that records nothing without an OTLP endpoint. */
    private final TimerSpans spans;

    public MicrometerStoreMetrics(MeterRegistry registry) {
        this(registry, new TimerSpans(io.micrometer.tracing.Tracer.NOOP));
    }

    @Autowired
    public MicrometerStoreMetrics(MeterRegistry registry, TimerSpans spans) {
        this.spans = spans;
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
        reservedRefused = Counter.builder("timer.dedupe.refused")
                .description("Adds refused duplicate_id because the clock keeps the id reserved (its dedupeWindow)")
                .register(registry);
        added = Counter.builder("timer.added").description("Timers accepted").register(registry);
        cancelled = Counter.builder("timer.cancelled").description("Timers cancelled").register(registry);
        edited = Counter.builder("timer.edited").description("Successful timer edits").register(registry);
        fired = Counter.builder("timer.fired").description("Timers fired by advances and by the firing thread")
                .register(registry);
        firedPerAdvance = DistributionSummary.builder("timer.advance.fired")
                .description("Timers fired per advance call")
                .register(registry);
        siftLevels = DistributionSummary.builder("timer.heap.sift.levels")
                .description("Heap levels an entry moved in one sift")
                .register(registry);
        flowTokensDenied = Counter.builder("timer.flow.tokens.denied")
                .description("Flow control: keys found without a rate token at a claim, and claims cut short by"
                        + " their clock's rate (issue 44; per key: GET /clocks/{clock})")
                .register(registry);
        for (DeliveryEvent event : DeliveryEvent.values()) {
            deliveryEvents.put(event, Counter.builder("timer.deliveries")
                    .description("Deliveries by what happened to them: claimed, acked, nacked, expired (lease"
                            + " ended), redelivered (ready again after a nack or expiry), dead (last attempt"
                            + " failed), redriven and deleted (dead deliveries)")
                    .tag("event", tagValue(event))
                    .register(registry));
        }
        occurrencesFired = occurrences(registry, "fired");
        occurrencesSkipped = occurrences(registry, "skipped");
        deliveryLateness = deliveryHistogram(registry, "timer.delivery.lateness",
                "Claim time minus the time a system clock's delivery became ready (its fireTime, or its retry time)");
        fireLag = deliveryHistogram(registry, "timer.fire.lag",
                "When the firing thread fired a system clock's timer minus its fireTime");
    }

    private static Counter occurrences(MeterRegistry registry, String outcome) {
        return Counter.builder("timer.schedule.occurrences")
                .description("Schedule occurrences by outcome: fired, or skipped (paused, beyond max-catch-up, or a"
                        + " missed one that catchUp leaves out)")
                .tag("outcome", outcome)
                .register(registry);
    }

    @Override
    public void scheduleOccurrences(int fired, int skipped) {
        if (fired > 0) {
            occurrencesFired.increment(fired);
        }
        if (skipped > 0) {
            occurrencesSkipped.increment(skipped);
        }
    }

    private static Timer deliveryHistogram(MeterRegistry registry, String name, String description) {
        return Timer.builder(name)
                .description(description)
                .serviceLevelObjectives(DELIVERY_BUCKETS)
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
    public void flowTokensDenied(int count) {
        flowTokensDenied.increment(count);
    }

    @Override
    public void deliveries(DeliveryEvent event, int count) {
        deliveryEvents.get(event).increment(count);
    }

    @Override
    public void deliveryLateness(long millis) {
        deliveryLateness.record(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void fireLag(long millis) {
        fireLag.record(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void rejected(ErrorCode code) {
        rejections.get(code).increment();
    }

    @Override
    public void reservedIdRefused() {
        reservedRefused.increment();
    }

    private static String tagValue(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void fired(String clock, List<io.timeservice.model.Timer> timers) {
        spans.fired(clock, timers);
    }
}
