package io.timeservice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.OpenTelemetry;
import io.timeservice.TimeServiceApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.mock.env.MockEnvironment;

/**
 * Tracing is off unless an OTLP endpoint is set: without one the service starts with Boot's no-op tracer and no
 * OpenTelemetry SDK (as it started before tracing existed); with one, the OpenTelemetry bridge's tracer. A collector
 * that nobody runs is no reason to fail the start.
 */
class TracingSwitchTest {

    @Test
    void withoutAnEndpoint_theTracerIsTheNoOpOne_andNoSdkStarts() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TimeServiceApplication.class)
                .run("--server.port=0", "--timeservice.durability=none")) {
            assertThat(context.getBean(Tracer.class)).isSameAs(Tracer.NOOP);
            assertThat(context.getBeanNamesForType(OpenTelemetry.class)).isEmpty();
            assertThat(context.getEnvironment().getProperty("management.tracing.export.enabled")).isEqualTo("false");
        }
    }

    @Test
    void withAnEndpointWhereNothingListens_theServiceStartsWithTheOpenTelemetryTracer() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TimeServiceApplication.class)
                .run("--server.port=0", "--timeservice.durability=none",
                        "--" + TracingSwitch.ENDPOINT + "=http://127.0.0.1:9/v1/traces")) {
            assertThat(context.getBean(Tracer.class)).isInstanceOf(OtelTracer.class);
            assertThat(context.getBeanNamesForType(OpenTelemetry.class)).hasSize(1);
        }
    }

    @Test
    void theSdksVariables_nameTheTracesEndpoint() {
        assertThat(TracingSwitch.fromOpenTelemetryVariables(new MockEnvironment())).isNull();
        assertThat(TracingSwitch.fromOpenTelemetryVariables(env(Map.of(TracingSwitch.ENV_BASE,
                "http://collector:4318/")))).isEqualTo("http://collector:4318/v1/traces");
        assertThat(TracingSwitch.fromOpenTelemetryVariables(env(Map.of(TracingSwitch.ENV_BASE, "http://a:4318",
                TracingSwitch.ENV_TRACES, "http://b:4318/traces")))).isEqualTo("http://b:4318/traces");
    }

    private static MockEnvironment env(Map<String, String> properties) {
        MockEnvironment environment = new MockEnvironment();
        properties.forEach(environment::setProperty);
        return environment;
    }
}
