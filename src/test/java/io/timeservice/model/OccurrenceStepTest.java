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

        assertThat(step).isEqualTo(new OccurrenceStep(true, 2000, 0, 1000));
    }

    @Test
    void beyondTheCatchUpBound_theRestDueByNowIsSkipped_andItMovesPastNow() {
        OccurrenceStep last = OccurrenceStep.reach(every(false, null), SECONDLY, 3000, 7500, 2, 2, 3, true);
        OccurrenceStep over = OccurrenceStep.reach(every(false, null), SECONDLY, 3000, 7500, 2, 3, 3, true);

        assertThat(last).isEqualTo(new OccurrenceStep(true, 8000, 4, 7000));
        assertThat(over).isEqualTo(new OccurrenceStep(false, 8000, 4, 7000));
    }

    @Test
    void paused_skipsThisOne_andTheNextIsReachedAtItsOwnTime() {
        OccurrenceStep step = OccurrenceStep.reach(every(true, null), SECONDLY, 1000, 3999, 0, 0, 10, true);

        assertThat(step).isEqualTo(new OccurrenceStep(false, 2000, 0, 1000));
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
