package io.timeservice.web;

/** {@link HttpErrorsRestTest} on the PostgreSQL store: every case must pass on both stores. */
@PostgresRestStore
class HttpErrorsRestPostgresTest extends HttpErrorsRestTest {
}
