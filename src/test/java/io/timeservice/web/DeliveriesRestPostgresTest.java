package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link DeliveriesRestTest} on the PostgreSQL store: clock settings with retry policies, claims, acks, nacks,
 * extends, lease expiry by advancing a virtual clock, dead letters and long polls must answer as on the memory store.
 */
class DeliveriesRestPostgresTest extends DeliveriesRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
