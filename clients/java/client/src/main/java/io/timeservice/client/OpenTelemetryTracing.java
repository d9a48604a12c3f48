package io.timeservice.client;

import java.util.HashMap;
import java.util.Map;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;

/**
 * The OpenTelemetry side of {@link DeliveryTracing}; loaded only when the API is on the class path. Uses the global
 * OpenTelemetry (a no-op until the application or its agent installs an SDK).
 */
final class OpenTelemetryTracing {

    private static final TextMapGetter<Map<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private OpenTelemetryTracing() {
    }

    static void run(String clock, Delivery delivery, DeliveryHandler handler) throws Exception {
        Map<String, String> carrier = new HashMap<>(2);
        carrier.put("traceparent", delivery.traceparent());
        if (delivery.tracestate() != null) {
            carrier.put("tracestate", delivery.tracestate());
        }
        Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier, HEADERS);
        Span span = GlobalOpenTelemetry.getTracer("io.timeservice.client").spanBuilder("process " + clock)
                .setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "timeservice")
                .setAttribute("messaging.destination.name", clock)
                .setAttribute("messaging.message.id", delivery.id())
                .setAttribute("messaging.operation.name", "process")
                .setAttribute("messaging.operation.type", "process")
                .setAttribute("timeservice.delivery.attempt", delivery.attempt())
                .startSpan();
        try (Scope scope = span.makeCurrent()) {
            handler.handle(delivery);
        } catch (Exception | Error e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR);
            throw e;
        } finally {
            span.end();
        }
    }
}
