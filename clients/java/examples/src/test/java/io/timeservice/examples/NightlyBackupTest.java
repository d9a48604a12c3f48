package io.timeservice.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.timeservice.client.ClockClient;
import io.timeservice.client.Timer;
import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TestClocks;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Example 3: a schedule on a test clock that starts at a given time, and a fork that goes another way. */
@ExtendWith(TimeServiceExtension.class)
class NightlyBackupTest {

    static final long SPRING_FORWARD_EVE = 1_806_184_800_000L;      // 2027-03-27T22:00:00Z, 23:00 in Berlin

    @Test
    void backsUpAt0230_movedTo0330TheNightTheClocksSpringForward(
            @TestClock(start = SPRING_FORWARD_EVE) ClockClient clock) {
        new NightlyBackups(clock).start("orders");

        List<Timer> fired = clock.advance(Duration.ofDays(2));

        assertEquals(List.of(Instant.parse("2027-03-28T01:30:00Z"),     // 03:30 CEST: 02:30 did not exist
                        Instant.parse("2027-03-29T00:30:00Z")),         // 02:30 CEST
                fired.stream().map(Timer::fireTime).toList());
        assertEquals("{\"database\":\"orders\"}", fired.get(0).payloadJson());
    }

    @Test
    void aPausedBackup_skipsTheNight_whileAForkGoesOn(
            @TestClock(start = SPRING_FORWARD_EVE) ClockClient clock, TestClocks clocks) {
        new NightlyBackups(clock).start("orders");
        ClockClient unpaused = clocks.fork(clock);                      // the same state, deleted after the test

        new NightlyBackups(clock).pause("orders");

        assertEquals(List.of(), clock.advance(Duration.ofDays(1)));
        assertEquals(1, unpaused.advance(Duration.ofDays(1)).size());
    }
}
