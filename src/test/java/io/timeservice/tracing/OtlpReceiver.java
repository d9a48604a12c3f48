package io.timeservice.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * An OTLP/HTTP collector on 127.0.0.1 for tests: takes {@code POST /v1/traces} (protobuf), decodes each request with
 * the opentelemetry-proto classes and keeps every span it held.
 */
final class OtlpReceiver implements AutoCloseable {

    private final HttpServer server;
    private final List<Span> spans = new CopyOnWriteArrayList<>();

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newSingleThreadExecutor());
        server.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in.readAllBytes());
                for (ResourceSpans resource : request.getResourceSpansList()) {
                    for (ScopeSpans scope : resource.getScopeSpansList()) {
                        spans.addAll(scope.getSpansList());
                    }
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
            exchange.close();
        });
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
    }

    List<Span> spans() {
        return new ArrayList<>(spans);
    }

    Optional<Span> find(Predicate<Span> matching) {
        return spans.stream().filter(matching).findFirst();
    }

    static String traceId(Span span) {
        return HexFormat.of().formatHex(span.getTraceId().toByteArray());
    }

    static String spanId(Span span) {
        return HexFormat.of().formatHex(span.getSpanId().toByteArray());
    }

    static String parentSpanId(Span span) {
        return HexFormat.of().formatHex(span.getParentSpanId().toByteArray());
    }

    /** The attribute's value as text (string, int, bool or double), or null. */
    static String attribute(Span span, String key) {
        for (KeyValue attribute : span.getAttributesList()) {
            if (attribute.getKey().equals(key)) {
                var value = attribute.getValue();
                return switch (value.getValueCase()) {
                    case STRING_VALUE -> value.getStringValue();
                    case INT_VALUE -> Long.toString(value.getIntValue());
                    case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
                    case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
                    default -> value.toString();
                };
            }
        }
        return null;
    }

    static List<String> linkedTraceIds(Span span) {
        return span.getLinksList().stream().map(link -> HexFormat.of().formatHex(link.getTraceId().toByteArray()))
                .toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
