package io.timeservice.web;

/** {@link QStashBatchAcrossClocksTest} on the PostgreSQL store. */
@PostgresRestStore
class QStashBatchAcrossClocksPostgresTest extends QStashBatchAcrossClocksTest {
}
