package io.timeservice.tracing;

import java.util.List;

import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.timeservice.model.Delivery;
import io.timeservice.model.Timer;
import io.timeservice.push.PushAttempt;
import org.springframework.stereotype.Component;

/**
 * The spans of a timer's journey, named and attributed after OpenTelemetry's messaging semantic conventions
 * ({@code messaging.system} {@value #SYSTEM}, the clock as {@code messaging.destination.name}, the timer's id as
 * {@code messaging.message.id}; span names {@code <operation> <clock>}). A firing round is one span with a link to
 * the context of each timer it fired (a link, not a child: one round fires many timers, each of its own trace); a
 * claimed delivery and a push attempt are children of the context of the request that added the timer, so that the
 * worker's or the target's spans continue that trace. Thread-safe; cheap when tracing is off.
 */
@Component
public class TimerSpans {

    public static final String SYSTEM = "timeservice";
    public static final String MESSAGING_SYSTEM = "messaging.system";
    public static final String DESTINATION = "messaging.destination.name";
    public static final String MESSAGE_ID = "messaging.message.id";
    public static final String OPERATION_NAME = "messaging.operation.name";
    public static final String OPERATION_TYPE = "messaging.operation.type";
    public static final String BATCH_COUNT = "messaging.batch.message_count";
    /** Not in the conventions: the delivery's attempt, 1 for the first. */
    public static final String ATTEMPT = "timeservice.delivery.attempt";
    /** OpenTelemetry's default limit of links per span; a larger round links its first timers. */
    static final int MAX_LINKS = 128;

    private final Tracer tracer;

    public TimerSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    /** Whether spans are recorded (an OTLP endpoint is set): false with Boot's no-op tracer. */
    public boolean recording() {
        return tracer != Tracer.NOOP;
    }

    /** One firing of {@code clock} that fired {@code timers}: a span linked to the contexts they carry. */
    public void fired(String clock, List<Timer> timers) {
        if (!recording()) {
            return;
        }
        Span.Builder builder = null;
        int links = 0;
        for (Timer timer : timers) {
            if (timer.traceContext() == null) {
                continue;
            }
            if (builder == null) {
                builder = tracer.spanBuilder().setNoParent().name("fire " + clock).kind(Span.Kind.PRODUCER);
            }
            if (links++ < MAX_LINKS) {
                builder.addLink(new Link(contextOf(timer.traceContext())));
            }
        }
        if (builder == null) {
            return; // no fired timer came from a traced request: nothing to follow
        }
        Span span = builder.tag(MESSAGING_SYSTEM, SYSTEM).tag(DESTINATION, clock).tag(OPERATION_NAME, "fire")
                .tag(OPERATION_TYPE, "send").tag(BATCH_COUNT, timers.size()).start();
        if (timers.size() == 1) {
            span.tag(MESSAGE_ID, timers.get(0).id());
        }
        span.end();
    }

    /** A claim of {@code clock} answered {@code claimed}: a receive span in the trace of each traced delivery. */
    public void received(String clock, List<Delivery> claimed) {
        if (!recording()) {
            return;
        }
        for (Delivery delivery : claimed) {
            if (delivery.traceContext() != null) {
                delivery(clock, delivery, "receive", "receive", Span.Kind.CONSUMER).end();
            }
        }
    }

    /**
     * Tags the current (server) span of an ack or nack with what it settled; a nack that retries or kills the delivery
     * adds the event {@code retry} or {@code dead_letter}.
     */
    public void settled(String clock, String id, String operation, Delivery result) {
        Span span = tracer.currentSpan();
        if (span == null || span.isNoop()) {
            return;
        }
        span.tag(MESSAGING_SYSTEM, SYSTEM).tag(DESTINATION, clock).tag(MESSAGE_ID, id)
                .tag(OPERATION_NAME, operation).tag(OPERATION_TYPE, "settle");
        if (result != null) {
            span.tag(ATTEMPT, result.attempt());
            span.event(result.state() == Delivery.State.DEAD ? "dead_letter" : "retry");
        }
    }

    /**
     * One acknowledgement of a batch ({@code POST .../deliveries/ack}) that acknowledged delivery {@code id}: an
     * {@code ack <clock>} span, a child of the {@code traceparent} the worker sent with it (the delivery's), so the
     * ack is recorded in the delivery's trace although one request settles deliveries of many traces. Nothing without
     * one, or with one that is not a valid W3C traceparent (ignored, as a malformed header is).
     */
    public void ackedInBatch(String clock, String id, String traceparent) {
        if (!recording() || io.timeservice.model.TraceContext.of(traceparent, null) == null) {
            return;
        }
        tracer.spanBuilder().setParent(contextOf(traceparent.trim())).name("ack " + clock)
                .tag(MESSAGING_SYSTEM, SYSTEM).tag(DESTINATION, clock).tag(MESSAGE_ID, id)
                .tag(OPERATION_NAME, "ack").tag(OPERATION_TYPE, "settle").start().end();
    }

    /** An attempt to push {@code delivery}: see {@link PushSpans}. */
    public PushAttempt pushAttempt(String clock, Delivery delivery, String url, boolean last) {
        return PushSpans.started(this, clock, delivery, url, last);
    }

    /** A span of {@code delivery}, a child of its context, started. */
    Span delivery(String clock, Delivery delivery, String operation, String type, Span.Kind kind) {
        return tracer.spanBuilder().setParent(contextOf(delivery.traceContext())).name(operation + " " + clock)
                .kind(kind).tag(MESSAGING_SYSTEM, SYSTEM).tag(DESTINATION, clock).tag(MESSAGE_ID, delivery.id())
                .tag(OPERATION_NAME, operation).tag(OPERATION_TYPE, type).tag(ATTEMPT, delivery.attempt()).start();
    }

    /** The remote span context a stored one ({@link io.timeservice.model.TraceContext}) names. */
    TraceContext contextOf(String stored) {
        String parent = io.timeservice.model.TraceContext.traceparent(stored);
        return tracer.traceContextBuilder().traceId(parent.substring(3, 35)).spanId(parent.substring(36, 52))
                .sampled((Integer.parseInt(parent.substring(53, 55), 16) & 1) == 1).build();
    }

    /** The W3C {@code traceparent} value of {@code context}. */
    public static String traceparent(TraceContext context) {
        return "00-" + context.traceId() + "-" + context.spanId() + (Boolean.TRUE.equals(context.sampled())
                ? "-01" : "-00");
    }

    Tracer tracer() {
        return tracer;
    }
}
