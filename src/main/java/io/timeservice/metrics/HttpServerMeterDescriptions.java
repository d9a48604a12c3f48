package io.timeservice.metrics;

import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.stereotype.Component;

/**
 * Gives Spring MVC's request meters the help text Spring registers them without, so that every family on
 * /actuator/prometheus passes {@code promtool check metrics} ("no help text" otherwise). Only a missing description
 * is filled in; names, tags and units stay as Spring makes them.
 */
@Component
class HttpServerMeterDescriptions implements MeterFilter {

    private static final Map<String, String> DESCRIPTIONS = Map.of(
            "http.server.requests", "HTTP requests handled, by method, URI template, status, outcome and exception",
            "http.server.requests.active", "HTTP requests in progress, by method and URI template");

    @Override
    public Meter.Id map(Meter.Id id) {
        String description = DESCRIPTIONS.get(id.getName());
        if (description == null || id.getDescription() != null) {
            return id;
        }
        return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), description, id.getType());
    }
}
