package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link SnapshotLimitRestTest} on the PostgreSQL store: every test of it must pass on both stores. */
class SnapshotLimitRestPostgresTest extends SnapshotLimitRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
