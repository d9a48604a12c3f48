package io.timeservice.config;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Keeps Micrometer Tracing's and the OpenTelemetry SDK's auto-configurations out of the context unless tracing is on
 * ({@link TracingSwitch}): no SDK, no span processor, no Prometheus exemplars, no tracing observation handler. Boot's
 * {@code NoopTracerAutoConfiguration} stays, so a {@code Tracer} (the no-op one) is always there to inject. Works as
 * {@link StoreAutoConfigurationFilter} does: consulted before any condition is evaluated, registered in
 * {@code META-INF/spring.factories}.
 */
public final class TracingAutoConfigurationFilter implements AutoConfigurationImportFilter, EnvironmentAware {

    private static final String NOOP_TRACER =
            "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration";
    private static final String[] TRACING_PACKAGES = {
        "org.springframework.boot.micrometer.tracing.",
        "org.springframework.boot.opentelemetry.",
    };

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public boolean[] match(String[] autoConfigurationClasses, AutoConfigurationMetadata metadata) {
        boolean tracing = TracingSwitch.enabled(environment);
        boolean[] matches = new boolean[autoConfigurationClasses.length];
        for (int i = 0; i < autoConfigurationClasses.length; i++) {
            matches[i] = tracing || !isTracingAutoConfiguration(autoConfigurationClasses[i]);
        }
        return matches;
    }

    private static boolean isTracingAutoConfiguration(String className) {
        if (className == null || className.equals(NOOP_TRACER)) {
            return false;
        }
        for (String prefix : TRACING_PACKAGES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
