package io.timeservice.metrics;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code timerQueue} health component on the PostgreSQL store, where no heap lives in this instance: always UP.
 * The queues are the database's rows, so whether they can be served is the {@code store} component's answer (also in
 * the readiness group); this component exists so that the readiness group names the same components on both stores.
 */
public class PostgresTimerQueueHealthIndicator implements HealthIndicator {

    @Override
    public Health health() {
        return Health.up().withDetail("store", "postgresql")
                .withDetail("queues", "kept in the database: see the store component").build();
    }
}
