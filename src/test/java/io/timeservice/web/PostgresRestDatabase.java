package io.timeservice.web;

import java.util.LinkedHashMap;
import java.util.Map;

import io.timeservice.store.postgres.TestDatabase;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The service's properties for REST tests on the PostgreSQL store: {@code timeservice.store=postgresql} on a schema
 * of the test database of its own (created and migrated by the service's Flyway at start-up), dropped when the test
 * JVM ends. One schema per JVM: the REST test classes share it as they share the memory store's context, each test
 * starting from {@code POST /demo/reset}. A twin says {@link PostgresRestStore}, so that the twins share one context.
 */
final class PostgresRestDatabase {

    private static final String SCHEMA = TestDatabase.schemaNameFor(PostgresRestDatabase.class);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> TestDatabase.dropSchema(SCHEMA)));
    }

    private PostgresRestDatabase() {
    }

    /**
     * The shared schema's properties, as a {@code @DynamicPropertySource} method: a context of the method's class
     * alone. A twin that can share the service says {@link PostgresRestStore} instead.
     */
    static void register(DynamicPropertyRegistry registry) {
        register(registry, SCHEMA);
    }

    /** Puts the shared schema's properties first: what {@link PostgresRestStore} applies. */
    static final class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            context.getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource("postgresRestDatabase", properties(SCHEMA)));
        }
    }

    /**
     * As {@link #register(DynamicPropertyRegistry)} on a schema of {@code owner}'s own, also dropped when the JVM
     * ends: for a context whose settings meet what is stored (the default clock's mode is kept from the first start;
     * the capacity and the clock limit count every clock in the schema, other classes' included).
     */
    static void registerOwnSchema(DynamicPropertyRegistry registry, Class<?> owner) {
        String schema = TestDatabase.schemaNameFor(owner);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> TestDatabase.dropSchema(schema)));
        register(registry, schema);
    }

    private static void register(DynamicPropertyRegistry registry, String schema) {
        properties(schema).forEach((name, value) -> registry.add(name, () -> value));
    }

    private static Map<String, Object> properties(String schema) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("timeservice.store", "postgresql");
        properties.put("spring.datasource.url", TestDatabase.withSchema(TestDatabase.URL, schema));
        properties.put("spring.flyway.schemas", schema);
        // requests answer storage_unavailable within seconds, not Hikari's default 30 s, when the database is away
        properties.put("spring.datasource.hikari.connection-timeout", "3000");
        // every cached context keeps its pool until the JVM ends: small pools that shrink when idle (to the
        // listener's one connection) keep a whole test run within the server's 100 connections
        properties.put("spring.datasource.hikari.maximum-pool-size", "5");
        properties.put("spring.datasource.hikari.minimum-idle", "0");
        properties.put("spring.datasource.hikari.idle-timeout", "10000");
        return properties;
    }
}
