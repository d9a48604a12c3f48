package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class TimeRulesTest {

    @Test
    void saturatedAdd_addsExactlyBelowTheEnd_andStopsAtTheEndOfTime() {
        long end = Limits.MAX_TIME;
        assertThat(TimeRules.saturatedAdd(0, 0)).isZero();
        assertThat(TimeRules.saturatedAdd(1, 1)).isEqualTo(2);
        assertThat(TimeRules.saturatedAdd(1_000_000_000_000_000L, Limits.MAX_LEASE_MILLIS))
                .isEqualTo(1_000_000_000_000_000L + Limits.MAX_LEASE_MILLIS);
        assertThat(TimeRules.saturatedAdd(end - 10, 10)).isEqualTo(end);
        assertThat(TimeRules.saturatedAdd(end - 10, 9)).isEqualTo(end - 1);
        assertThat(TimeRules.saturatedAdd(end - 10, 11)).isEqualTo(end);
        assertThat(TimeRules.saturatedAdd(end - 10_000_000, Limits.MAX_LEASE_MILLIS)).isEqualTo(end);
        assertThat(TimeRules.saturatedAdd(end, Long.MAX_VALUE)).isEqualTo(end);
        // a time past the end (none the service makes) neither wraps nor moves back
        assertThat(TimeRules.saturatedAdd(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(TimeRules.saturatedAdd(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(-1);
    }

    @Test
    void timesPastTheEndOfTime_areRefused_notWrapped() {
        long end = Limits.MAX_TIME;
        assertThat(TimeRules.fireTimeAfter(end - 5, 5, ErrorCode.INVALID_DELAY, "delay")).isEqualTo(end);
        assertThatThrownBy(() -> TimeRules.fireTimeAfter(end - 5, 6, ErrorCode.INVALID_DELAY, "delay"))
                .isInstanceOf(ProblemException.class).hasMessageContaining("end of time");
        assertThat(TimeRules.fireTime(end - 5, Due.at(end))).isEqualTo(end);
        assertThatThrownBy(() -> TimeRules.fireTime(end - 5, Due.at(end + 1))).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> TimeRules.fireTime(end - 5, Due.at(Long.MAX_VALUE)))
                .isInstanceOf(ProblemException.class);
        assertThat(TimeRules.advanceTarget(end - 5, end)).isEqualTo(end);
        assertThatThrownBy(() -> TimeRules.advanceTarget(end - 5, end + 1)).isInstanceOf(ProblemException.class)
                .hasMessageContaining("end of time");
        ClockRules.requireClockNow(end);
        assertThatThrownBy(() -> ClockRules.requireClockNow(end + 1)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> ClockRules.requireClockNow(-1)).isInstanceOf(ProblemException.class);
    }

    @Test
    void cronTimes_stopAtTheEndOfTime_withoutOverflow_andStartOrEndPastItIsRefused() {
        CronParser parser = new io.timeservice.cron.UnixCronParser();
        ScheduleSpec yearly = new ScheduleSpec("0 0 1 1 *", null, null, null, null, null, 0, null,
                ScheduleSpec.CatchUp.ALL, false);
        Recurrence times = ScheduleRules.requireSchedule(yearly, parser);
        long lastNewYear = java.time.Instant.parse("+287396-01-01T00:00:00Z").toEpochMilli();
        assertThat(times.nextAfter(lastNewYear - 1)).isEqualTo(lastNewYear);
        assertThat(ScheduleTimes.successor(yearly, times, lastNewYear, 0)).isEqualTo(Recurrence.NONE);
        // recovery of a journal written before the end of time existed: none, not an ArithmeticException
        assertThat(times.nextAfter(Limits.MAX_TIME)).isEqualTo(Recurrence.NONE);
        assertThat(times.nextAfter(Long.MAX_VALUE - 1_000)).isEqualTo(Recurrence.NONE);
        for (ScheduleSpec bad : List.of(yearly.withStart(Long.MIN_VALUE), yearly.withStart(Limits.MAX_TIME + 1),
                new ScheduleSpec("0 0 1 1 *", null, null, null, -1L, null, 0, null, ScheduleSpec.CatchUp.ALL, false))) {
            assertThatThrownBy(() -> ScheduleRules.requireSchedule(bad, parser)).isInstanceOfSatisfying(
                    ProblemException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SCHEDULE));
        }
        ScheduleSpec far = yearly.withStart(2 * Limits.MAX_DELAY);
        assertThatThrownBy(() -> ScheduleTimes.firstOnPut(far, times, 0, Long.MIN_VALUE, 0))
                .hasMessageContaining("more than " + Limits.MAX_DELAY);
        long start = Limits.MAX_DELAY - 366L * 86_400_000; // its first New Year lies within 10^15 of now, 0
        assertThat(ScheduleTimes.firstOnPut(yearly.withStart(start), times, 0, Long.MIN_VALUE, 0))
                .isBetween(start, Limits.MAX_DELAY);
        assertThatThrownBy(() -> ScheduleTimes.firstOnPut(yearly.withStart(Limits.MAX_DELAY), times, 0,
                Long.MIN_VALUE, 0)).hasMessageContaining("the first occurrence");
    }

    @Test
    void saturatedAdd_refusesANegativeDuration() {
        assertThatThrownBy(() -> TimeRules.saturatedAdd(5, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void fireTime_ofAnAt_isTheTime_orNowWhenItIsNotLater_andAtMostMaxDelayAhead() {
        assertThat(TimeRules.fireTime(100, Due.at(101))).isEqualTo(101);
        assertThat(TimeRules.fireTime(100, Due.at(100))).isEqualTo(100);
        assertThat(TimeRules.fireTime(100, Due.at(99))).isEqualTo(100);
        assertThat(TimeRules.fireTime(100, Due.at(Long.MIN_VALUE))).isEqualTo(100);
        assertThat(TimeRules.fireTime(0, Due.at(Limits.MAX_DELAY))).isEqualTo(Limits.MAX_DELAY);
        assertThat(TimeRules.fireTime(Limits.MAX_TIME, Due.at(Limits.MAX_TIME))).isEqualTo(Limits.MAX_TIME);
        assertThat(TimeRules.fireTime(Limits.MAX_TIME - Limits.MAX_DELAY, Due.at(Limits.MAX_TIME)))
                .isEqualTo(Limits.MAX_TIME);
        assertThatThrownBy(() -> TimeRules.fireTime(0, Due.at(Limits.MAX_DELAY + 1)))
                .isInstanceOfSatisfying(ProblemException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_DELAY))
                .hasMessage("at (1000000000000001) is more than 1000000000000000 ms after now (0)");
        assertThatThrownBy(() -> TimeRules.fireTime(0, Due.at(Long.MAX_VALUE)))
                .isInstanceOf(ProblemException.class);
    }

    /** An advance's {@code to} and a timer's {@code at} pass one bound check: the same texts, each its own code. */
    @Test
    void advanceTarget_andAnAt_areRefusedByOneCheck_withTheirMemberAndCode() {
        long now = 7;
        long tooFar = now + Limits.MAX_DELAY + 1;
        assertThatThrownBy(() -> TimeRules.advanceTarget(now, tooFar)).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ADVANCE))
                .hasMessage("to (" + tooFar + ") is more than " + Limits.MAX_DELAY + " ms after now (7)");
        assertThatThrownBy(() -> TimeRules.fireTime(now, Due.at(tooFar))).isInstanceOfSatisfying(
                ProblemException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_DELAY))
                .hasMessage("at (" + tooFar + ") is more than " + Limits.MAX_DELAY + " ms after now (7)");
        long end = Limits.MAX_TIME;
        assertThatThrownBy(() -> TimeRules.advanceTarget(end - 1, end + 1))
                .hasMessage("to (" + (end + 1) + ") is after the end of time, " + end);
        assertThatThrownBy(() -> TimeRules.fireTime(end - 1, Due.at(end + 1)))
                .hasMessage("at (" + (end + 1) + ") is after the end of time, " + end);
        assertThat(TimeRules.advanceTarget(now, now + Limits.MAX_DELAY)).isEqualTo(now + Limits.MAX_DELAY);
    }

    @Test
    void fireTime_ofADelay_isNowPlusTheDelay_asBefore() {
        assertThat(TimeRules.fireTime(7, Due.after(3))).isEqualTo(10);
        assertThatThrownBy(() -> TimeRules.fireTime(7, Due.after(-1))).isInstanceOf(ProblemException.class)
                .hasMessageContaining("delay");
        assertThatThrownBy(() -> TimeRules.fireTime(Long.MAX_VALUE, Due.after(1))).isInstanceOf(ProblemException.class);
    }

    @Test
    void exactlyOneOfDelayAndAt_makesADueTime() {
        assertThat(TimerRules.requireDue(5L, null)).isEqualTo(Due.after(5));
        assertThat(TimerRules.requireDue(null, 5L)).isEqualTo(Due.at(5));
        assertThatThrownBy(() -> TimerRules.requireDue(null, null)).hasMessageEndingWith("got neither");
        assertThatThrownBy(() -> TimerRules.requireDue(1L, 2L)).hasMessageEndingWith("got both");
        assertThat(TimerRules.editedDue(null, null)).isNull();
        assertThat(TimerRules.editedDue(null, 9L)).isEqualTo(Due.at(9));
        assertThatThrownBy(() -> TimerRules.editedDue(1L, 2L)).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST));
    }

    @Test
    void clockTimeOf_readsRfc3339WithAnOffset_toTheMillisecond() {
        assertThat(TimeRules.clockTimeOf("1970-01-01T00:00:00Z", "at")).isZero();
        assertThat(TimeRules.clockTimeOf("2027-03-28T03:30:00+02:00", "at")).isEqualTo(1806197400000L);
        assertThat(TimeRules.clockTimeOf("2027-03-28t01:30:00z", "at")).isEqualTo(1806197400000L);
        assertThat(TimeRules.clockTimeOf("2027-03-28T01:30:00.123456789Z", "at")).isEqualTo(1806197400123L);
        assertThat(TimeRules.clockTimeOf("1969-12-31T23:59:59.999Z", "at")).isEqualTo(-1);
        assertThat(TimeRules.clockTimeOf("0000-01-01T00:00:00Z", "at")).isEqualTo(-62167219200000L);
        assertThat(TimeRules.clockTimeOf("9999-12-31T23:59:59.999-18:00", "at")).isEqualTo(253402365599999L);
        assertThat(TimeRules.clockTimeOf("2024-02-29T12:00:00+05:30", "at")).isEqualTo(1709188200000L);
    }

    @Test
    void clockTimeOf_readsAFractionOfAnyLength_cutToTheMillisecond() {
        assertThat(TimeRules.clockTimeOf("2027-03-28T01:30:00.1234567890Z", "at")).isEqualTo(1806197400123L);
        assertThat(TimeRules.clockTimeOf("2027-03-28T03:30:00.99999999999999999999+02:00", "at"))
                .isEqualTo(1806197400999L);
        assertThat(TimeRules.clockTimeOf("1969-12-31T23:59:59.9999999999Z", "at")).as("cut toward the past").isEqualTo(-1);
    }

    @Test
    void clockTimeOf_refusesAnythingButStrictRfc3339() {
        for (String text : new String[] {"2027-03-28T03:30:00", "2027-03-28T03:30+02:00", "2027-03-28 03:30:00Z",
                "2027-03-28", "03:30:00Z", "2027-3-28T03:30:00Z", "27-03-28T03:30:00Z", "+2027-03-28T03:30:00Z",
                "2027-03-28T03:30:00+02", "2027-03-28T03:30:00+0200", "2027-03-28T03:30:00+02:00:00",
                "2027-03-28T03:30:00.Z", "2027-03-28T03:30:00.1234567890", "2027-02-29T00:00:00Z",
                "2027-03-28T24:00:00Z", "2027-06-30T23:59:60Z", "2027-03-28T03:30:00Z[Europe/Berlin]",
                "2027-03-28T03:30:00+18:01", " 2027-03-28T03:30:00Z", "2027-03-28T03:30:00Z ", ""}) {
            assertThatThrownBy(() -> TimeRules.clockTimeOf(text, "at")).as(text)
                    .isInstanceOfSatisfying(ProblemException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_DELAY))
                    .hasMessageStartingWith("at must be ");
        }
    }
}
