package io.timeservice.web;

import io.timeservice.store.postgres.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The service's properties for REST tests on the PostgreSQL store: {@code timeservice.store=postgresql} on a schema
 * of the test database of its own (created and migrated by the service's Flyway at start-up), dropped when the test
 * JVM ends. One schema per JVM: the REST test classes share it as they share the memory store's context, each test
 * starting from {@code POST /demo/reset}.
 */
final class PostgresRestDatabase {

    private static final String SCHEMA = TestDatabase.schemaNameFor(PostgresRestDatabase.class);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> TestDatabase.dropSchema(SCHEMA)));
    }

    private PostgresRestDatabase() {
    }

    static void register(DynamicPropertyRegistry registry) {
        register(registry, SCHEMA);
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
        registry.add("timeservice.store", () -> "postgresql");
        registry.add("spring.datasource.url", () -> TestDatabase.withSchema(TestDatabase.URL, schema));
        registry.add("spring.flyway.schemas", () -> schema);
        // requests answer storage_unavailable within seconds, not Hikari's default 30 s, when the database is away
        registry.add("spring.datasource.hikari.connection-timeout", () -> "3000");
        // every cached context keeps its pool until the JVM ends: small pools that shrink when idle (to the
        // listener's one connection) keep a whole test run within the server's 100 connections
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "5");
        registry.add("spring.datasource.hikari.minimum-idle", () -> "0");
        registry.add("spring.datasource.hikari.idle-timeout", () -> "10000");
    }
}
