package io.timeservice.web;

/**
 * {@link CloudTasksSdkTest} on the PostgreSQL store: a queue's clock under flow control, paused, resumed and updated
 * there.
 */
@PostgresRestStore
class CloudTasksSdkPostgresTest extends CloudTasksSdkTest {
}
