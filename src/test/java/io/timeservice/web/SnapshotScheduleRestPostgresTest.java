package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link SnapshotScheduleRestTest} on the PostgreSQL store: every test of it must pass on both stores. */
class SnapshotScheduleRestPostgresTest extends SnapshotScheduleRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
