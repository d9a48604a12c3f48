package io.timeservice.model;

/**
 * Parses a cron expression into its local times. The model is JDK only, so the parser lives outside it (the
 * {@code cron} package) and {@code config} hands the same one to both stores.
 */
@FunctionalInterface
public interface CronParser {

    /**
     * Unix cron: five fields (minute hour day-of-month month day-of-week), or six with seconds first; names, ranges,
     * lists, steps and the macros {@code @yearly @annually @monthly @weekly @daily @midnight @hourly}; day-of-week 0
     * and 7 are Sunday; with both day fields restricted (neither starts with {@code *}) a day matches if either
     * does.
     *
     * @throws ProblemException {@code invalid_schedule} naming what is wrong
     */
    LocalRecurrence parse(String expression);
}
