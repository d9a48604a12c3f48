package io.timeservice.model;

import java.time.LocalDateTime;

/**
 * The local wall-clock times a cron expression matches, with no zone: a parser's whole job
 * ({@link CronParser}); {@link ZonedRecurrence} maps them to instants by the DST rules.
 */
@FunctionalInterface
public interface LocalRecurrence {

    /** The first matching local time strictly after {@code after}, or null when none is left. */
    LocalDateTime nextAfter(LocalDateTime after);
}
