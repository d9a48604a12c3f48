package io.timeservice.config;

import io.timeservice.core.ClockStore;
import io.timeservice.core.Clocks;
import io.timeservice.core.DeliveryStore;
import io.timeservice.core.MemoryClockStore;
import io.timeservice.core.MemoryDeliveryStore;
import io.timeservice.core.MemoryTimerStore;
import io.timeservice.core.TimerStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The store the controllers use with {@code timeservice.store=memory} (the default): the heaps of {@link Clocks}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "memory", matchIfMissing = true)
class MemoryStoreConfiguration {

    /** The {@code store} health component (in the readiness group for the PostgreSQL store's sake): always UP. */
    @Bean
    HealthIndicator storeHealthIndicator() {
        return () -> Health.up().withDetail("store", "memory").build();
    }

    @Bean
    ClockStore clockStore(Clocks clocks) {
        return new MemoryClockStore(clocks);
    }

    @Bean
    TimerStore timerStore(Clocks clocks) {
        return new MemoryTimerStore(clocks);
    }

    @Bean
    DeliveryStore deliveryStore(Clocks clocks) {
        return new MemoryDeliveryStore(clocks);
    }
}
