package io.timeservice.web;

/** {@link SnapshotPushRestTest} on the PostgreSQL store: every test of it must pass on both stores. */
@PostgresRestStore
class SnapshotPushRestPostgresTest extends SnapshotPushRestTest {
}
