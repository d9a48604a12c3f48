package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OccurrenceStepTest {

    private static final Recurrence SECONDLY = Recurrence.every(1000, 1000);

    private static ScheduleSpec every(boolean paused, ScheduleSpec.CatchUp catchUp) {
        return new ScheduleSpec(null, 1000L, null, 1000L, null, null, 0, null, catchUp, paused);
    }

    @Test
    void aVirtualClock_firesEachOccurrence_andMovesToTheNext() {
        OccurrenceStep step = OccurrenceStep.reach(every(false, null), SECONDLY, 1000, 5000, 0, 0, 10, true);

        assertThat(step).isEqualTo(new OccurrenceStep(true, 2000, false));
    }

    @Test
    void beyondTheCatchUpBound_theStepIsSpent_andSkipsThroughWhereItStops_thenMovesPastThere() {
        OccurrenceStep last = OccurrenceStep.reach(every(false, null), SECONDLY, 3000, 7500, 2, 2, 3, true);
        OccurrenceStep over = OccurrenceStep.reach(every(false, null), SECONDLY, 3000, 7500, 2, 3, 3, true);

        assertThat(last).isEqualTo(new OccurrenceStep(true, 4000, true));
        assertThat(over).isEqualTo(new OccurrenceStep(false, 4000, true));
        assertThat(OccurrenceStep.skipThrough(every(false, null), SECONDLY, 3000, 7500, 3))
                .isEqualTo(new OccurrenceStep.Skipped(4, 7000, 8000));
        assertThat(OccurrenceStep.skipThrough(every(false, null), SECONDLY, 3000, 5000, 3))
                .as("a step its limit stopped at 5000 skips only what it reached: 4000 and 5000")
                .isEqualTo(new OccurrenceStep.Skipped(2, 5000, 6000));
        assertThat(OccurrenceStep.skipThrough(every(false, null), SECONDLY, 3000, 3500, 3))
                .isEqualTo(new OccurrenceStep.Skipped(0, 3000, 4000));
    }

    @Test
    void skipThrough_countsAtMostTheCap_andNeverOnePerSkippedTime() {
        long through = 1_000_000_000_000_000L;
        CountingRecurrence times = new CountingRecurrence(SECONDLY);

        OccurrenceStep.Skipped skipped = OccurrenceStep.skipThrough(every(false, null), times, 3000, through, 3);

        assertThat(skipped).isEqualTo(new OccurrenceStep.Skipped(Limits.MAX_COUNTED_SKIPS,
                3000 + Limits.MAX_COUNTED_SKIPS * 1000L, through + 1000));
        assertThat(times.steps).as("recurrence steps for 10^12 skipped times").isLessThanOrEqualTo(4);
    }

    @Test
    void skipThrough_aCronCountsOneByOne_uptoItsWalkBound() {
        Recurrence secondly = after -> after + 1000; // walked, as a cron's times are
        CountingRecurrence times = new CountingRecurrence(secondly);
        ScheduleSpec cron = new ScheduleSpec("* * * * * *", null, null, null, null, null, 0, null, null, false);

        OccurrenceStep.Skipped skipped = OccurrenceStep.skipThrough(cron, times, 0, 1_000_000_000_000_000L, 1);

        assertThat(skipped.count()).isEqualTo(Limits.MAX_WALKED_SKIPS);
        assertThat(skipped.next()).isEqualTo(1_000_000_000_001_000L);
        assertThat(times.steps).isLessThanOrEqualTo(Limits.MAX_WALKED_SKIPS + 2);
    }

    @Test
    void skipThrough_stopsAtTheEnd_andAtTheLimit() {
        ScheduleSpec ending = new ScheduleSpec(null, 1000L, null, 1000L, 9000L, null, 0, null, null, false);
        ScheduleSpec limited = new ScheduleSpec(null, 1000L, null, 1000L, null, 5L, 0, null, null, false);

        assertThat(OccurrenceStep.skipThrough(ending, SECONDLY, 3000, 1_000_000_000L, 3))
                .isEqualTo(new OccurrenceStep.Skipped(6, 9000, Recurrence.NONE));
        assertThat(OccurrenceStep.skipThrough(limited, SECONDLY, 3000, 1_000_000_000L, 3))
                .isEqualTo(new OccurrenceStep.Skipped(2, 5000, Recurrence.NONE));
    }

    @Test
    void anInterval_countsByArithmetic_toTheEndOfTime() {
        Recurrence late = Recurrence.every(Long.MAX_VALUE - 10_000, 1000);
        Recurrence early = Recurrence.every(-Limits.MAX_DELAY, 1000);

        assertThat(late.count(0, Long.MAX_VALUE, 100)).isEqualTo(new Recurrence.Span(11, Long.MAX_VALUE));
        assertThat(early.count(-Limits.MAX_DELAY - 1, Limits.MAX_DELAY, Long.MAX_VALUE))
                .isEqualTo(new Recurrence.Span(2 * Limits.MAX_DELAY / 1000 + 1, Limits.MAX_DELAY));
        assertThat(early.count(0, 999, 10)).isEqualTo(new Recurrence.Span(0, 0));
    }

    /** Counts the steps taken through the recurrence it wraps. */
    private static final class CountingRecurrence implements Recurrence {
        private final Recurrence times;
        int steps;

        CountingRecurrence(Recurrence times) {
            this.times = times;
        }

        @Override
        public long nextAfter(long after) {
            steps++;
            return times.nextAfter(after);
        }

        @Override
        public Span count(long after, long through, long max) {
            if (times.countsInO1()) {
                steps++;
                return times.count(after, through, max);
            }
            return Recurrence.super.count(after, through, max);
        }

        @Override
        public boolean countsInO1() {
            return times.countsInO1();
        }
    }

    @Test
    void paused_skipsThisOne_andTheNextIsReachedAtItsOwnTime() {
        OccurrenceStep step = OccurrenceStep.reach(every(true, null), SECONDLY, 1000, 3999, 0, 0, 10, true);

        assertThat(step).isEqualTo(new OccurrenceStep(false, 2000, false));
    }

    @Test
    void aWallClock_followsCatchUp_forAMissedOccurrence() {
        // 1000 and 2000 missed at now 2500: latest fires only the last one due, none fires neither
        ScheduleSpec latest = every(false, ScheduleSpec.CatchUp.LATEST);
        ScheduleSpec none = every(false, ScheduleSpec.CatchUp.NONE);

        assertThat(OccurrenceStep.reach(latest, SECONDLY, 1000, 2500, 0, 0, 10, false).fires()).isFalse();
        assertThat(OccurrenceStep.reach(latest, SECONDLY, 2000, 2500, 1, 0, 10, false).fires()).isTrue();
        assertThat(OccurrenceStep.reach(none, SECONDLY, 1000, 2500, 0, 0, 10, false).fires()).isFalse();
        assertThat(OccurrenceStep.reach(none, SECONDLY, 2000, 2500, 1, 0, 10, false).fires())
                .as("on time: neither its successor is due nor is it a minute late").isTrue();
    }

    @Test
    void theLimit_endsTheSchedule() {
        ScheduleSpec twice = new ScheduleSpec(null, 1000L, null, 1000L, null, 2L, 0, null, null, false);

        assertThat(OccurrenceStep.reach(twice, SECONDLY, 2000, 9000, 1, 1, 10, true).next())
                .isEqualTo(Recurrence.NONE);
    }

    @Test
    void aReplacedIntervalKeepsItsGrid_anyOtherSpecIsResolvedAgainstNow() {
        ScheduleSpec current = every(false, null);
        ScheduleSpec sameInterval = new ScheduleSpec(null, 1000L, null, null, null, null, 5, null, null, false);
        ScheduleSpec otherInterval = new ScheduleSpec(null, 2000L, null, null, null, null, 5, null, null, false);

        assertThat(OccurrenceStep.resolvePut(current, sameInterval, 4321).start()).isEqualTo(1000);
        assertThat(OccurrenceStep.resolvePut(current, otherInterval, 4321).start()).isEqualTo(6321);
        assertThat(OccurrenceStep.resolvePut(null, sameInterval, 4321).start()).isEqualTo(5321);
    }
}
