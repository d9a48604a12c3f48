package io.timeservice.web;

/** {@link JsonBodyTest} on the PostgreSQL store: every case must pass on both stores. */
@PostgresRestStore
class JsonBodyPostgresTest extends JsonBodyTest {
}
