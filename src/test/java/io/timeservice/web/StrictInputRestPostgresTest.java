package io.timeservice.web;

/** {@link StrictInputRestTest} on the PostgreSQL store: every case must pass on both stores. */
@PostgresRestStore
class StrictInputRestPostgresTest extends StrictInputRestTest {
}
