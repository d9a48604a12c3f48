package io.timeservice.config;

import io.timeservice.core.SchedulerMetrics;
import io.timeservice.core.TimerScheduler;
import io.timeservice.core.VirtualClock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the one scheduler of this service. */
@Configuration(proxyBeanMethods = false)
class SchedulerConfiguration {

    @Bean
    TimerScheduler timerScheduler(TimeServiceProperties properties, SchedulerMetrics metrics) {
        return new TimerScheduler(new VirtualClock(0), properties.heap().arity(), properties.capacity(),
                System::currentTimeMillis, metrics);
    }
}
