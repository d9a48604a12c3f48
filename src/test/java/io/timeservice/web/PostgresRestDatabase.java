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
        registry.add("timeservice.store", () -> "postgresql");
        registry.add("spring.datasource.url", () -> TestDatabase.withSchema(TestDatabase.URL, SCHEMA));
        registry.add("spring.flyway.schemas", () -> SCHEMA);
        // requests answer storage_unavailable within seconds, not Hikari's default 30 s, when the database is away
        registry.add("spring.datasource.hikari.connection-timeout", () -> "3000");
    }
}
