package io.timeservice.web;

/** {@link CloudTasksRestTest} on the PostgreSQL store: a queue with Cloud Tasks' default rate limits has no flow control. */
@PostgresRestStore
class CloudTasksRestPostgresTest extends CloudTasksRestTest {
}
