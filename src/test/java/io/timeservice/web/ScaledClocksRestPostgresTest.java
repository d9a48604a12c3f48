package io.timeservice.web;

/** {@link ScaledClocksRestTest} on the PostgreSQL store: every test of it passes on both stores. */
@PostgresRestStore
class ScaledClocksRestPostgresTest extends ScaledClocksRestTest {
}
