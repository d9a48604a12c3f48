package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link DeliveryLimitRestTest} on the PostgreSQL store, on a schema of its own (the delivery limit counts every
 * clock in the schema): every case must pass on both stores.
 */
class DeliveryLimitRestPostgresTest extends DeliveryLimitRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.registerOwnSchema(registry, DeliveryLimitRestPostgresTest.class);
    }
}
