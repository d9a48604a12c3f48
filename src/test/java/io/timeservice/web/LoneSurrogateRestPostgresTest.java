package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link LoneSurrogateRestTest} on the PostgreSQL store: every case must pass on both stores. */
class LoneSurrogateRestPostgresTest extends LoneSurrogateRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
