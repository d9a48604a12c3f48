package io.timeservice.web;

import io.timeservice.config.IdempotencyProperties;
import io.timeservice.config.TimeServiceProperties;
import io.timeservice.store.IdempotencyStore;
import jakarta.servlet.DispatcherType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Registers the {@link IdempotencyFilter} on the paths of the calls that take an {@code Idempotency-Key}: after
 * Spring Security (which names the caller) and after the request body limits (so the body it reads is bounded).
 */
@Configuration(proxyBeanMethods = false)
class IdempotencyConfiguration {

    static final int ORDER = Ordered.LOWEST_PRECEDENCE - 10;

    @Bean
    FilterRegistrationBean<IdempotencyFilter> idempotencyFilter(IdempotencyStore store,
                                                                TimeServiceProperties properties,
                                                                IdempotencyProperties idempotency) {
        FilterRegistrationBean<IdempotencyFilter> registration = new FilterRegistrationBean<>(new IdempotencyFilter(
                store, properties.limits().maxBodyBytes(), idempotency.settlementRetention()));
        registration.addUrlPatterns("/timers", "/batch", "/clock/advance", "/deliveries/*", "/clocks/*");
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        registration.setOrder(ORDER);
        return registration;
    }
}
