/**
 * Micrometer and health: the adapter behind the {@code StoreMetrics} port, gauges and health indicators of each
 * store. Imports {@code model}, {@code store}, both stores (to read their gauges) and {@code push}; never {@code config}
 * (which registers the store-specific ones: the two import each other no more) or {@code web}.
 */
package io.timeservice.metrics;
