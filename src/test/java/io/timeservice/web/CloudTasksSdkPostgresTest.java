package io.timeservice.web;

/** {@link CloudTasksSdkTest} on the PostgreSQL store: a queue with Cloud Tasks' default rate limits has no flow control. */
@PostgresRestStore
class CloudTasksSdkPostgresTest extends CloudTasksSdkTest {
}
