package io.timeservice.web;

/**
 * {@link BadInputFuzzTest} on the PostgreSQL store: every case must pass on both stores. Its snapshot's heap part
 * shows the memory store's empty heap views here (the PostgreSQL store has no heap), so "nothing changed" rests on
 * the timer listing, which the store answers.
 */
@PostgresRestStore
class BadInputFuzzPostgresTest extends BadInputFuzzTest {
}
