/**
 * Configuration properties, store selection ({@code timeservice.store}), the wiring of each store
 * ({@code MemoryStoreConfiguration} wires the whole memory engine, {@code PostgresStoreConfiguration} the PostgreSQL
 * store wrapped in the {@code Measured*} decorators), and the start-up report. Imports everything but {@code web}.
 */
package io.timeservice.config;
