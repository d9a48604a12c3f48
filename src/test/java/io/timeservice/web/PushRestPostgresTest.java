package io.timeservice.web;

/** {@link PushRestTest} on the PostgreSQL store: push targets on the clock row, pushes claimed as a worker claims. */
@PostgresRestStore
class PushRestPostgresTest extends PushRestTest {

    @Override
    boolean forgetsSequencesAtRestart() {
        return false; // sequences are the database's: unique for good, also over a clock made again
    }
}
