package io.timeservice.web;

/** {@link OverdueLoadRestTest} on the PostgreSQL store: every test of it passes on both stores. */
@PostgresRestStore
class OverdueLoadRestPostgresTest extends OverdueLoadRestTest {
}
