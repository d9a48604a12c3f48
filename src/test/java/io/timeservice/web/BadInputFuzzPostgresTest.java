package io.timeservice.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link BadInputFuzzTest} on the PostgreSQL store: every case must pass on both stores. Its snapshot's heap part
 * shows the memory store's empty heap views here (the PostgreSQL store has no heap), so "nothing changed" rests on
 * the timer listing, which the store answers.
 */
class BadInputFuzzPostgresTest extends BadInputFuzzTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }
}
