package io.timeservice.examples;

import java.time.ZoneId;

import io.timeservice.client.ClockClient;
import io.timeservice.client.Schedule;
import io.timeservice.client.ScheduleSpec;

/**
 * Example 3, the code under test: each database is backed up every night at 02:30 Berlin time, a recurring schedule
 * whose occurrences fire as the clock's timers; a backup can be paused. {@code NightlyBackupTest} tests it across the
 * night the clocks spring forward, on a virtual clock, and a fork of it.
 */
public final class NightlyBackups {

    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private final ClockClient clock;

    public NightlyBackups(ClockClient clock) {
        this.clock = clock;
    }

    /** Backs {@code database} up every night at 02:30 Berlin time from now on. */
    public Schedule start(String database) {
        return clock.schedules().put(scheduleId(database), ScheduleSpec.cron("30 2 * * *", BERLIN)
                .withPayload("{\"database\":\"" + database + "\"}"));
    }

    /** No backups of {@code database} until it is resumed; the nights in between are skipped. */
    public void pause(String database) {
        clock.schedules().pause(scheduleId(database));
    }

    static String scheduleId(String database) {
        return "backup-" + database;
    }
}
