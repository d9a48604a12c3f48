package io.timeservice.config;

import io.timeservice.metrics.DeliveryGauges;
import io.timeservice.metrics.FiringHealthIndicator;
import io.timeservice.metrics.QueueGauges;
import io.timeservice.metrics.TimerQueueHealthIndicator;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.time.FiringLoop;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The memory store's gauges and health components. They live in {@code metrics}, which knows nothing of the store
 * selection; this configuration registers them only when the memory store is the one chosen, so that {@code metrics}
 * never imports {@code config}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "memory", matchIfMissing = true)
class MemoryStoreMetricsConfiguration {

    @Bean
    QueueGauges queueGauges(ClockRegistry clocks) {
        return new QueueGauges(clocks);
    }

    @Bean
    DeliveryGauges deliveryGauges(ClockRegistry clocks, FiringLoop firing) {
        return new DeliveryGauges(clocks, firing);
    }

    /** The {@code timerQueue} health component (the bean's name makes the component's). */
    @Bean
    TimerQueueHealthIndicator timerQueueHealthIndicator(ClockRegistry clocks) {
        return new TimerQueueHealthIndicator(clocks);
    }

    /** The {@code firing} health component. */
    @Bean
    FiringHealthIndicator firingHealthIndicator(ClockRegistry clocks, FiringLoop firing) {
        return new FiringHealthIndicator(clocks, firing);
    }
}
