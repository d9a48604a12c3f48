package io.timeservice.testkit;

import java.net.URI;
import java.util.UUID;

import io.timeservice.client.ClockClient;
import io.timeservice.client.ClockOptions;
import io.timeservice.client.TimeServiceClient;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a fresh virtual clock of its own on a TimeService, deleted after the test, so that tests advance
 * time in one line and run in parallel against one service:
 *
 * <pre>{@code
 * @ExtendWith(TimeServiceExtension.class)
 * class TrialReminderTest {
 *     @Test void remindsThreeDaysBeforeTheEnd(ClockClient clock) { ... clock.advance(Duration.ofDays(11)); ... }
 * }
 * }</pre>
 *
 * <p>Parameters it resolves: {@link ClockClient} (a new clock per parameter and test, named after the test with a
 * random suffix; {@link TestClock} sets where it starts and whether it queues, or loads it from a snapshot fixture),
 * {@link TestClocks} (forks, loaded snapshots and more clocks for the test, deleted after it too) and
 * {@link TimeServiceClient} (the run's shared client). A {@code ClockClient} parameter of a {@code @BeforeEach}
 * method gets the same clock as the test's parameter at the same position with the same settings.
 *
 * <p>JUnit: the project's own JUnit Jupiter, 5.8 or later (5.x or 6.x); the kit brings none ({@code provided}) and
 * uses only the extension API that 5.8 has.
 *
 * <p>The service: {@code TIMESERVICE_URL} (environment) or the system property {@code timeservice.url}, with the
 * bearer token of {@code TIMESERVICE_TOKEN} or {@code timeservice.token} when set. Where neither URL is set, one
 * TimeService is started for the whole test run from its jar (in memory, no journal, on a free loopback port; the
 * jar is {@code -Dtimeservice.jar}, {@code TIMESERVICE_JAR}, or {@code target/timeservice-*.jar} in the working
 * directory or a parent) and stopped when the run ends. That service accepts push targets on loopback and private
 * addresses ({@code timeservice.push.allow-private-targets}), so a test's push clock can POST to a receiver on
 * 127.0.0.1.
 */
public final class TimeServiceExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            TimeServiceExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == ClockClient.class || type == TimeServiceClient.class || type == TestClocks.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TimeServiceClient client = service(context).client();
        Class<?> type = parameter.getParameter().getType();
        if (type == TimeServiceClient.class) {
            return client;
        }
        TestClocks clocks = context.getStore(NAMESPACE).getOrComputeIfAbsent(OwnClocks.class, key -> new OwnClocks(
                new TestClocks(client, () -> name(context), context.getRequiredTestClass())), OwnClocks.class).clocks();
        if (type == TestClocks.class) {
            return clocks;
        }
        TestClock settings = parameter.findAnnotation(TestClock.class).orElse(null);
        ClockOptions options = ClockOptions.virtual(settings == null ? 0 : settings.start());
        if (settings != null && settings.queued()) {
            options = options.queued();
        }
        ClockOptions chosen = options;
        String snapshot = settings == null ? "" : settings.snapshot();
        String key = "clock-" + parameter.getIndex() + "-" + chosen + snapshot;
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(key,
                k -> snapshot.isEmpty() ? clocks.create(chosen) : clocks.load(snapshot), ClockClient.class);
    }

    /** The run's service, resolved (or started) once and kept in the root context, which closes it at the end. */
    private static Service service(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Service.class, key -> Service.resolve(),
                Service.class);
    }

    /** A clock name from the test's name (1 to 64 of {@code A-Za-z0-9._~:-}), unique by its random suffix. */
    static String name(ExtensionContext context) {
        String test = context.getTestMethod().map(m -> m.getName()).orElse(context.getDisplayName())
                .replaceAll("[^A-Za-z0-9._~:-]", "_");
        String suffix = UUID.randomUUID().toString().substring(0, 12);
        return "test-" + test.substring(0, Math.min(test.length(), 40)) + "-" + suffix;
    }

    /** The test's clocks, deleted when its context closes. */
    private record OwnClocks(TestClocks clocks) implements StoredResource {

        @Override
        public void close() {
            clocks.deleteAll();
        }
    }

    /** The service the run tests against, and the one it started, if any. */
    private record Service(TimeServiceClient client, LocalTimeService started) implements StoredResource {

        static Service resolve() {
            String url = setting("TIMESERVICE_URL", "timeservice.url");
            String token = setting("TIMESERVICE_TOKEN", "timeservice.token");
            if (url != null) {
                URI uri = URI.create(url);
                return new Service(token == null ? TimeServiceClient.connect(uri)
                        : TimeServiceClient.connect(uri, token), null);
            }
            LocalTimeService started = LocalTimeService.start();
            return new Service(TimeServiceClient.connect(started.uri()), started);
        }

        @Override
        public void close() {
            if (started != null) {
                started.close();
            }
        }
    }

    /**
     * A value of the extension's store that JUnit closes with the store's context, on every JUnit Jupiter the kit
     * supports: up to 5.12 JUnit closes a {@code CloseableResource} (deprecated since 5.13), from 5.13 an
     * {@code AutoCloseable}, and a value that is both only once, as {@code AutoCloseable}.
     */
    @SuppressWarnings("deprecation")
    private interface StoredResource extends AutoCloseable, ExtensionContext.Store.CloseableResource {

        @Override
        void close();
    }

    /** The system property, else the environment variable; null when neither is set or both are blank. */
    private static String setting(String environment, String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(environment);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }
}
