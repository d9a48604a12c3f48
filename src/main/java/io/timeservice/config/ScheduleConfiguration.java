package io.timeservice.config;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.CronParser;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What both stores' schedules share, whichever store is selected: the one cron parser, so a cron expression means
 * the same on either (the model is JDK only, so the Spring-backed parser is handed in from here).
 */
@Configuration(proxyBeanMethods = false)
class ScheduleConfiguration {

    @Bean
    CronParser cronParser() {
        return new UnixCronParser();
    }
}
