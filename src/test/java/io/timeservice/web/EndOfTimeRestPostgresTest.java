package io.timeservice.web;

/** {@link EndOfTimeRestTest} on the PostgreSQL store. */
@PostgresRestStore
class EndOfTimeRestPostgresTest extends EndOfTimeRestTest {
}
