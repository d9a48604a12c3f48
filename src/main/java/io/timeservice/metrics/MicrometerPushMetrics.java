package io.timeservice.metrics;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.timeservice.model.Delivery;
import io.timeservice.push.PushAttempt;
import io.timeservice.tracing.TimerSpans;
import org.springframework.beans.factory.annotation.Autowired;
import io.micrometer.core.instrument.Timer;
import io.timeservice.push.PushMetrics;
import io.timeservice.push.PushOutcome;
import org.springframework.stereotype.Component;

/**
 * The pusher's metrics in Micrometer: {@code timer_push_attempts_total{outcome}} (success, http_4xx, http_5xx,
 * timeout, connect_error, refused), {@code timer_push_duration_seconds} (a histogram with the delivery buckets, 1 ms
 * to 60 s: a target's timeout is at most 60 s) and {@code timer_push_in_flight}. First attempts' lateness is the
 * delivery lateness histogram's already: a push is a claim.
 */
@Component
public final class MicrometerPushMetrics implements PushMetrics {

    private final Map<PushOutcome.Kind, Counter> attempts = new EnumMap<>(PushOutcome.Kind.class);
    private final Timer duration;
    private final Counter restarts;
    /** The attempts' client spans (issue 46); a tracer that records nothing without an OTLP endpoint. */
    private final TimerSpans spans;

    public MicrometerPushMetrics(MeterRegistry registry) {
        this(registry, new TimerSpans(io.micrometer.tracing.Tracer.NOOP));
    }

    @Autowired
    public MicrometerPushMetrics(MeterRegistry registry, TimerSpans spans) {
        this.spans = spans;
        for (PushOutcome.Kind kind : PushOutcome.Kind.values()) {
            attempts.put(kind, Counter.builder("timer.push.attempts")
                    .description("Push attempts by how they ended")
                    .tag("outcome", kind.tag())
                    .register(registry));
        }
        duration = Timer.builder("timer.push.duration")
                .description("How long one push attempt took, from sending to its answer or failure")
                .serviceLevelObjectives(MicrometerStoreMetrics.DELIVERY_BUCKETS)
                .register(registry);
        restarts = Counter.builder("timer.push.client.restarts")
                .description("Times the push HTTP client was replaced because its I/O reactor was down")
                .register(registry);
    }

    /** Registers {@code timer_push_in_flight}, read from {@code inFlight}. */
    public static void inFlightGauge(MeterRegistry registry, IntSupplier inFlight) {
        Gauge.builder("timer.push.in.flight", inFlight::getAsInt)
                .description("Push requests sent and not yet answered, over every clock")
                .register(registry);
    }

    @Override
    public void attempt(PushOutcome.Kind outcome, long nanos) {
        attempts.get(outcome).increment();
        duration.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void clientRestarted() {
        restarts.increment();
    }

    @Override
    public PushAttempt attemptStarted(String clock, long incarnation, Delivery delivery, String url, boolean last) {
        return spans.pushAttempt(clock, delivery, url, last);
    }
}
