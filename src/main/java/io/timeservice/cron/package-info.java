/**
 * Unix cron expressions parsed into their local times ({@link io.timeservice.model.CronParser}): the field syntax
 * is checked and normalised here, and Spring's {@code CronExpression} finds the next matching
 * {@link java.time.LocalDateTime} (no zone, so no DST in it; the zone rules are the model's
 * {@link io.timeservice.model.ZonedRecurrence}). Imports {@code model} and Spring's scheduling support only;
 * {@code config} hands the parser to both stores.
 */
package io.timeservice.cron;
