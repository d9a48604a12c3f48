package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With an OpenTelemetry SDK installed, a worker's handler runs in a consumer span continuing its delivery's trace. */
class DeliveryTracingTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";
    private static final InMemorySpanExporter EXPORTED = InMemorySpanExporter.create();
    private static OpenTelemetrySdk sdk;

    @BeforeAll
    static void installSdk() {
        GlobalOpenTelemetry.resetForTest();
        sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(EXPORTED)).build()).buildAndRegisterGlobal();
    }

    @AfterAll
    static void removeSdk() {
        sdk.close();
        GlobalOpenTelemetry.resetForTest();
    }

    @BeforeEach
    void forget() {
        EXPORTED.reset();
    }

    private static Delivery delivery(String traceparent) {
        return new Delivery("t1", 7, 2, Instant.EPOCH, 0, null, Delivery.State.IN_FLIGHT, "c", Instant.EPOCH,
                Instant.EPOCH, null, null, null, traceparent, traceparent == null ? null : "congo=t61rcWkgMzE");
    }

    @Test
    void theHandler_runsInAConsumerSpan_childOfTheDeliveriesContext() throws Exception {
        AtomicReference<SpanContext> current = new AtomicReference<>();
        DeliveryTracing.run("q", delivery("00-" + TRACE + "-" + PARENT + "-01"),
                d -> current.set(Span.current().getSpanContext()));

        List<SpanData> spans = EXPORTED.getFinishedSpanItems();
        assertEquals(1, spans.size());
        SpanData process = spans.get(0);
        assertEquals("process q", process.getName());
        assertEquals(SpanKind.CONSUMER, process.getKind());
        assertEquals(TRACE, process.getTraceId());
        assertEquals(PARENT, process.getParentSpanId());
        assertEquals("t1", process.getAttributes().asMap().entrySet().stream()
                .filter(e -> e.getKey().getKey().equals("messaging.message.id")).findFirst().orElseThrow()
                .getValue());
        assertEquals(process.getSpanId(), current.get().getSpanId(), "the span is current in the handler");
        assertEquals("t61rcWkgMzE", process.getSpanContext().getTraceState().get("congo"));
    }

    @Test
    void aFailingHandler_endsTheSpanAsAnError_andStillThrows() {
        IllegalStateException failure = new IllegalStateException("boom");
        assertSame(failure, assertThrows(IllegalStateException.class, () -> DeliveryTracing.run("q",
                delivery("00-" + TRACE + "-" + PARENT + "-01"), d -> {
                    throw failure;
                })));
        assertEquals(StatusCode.ERROR, EXPORTED.getFinishedSpanItems().get(0).getStatus().getStatusCode());
    }

    @Test
    void aDeliveryWithoutAContext_justRunsTheHandler() throws Exception {
        AtomicReference<Boolean> ran = new AtomicReference<>(false);
        DeliveryTracing.run("q", delivery(null), d -> {
            ran.set(true);
            assertFalse(Span.current().getSpanContext().isValid());
        });
        assertTrue(ran.get());
        assertTrue(EXPORTED.getFinishedSpanItems().isEmpty());
    }
}
