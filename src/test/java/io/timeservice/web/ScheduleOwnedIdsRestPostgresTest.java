package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link ScheduleOwnedIdsRestTest} on the PostgreSQL store: every test of it passes on both stores. */
class ScheduleOwnedIdsRestPostgresTest extends ScheduleOwnedIdsRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
