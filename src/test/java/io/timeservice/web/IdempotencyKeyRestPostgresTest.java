package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link IdempotencyKeyRestTest} on the PostgreSQL store (V30's table, wired by the configuration). */
class IdempotencyKeyRestPostgresTest extends IdempotencyKeyRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
