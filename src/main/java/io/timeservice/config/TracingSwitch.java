package io.timeservice.config;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Tracing (issue 46) is off unless an OTLP endpoint for traces is set: Boot's
 * {@code management.opentelemetry.tracing.export.otlp.endpoint}, or the OpenTelemetry SDK's standard environment
 * variables {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} (the full URL) and {@code OTEL_EXPORTER_OTLP_ENDPOINT} (the
 * collector's base URL, to which {@code /v1/traces} is appended, as the OpenTelemetry specification says for
 * http/protobuf). Either variable is copied into Boot's property when that is unset.
 *
 * <p>Off, {@code management.tracing.export.enabled} defaults to false (so Boot does not add a correlation column to
 * the log lines) and {@link TracingAutoConfigurationFilter} keeps the tracing and OpenTelemetry SDK
 * auto-configurations out of the context: Boot's no-op tracer stands in, so the service starts exactly as it did
 * before tracing existed, and the code that records spans runs against that no-op tracer.
 */
public final class TracingSwitch implements EnvironmentPostProcessor {

    public static final String ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";
    static final String ENV_BASE = "OTEL_EXPORTER_OTLP_ENDPOINT";
    static final String ENV_TRACES = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
    private static final String SOURCE = "timeservice-tracing-switch";

    /** Whether an OTLP endpoint for traces is set (after this post-processor ran: the one property). */
    public static boolean enabled(Environment environment) {
        return !environment.getProperty(ENDPOINT, "").isBlank();
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!enabled(environment)) {
            String endpoint = fromOpenTelemetryVariables(environment);
            if (endpoint != null) {
                environment.getPropertySources().addFirst(new MapPropertySource(SOURCE, Map.of(ENDPOINT, endpoint)));
                return;
            }
            environment.getPropertySources().addLast(new MapPropertySource(SOURCE,
                    Map.of("management.tracing.export.enabled", "false")));
        }
    }

    /** The traces endpoint the OpenTelemetry SDK's variables name, or null. */
    static String fromOpenTelemetryVariables(Environment environment) {
        String traces = environment.getProperty(ENV_TRACES, "").trim();
        if (!traces.isEmpty()) {
            return traces;
        }
        String base = environment.getProperty(ENV_BASE, "").trim();
        if (base.isEmpty()) {
            return null;
        }
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces";
    }
}
