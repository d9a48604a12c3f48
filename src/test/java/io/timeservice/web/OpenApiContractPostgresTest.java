package io.timeservice.web;

/** {@link OpenApiContractTest} on the PostgreSQL store: every case must pass on both stores. */
@PostgresRestStore
class OpenApiContractPostgresTest extends OpenApiContractTest {
}
