package io.timeservice.web;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.timeservice.model.Limits;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;

/**
 * The trace context a request that adds timers leaves with them (issue 46), so that their firing and delivery
 * continue its trace. With tracing on, that is the server span of the request (which continues the caller's
 * {@code traceparent}, if any), tagged with the clock and the timer's id after OpenTelemetry's messaging
 * conventions; with tracing off, the caller's own {@code traceparent} and {@code tracestate}, as sent (a worker
 * then continues the caller's trace though this service records none); without either, none.
 */
@Component
class AddingTraceContext {

    /** OpenTelemetry's messaging conventions: the clock is where timers are sent, the timer's id the message's. */
    static final String DESTINATION = "messaging.destination.name";
    static final String MESSAGE_ID = "messaging.message.id";
    static final String BATCH_COUNT = "messaging.batch.message_count";
    static final String SYSTEM = "messaging.system";
    static final String SYSTEM_NAME = "timeservice";

    private final Tracer tracer;

    AddingTraceContext(Tracer tracer) {
        this.tracer = tracer;
    }

    /** The context to keep with a timer added by {@code request} to {@code clock}; tags the server span. */
    String ofAdd(HttpServletRequest request, String clock, String timerId) {
        Span span = tracer.currentSpan();
        if (span != null && !span.isNoop()) {
            span.tag(SYSTEM, SYSTEM_NAME).tag(DESTINATION, clock == null ? Limits.DEFAULT_CLOCK : clock).tag(MESSAGE_ID, timerId);
        }
        return of(request, span);
    }

    /** The context to keep with each timer a batch adds; tags the server span with the clock and the count. */
    String ofBatch(HttpServletRequest request, String clock, int adds) {
        Span span = tracer.currentSpan();
        if (span != null && !span.isNoop()) {
            span.tag(SYSTEM, SYSTEM_NAME).tag(DESTINATION, clock == null ? Limits.DEFAULT_CLOCK : clock).tag(BATCH_COUNT, adds);
        }
        return of(request, span);
    }

    private static String of(HttpServletRequest request, Span span) {
        String tracestate = request.getHeader("tracestate");
        if (span != null && !span.isNoop()) {
            TraceContext context = span.context();
            return io.timeservice.model.TraceContext.of(traceparent(context), tracestate);
        }
        return io.timeservice.model.TraceContext.of(request.getHeader("traceparent"), tracestate);
    }

    /** The W3C {@code traceparent} value of {@code context}. */
    static String traceparent(TraceContext context) {
        return "00-" + context.traceId() + "-" + context.spanId() + (Boolean.TRUE.equals(context.sampled())
                ? "-01" : "-00");
    }
}
