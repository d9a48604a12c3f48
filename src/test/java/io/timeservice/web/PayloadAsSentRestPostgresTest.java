package io.timeservice.web;

/** {@link PayloadAsSentRestTest} on the PostgreSQL store. */
@PostgresRestStore
class PayloadAsSentRestPostgresTest extends PayloadAsSentRestTest {
}
