package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link PushRestTest} on the PostgreSQL store: push targets on the clock row, pushes claimed as a worker claims. */
class PushRestPostgresTest extends PushRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }

    @Override
    boolean forgetsSequencesAtRestart() {
        return false; // sequences are the database's: unique for good, also over a clock made again
    }
}
