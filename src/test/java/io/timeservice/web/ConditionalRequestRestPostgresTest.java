package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link ConditionalRequestRestTest} on the PostgreSQL store: every test of it, unchanged, must pass on both stores. */
class ConditionalRequestRestPostgresTest extends ConditionalRequestRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
