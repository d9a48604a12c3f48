package io.timeservice.web;

/** {@link ClockChangeRestTest} on the PostgreSQL store (issue 47): pause, resume and a live clock's PATCH over HTTP. */
@PostgresRestStore
class ClockChangeRestPostgresTest extends ClockChangeRestTest {
}
