/**
 * The PostgreSQL store, for several instances on one database: the adapters to the store ports over plain JDBC
 * (HikariCP is handed in as a {@code DataSource}), claims with {@code FOR UPDATE SKIP LOCKED}, LISTEN/NOTIFY wake-ups,
 * the firing loop of system clocks and its maintenance. Flyway migrations live in the resources under
 * {@code db/timeservice}. Imports {@code model} and {@code store} only; never the memory store.
 */
package io.timeservice.store.postgres;
