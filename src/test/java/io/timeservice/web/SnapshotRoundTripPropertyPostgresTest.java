package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link SnapshotRoundTripPropertyTest} on the PostgreSQL store. */
class SnapshotRoundTripPropertyPostgresTest extends SnapshotRoundTripPropertyTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
