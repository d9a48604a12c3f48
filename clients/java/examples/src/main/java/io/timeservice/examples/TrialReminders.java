package io.timeservice.examples;

import java.time.Duration;

import io.timeservice.client.ClockClient;
import io.timeservice.client.Timer;

/**
 * Example 1, the code under test: a trial lasts 14 days and its user is reminded 3 days before the end, unless the
 * trial ends early. {@code TrialReminderTest} tests it with the test kit, in virtual days.
 */
public final class TrialReminders {

    static final Duration TRIAL = Duration.ofDays(14);
    static final Duration REMIND_BEFORE_END = Duration.ofDays(3);

    private final ClockClient clock;

    public TrialReminders(ClockClient clock) {
        this.clock = clock;
    }

    /** Schedules the reminder of the user's trial, starting now. */
    public Timer startTrial(String user) {
        return clock.add(timerId(user), TRIAL.minus(REMIND_BEFORE_END), 0, "{\"user\":\"" + user + "\"}");
    }

    /** The trial ended early (the user bought or left): no reminder. */
    public void endTrial(String user) {
        clock.cancel(timerId(user));
    }

    static String timerId(String user) {
        return "trial-reminder-" + user;
    }
}
