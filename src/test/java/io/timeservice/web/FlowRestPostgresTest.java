package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link FlowRestTest} on the PostgreSQL store (issue 44): keys and flow settings over HTTP, a snapshot document's,
 * and a long poll on a system clock that takes a delivery held back by its key's rate once the token is back.
 */
class FlowRestPostgresTest extends FlowRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
