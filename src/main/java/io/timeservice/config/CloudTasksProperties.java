package io.timeservice.config;

import io.timeservice.model.ClockSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Cloud Tasks drop-in API (issue 47, docs/DROP-IN.md).
 *
 * @param mode whether a queue's clock is virtual (tests advance it) or system when its create call does not say
 *             (header {@code TimeService-Clock-Mode})
 */
@ConfigurationProperties("timeservice.cloudtasks")
public record CloudTasksProperties(@DefaultValue("virtual") ClockSettings.Mode mode) {
}
