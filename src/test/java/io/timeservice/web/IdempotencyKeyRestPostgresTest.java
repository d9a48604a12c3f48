package io.timeservice.web;

/** {@link IdempotencyKeyRestTest} on the PostgreSQL store (V30's table, wired by the configuration). */
@PostgresRestStore
class IdempotencyKeyRestPostgresTest extends IdempotencyKeyRestTest {
}
