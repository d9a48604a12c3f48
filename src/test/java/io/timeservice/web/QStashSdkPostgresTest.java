package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link QStashSdkTest} on the PostgreSQL store: the same SDK calls, messages, schedules and dead letters. */
class QStashSdkPostgresTest extends QStashSdkTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
