package io.timeservice.web;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.timeservice.model.Limits;
import io.timeservice.tracing.TimerSpans;
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


    private final Tracer tracer;

    AddingTraceContext(Tracer tracer) {
        this.tracer = tracer;
    }

    /** The context to keep with a timer added by {@code request} to {@code clock}; tags the server span. */
    String ofAdd(HttpServletRequest request, String clock, String timerId) {
        Span span = tracer.currentSpan();
        if (span != null && !span.isNoop()) {
            span.tag(TimerSpans.MESSAGING_SYSTEM, TimerSpans.SYSTEM).tag(TimerSpans.DESTINATION, clockName(clock))
                    .tag(TimerSpans.MESSAGE_ID, timerId).tag(TimerSpans.OPERATION_NAME, "add")
                    .tag(TimerSpans.OPERATION_TYPE, "create");
        }
        return of(request, span);
    }

    /** The context a schedule created or replaced by {@code request} gives its occurrences; tags the server span. */
    String ofSchedule(HttpServletRequest request, String clock, String scheduleId) {
        Span span = tracer.currentSpan();
        if (span != null && !span.isNoop()) {
            span.tag(TimerSpans.MESSAGING_SYSTEM, TimerSpans.SYSTEM).tag(TimerSpans.DESTINATION, clockName(clock))
                    .tag("timeservice.schedule.id", scheduleId).tag(TimerSpans.OPERATION_NAME, "schedule")
                    .tag(TimerSpans.OPERATION_TYPE, "create");
        }
        return of(request, span);
    }

    /** The context to keep with each timer a batch adds; tags the server span with the clock and the count. */
    String ofBatch(HttpServletRequest request, String clock, int adds) {
        Span span = tracer.currentSpan();
        if (span != null && !span.isNoop()) {
            span.tag(TimerSpans.MESSAGING_SYSTEM, TimerSpans.SYSTEM).tag(TimerSpans.DESTINATION, clockName(clock))
                    .tag(TimerSpans.BATCH_COUNT, adds).tag(TimerSpans.OPERATION_NAME, "add")
                    .tag(TimerSpans.OPERATION_TYPE, "create");
        }
        return of(request, span);
    }

    private static String clockName(String clock) {
        return clock == null ? Limits.DEFAULT_CLOCK : clock;
    }

    private static String of(HttpServletRequest request, Span span) {
        String tracestate = request.getHeader("tracestate");
        if (span != null && !span.isNoop()) {
            TraceContext context = span.context();
            return io.timeservice.model.TraceContext.of(TimerSpans.traceparent(context), tracestate);
        }
        return io.timeservice.model.TraceContext.of(request.getHeader("traceparent"), tracestate);
    }
}
