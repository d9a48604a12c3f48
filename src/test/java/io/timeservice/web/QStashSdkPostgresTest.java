package io.timeservice.web;

/** {@link QStashSdkTest} on the PostgreSQL store: the same SDK calls, messages, schedules and dead letters. */
@PostgresRestStore
class QStashSdkPostgresTest extends QStashSdkTest {
}
