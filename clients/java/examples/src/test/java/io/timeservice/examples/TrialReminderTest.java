package io.timeservice.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import io.timeservice.client.ClockClient;
import io.timeservice.client.Timer;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Example 1: each test gets its own virtual clock, advanced in one line. */
@ExtendWith(TimeServiceExtension.class)
class TrialReminderTest {

    @Test
    void remindsThreeDaysBeforeTheEnd(ClockClient clock) {
        TrialReminders reminders = new TrialReminders(clock);
        reminders.startTrial("ada");

        assertEquals(List.of(), clock.advance(Duration.ofDays(10)));
        List<Timer> fired = clock.advance(Duration.ofDays(1));

        assertEquals(List.of("trial-reminder-ada"), fired.stream().map(Timer::id).toList());
        assertEquals("{\"user\":\"ada\"}", fired.get(0).payloadJson());
    }

    @Test
    void noReminderWhenTheTrialEndsEarly(ClockClient clock) {
        TrialReminders reminders = new TrialReminders(clock);
        reminders.startTrial("grace");
        clock.advance(Duration.ofDays(5));

        reminders.endTrial("grace");

        assertEquals(List.of(), clock.advance(Duration.ofDays(30)));
    }
}
