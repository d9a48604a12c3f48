package io.timeservice.web;

/** {@link SnapshotLimitRestTest} on the PostgreSQL store: every test of it must pass on both stores. */
@PostgresRestStore
class SnapshotLimitRestPostgresTest extends SnapshotLimitRestTest {
}
