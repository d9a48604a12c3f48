package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link PayloadBudgetRestTest} on the PostgreSQL store, on a schema of its own (its settings meet what is
 * stored): every case must pass on both stores.
 */
class PayloadBudgetRestPostgresTest extends PayloadBudgetRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.registerOwnSchema(registry, PayloadBudgetRestPostgresTest.class);
    }
}
