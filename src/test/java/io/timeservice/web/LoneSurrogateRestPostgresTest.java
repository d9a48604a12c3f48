package io.timeservice.web;

/** {@link LoneSurrogateRestTest} on the PostgreSQL store: every case must pass on both stores. */
@PostgresRestStore
class LoneSurrogateRestPostgresTest extends LoneSurrogateRestTest {
}
