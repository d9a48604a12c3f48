package io.timeservice.tracing;

import java.net.URI;
import java.util.Map;

import io.micrometer.tracing.Span;
import io.timeservice.model.Delivery;
import io.timeservice.push.PushAttempt;
import io.timeservice.push.PushOutcome;

/**
 * The client span of one push attempt: a child of the context of the request that added the timer, with
 * OpenTelemetry's HTTP client attributes ({@code http.request.method}, {@code url.full}, {@code server.address},
 * {@code server.port}, {@code http.response.status_code}, {@code error.type}) beside the messaging ones; a failed
 * attempt ends with the event {@code retry}, or {@code dead_letter} when it was the last or the target answered 410.
 * Its {@code traceparent} goes with the request.
 */
final class PushSpans {

    private PushSpans() {
    }

    static PushAttempt started(TimerSpans spans, String clock, Delivery delivery, String url, boolean last) {
        if (!spans.recording() || delivery.traceContext() == null) {
            return PushAttempt.untraced(delivery);
        }
        Span span = spans.delivery(clock, delivery, "push", "process", Span.Kind.CLIENT);
        span.name("POST").tag("http.request.method", "POST").tag("url.full", url);
        URI uri = URI.create(url);
        if (uri.getHost() != null) {
            span.tag("server.address", uri.getHost());
            span.tag("server.port", uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80);
        }
        String tracestate = io.timeservice.model.TraceContext.tracestate(delivery.traceContext());
        Map<String, String> headers = PushAttempt.headersOf(io.timeservice.model.TraceContext.of(
                TimerSpans.traceparent(span.context()), tracestate));
        return new PushAttempt() {
            @Override
            public Map<String, String> headers() {
                return headers;
            }

            @Override
            public void ended(PushOutcome outcome) {
                if (outcome.status() > 0) {
                    span.tag("http.response.status_code", outcome.status());
                }
                if (!outcome.acknowledged()) {
                    span.tag("error.type", outcome.status() > 0 ? Integer.toString(outcome.status())
                            : outcome.kind().tag());
                    span.event(last || outcome.gone() ? "dead_letter" : "retry");
                }
                span.end();
            }
        };
    }
}
