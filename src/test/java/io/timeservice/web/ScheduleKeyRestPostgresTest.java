package io.timeservice.web;

/** {@link ScheduleKeyRestTest} on the PostgreSQL store (issue 44): a schedule's key over HTTP, and its snapshot's. */
@PostgresRestStore
class ScheduleKeyRestPostgresTest extends ScheduleKeyRestTest {
}
