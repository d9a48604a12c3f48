package io.timeservice.web;

import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link TimerRestTest} on the PostgreSQL store: every test of it must pass on both stores, except where the
 * PostgreSQL store differs by design (docs/POSTGRES-STORE.md), each overridden here to assert that difference.
 */
class TimerRestPostgresTest extends TimerRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }

    /** Differs by design: the PostgreSQL store has no heap, so {@code ?trace=true} answers an empty trace. */
    @Override
    @Test
    void cancel_withTrace_answers200WithTheCancelledTimerAndItsEtag() {
        long sequence = add("A", 10).jsonPath().getLong("sequence");

        given().queryParam("trace", true).delete("/timers/A").then()
                .statusCode(200)
                .header("ETag", "\"" + sequence + "-1\"")
                .body("id", equalTo("A"))
                .body("fireTime", equalTo(10))
                .body("trace", empty());
        assertProblem(given().get("/timers/A"), 404, "timer_not_found");
    }
}
