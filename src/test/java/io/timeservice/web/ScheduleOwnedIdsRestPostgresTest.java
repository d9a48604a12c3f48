package io.timeservice.web;

/** {@link ScheduleOwnedIdsRestTest} on the PostgreSQL store: every test of it passes on both stores. */
@PostgresRestStore
class ScheduleOwnedIdsRestPostgresTest extends ScheduleOwnedIdsRestTest {
}
