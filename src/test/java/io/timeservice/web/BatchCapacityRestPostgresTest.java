package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link BatchCapacityRestTest} on the PostgreSQL store, on a schema of its own (its settings meet what is
 * stored): every case must pass on both stores.
 */
class BatchCapacityRestPostgresTest extends BatchCapacityRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.registerOwnSchema(registry, BatchCapacityRestPostgresTest.class);
    }
}
