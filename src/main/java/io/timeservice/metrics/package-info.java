/**
 * Micrometer and health: the adapter behind the {@code SchedulerMetrics} port, gauges and health indicators of each
 * store. Imports {@code model}, {@code store}, both stores (to read their gauges) and {@code config}; never {@code web}.
 */
package io.timeservice.metrics;
