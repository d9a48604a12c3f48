package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link CloudTasksSdkTest} on the PostgreSQL store: a queue with Cloud Tasks' default rate limits has no flow control. */
class CloudTasksSdkPostgresTest extends CloudTasksSdkTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
