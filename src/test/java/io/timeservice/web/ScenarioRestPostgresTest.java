package io.timeservice.web;

/** {@link ScenarioRestTest} on the PostgreSQL store: every case must pass on both stores. */
@PostgresRestStore
class ScenarioRestPostgresTest extends ScenarioRestTest {
}
