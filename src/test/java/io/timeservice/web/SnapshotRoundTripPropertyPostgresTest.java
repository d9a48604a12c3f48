package io.timeservice.web;

/** {@link SnapshotRoundTripPropertyTest} on the PostgreSQL store. */
@PostgresRestStore
class SnapshotRoundTripPropertyPostgresTest extends SnapshotRoundTripPropertyTest {
}
