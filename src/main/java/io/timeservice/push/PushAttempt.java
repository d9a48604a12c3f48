package io.timeservice.push;

import java.util.LinkedHashMap;
import java.util.Map;

import io.timeservice.model.Delivery;
import io.timeservice.model.TraceContext;

/**
 * The trace of one push attempt (issue 46): the trace headers its request carries, and its end. Without tracing, the
 * delivery's own context passes through as it was stored, so the target continues the trace of the request that added
 * the timer; with tracing, {@link PushMetrics#attemptStarted} returns one whose headers name the attempt's client
 * span. The headers are outside the signed content (the signature covers the webhook id, timestamp and body only).
 */
public interface PushAttempt {

    /** {@code traceparent} and, if any, {@code tracestate}; empty for a delivery without a context. */
    Map<String, String> headers();

    /** The attempt ended so. */
    default void ended(PushOutcome outcome) {
    }

    /** The attempt of {@code delivery} that sends its stored context as it is. */
    static PushAttempt untraced(Delivery delivery) {
        Map<String, String> headers = headersOf(delivery.traceContext());
        return () -> headers;
    }

    /** The trace headers of a stored context ({@link TraceContext}); empty for null. */
    static Map<String, String> headersOf(String context) {
        if (context == null) {
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>(2);
        headers.put("traceparent", TraceContext.traceparent(context));
        String state = TraceContext.tracestate(context);
        if (state != null) {
            headers.put("tracestate", state);
        }
        return headers;
    }
}
