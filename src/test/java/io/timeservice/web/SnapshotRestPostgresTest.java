package io.timeservice.web;

/** {@link SnapshotRestTest} on the PostgreSQL store: every test of it must pass on both stores. */
@PostgresRestStore
class SnapshotRestPostgresTest extends SnapshotRestTest {
}
