package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link ScaledClocksRestTest} on the PostgreSQL store: every test of it passes on both stores. */
class ScaledClocksRestPostgresTest extends ScaledClocksRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
