package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link OverdueLoadRestTest} on the PostgreSQL store: every test of it passes on both stores. */
class OverdueLoadRestPostgresTest extends OverdueLoadRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
