package io.timeservice.web;

/** {@link SnapshotScheduleRestTest} on the PostgreSQL store: every test of it must pass on both stores. */
@PostgresRestStore
class SnapshotScheduleRestPostgresTest extends SnapshotScheduleRestTest {
}
