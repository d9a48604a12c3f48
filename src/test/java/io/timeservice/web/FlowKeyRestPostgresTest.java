package io.timeservice.web;

/** {@link FlowKeyRestTest} on the PostgreSQL store (issue 44): overrides for one key and the busiest keys over HTTP. */
@PostgresRestStore
class FlowKeyRestPostgresTest extends FlowKeyRestTest {
}
