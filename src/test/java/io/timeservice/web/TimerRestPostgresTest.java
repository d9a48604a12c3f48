package io.timeservice.web;

import static org.hamcrest.Matchers.empty;

import io.restassured.response.ValidatableResponse;

/**
 * {@link TimerRestTest} on the PostgreSQL store: every test of it must pass on both stores; where the PostgreSQL
 * store differs by design (docs/POSTGRES-STORE.md) the hook is overridden here to assert that difference.
 */
@PostgresRestStore
class TimerRestPostgresTest extends TimerRestTest {

    /** Differs by design: the PostgreSQL store has no heap, so {@code ?trace=true} answers an empty trace. */
    @Override
    void assertCancelTrace(ValidatableResponse cancelled) {
        cancelled.body("trace", empty());
    }
}
