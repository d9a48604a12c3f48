package io.timeservice.config;

import io.timeservice.metrics.PostgresFiringHealthIndicator;
import io.timeservice.metrics.PostgresStoreGauges;
import io.timeservice.metrics.PostgresTimerQueueHealthIndicator;
import io.timeservice.store.postgres.PostgresStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The PostgreSQL store's gauges and health components, registered only when that store is chosen (see
 * {@link MemoryStoreMetricsConfiguration} for why this lives in {@code config}). The health components carry the
 * memory store's names, so the readiness group names the same components on both stores.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "postgresql")
class PostgresStoreMetricsConfiguration {

    @Bean
    PostgresStoreGauges postgresStoreGauges(PostgresStore store, TimeServiceProperties properties) {
        return new PostgresStoreGauges(store, new PostgresStoreGauges.Capacities(properties.capacity(),
                properties.capacityBytes().toBytes(), properties.deliveries().max()));
    }

    @Bean
    PostgresTimerQueueHealthIndicator timerQueueHealthIndicator() {
        return new PostgresTimerQueueHealthIndicator();
    }

    @Bean
    PostgresFiringHealthIndicator firingHealthIndicator(PostgresStore store) {
        return new PostgresFiringHealthIndicator(store);
    }
}
