package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec.CatchUp;
import io.timeservice.model.ScheduleSpec;
import org.junit.jupiter.api.Test;

/**
 * A clock's schedules over a small reference heap that pops in firing order, one fireTime at a time, as a firing
 * step does: what fires, what is skipped and counted, and what stays pending.
 */
class ClockSchedulesTest {

    private final UnixCronParser parser = new UnixCronParser();
    private final ReferenceHeap heap = new ReferenceHeap();
    private final ClockSchedules schedules = new ClockSchedules(parser, heap);
    private long now;

    /** Pending timers by id: fireTime, priority, sequence; refusing a second timer of one id. */
    private static final class ReferenceHeap implements ClockSchedules.Occurrences {
        final Map<String, long[]> pending = new HashMap<>();
        long sequence;

        @Override
        public void add(String timerId, long fireTime, int priority, String payload, String traceContext,
                        String key, boolean successor) {
            if (pending.putIfAbsent(timerId, new long[] {fireTime, priority, ++sequence}) != null) {
                throw new ProblemException(ErrorCode.DUPLICATE_ID, timerId);
            }
        }

        @Override
        public void createdAt(long clockTime) {
        }

        @Override
        public void remove(String timerId) {
            assertThat(pending.remove(timerId)).as("removed " + timerId).isNotNull();
        }

        @Override
        public boolean isPending(String timerId) {
            return pending.containsKey(timerId);
        }
    }

    private Schedule put(String id, ScheduleSpec spec) {
        ScheduleRules.requireSchedule(spec, parser);
        return schedules.put(id, spec, null, now).schedule();
    }

    private static ScheduleSpec cron(String cron, String zone) {
        return new ScheduleSpec(cron, null, zone, null, null, null, 0, null, CatchUp.ALL, false);
    }

    private static ScheduleSpec every(long every) {
        return new ScheduleSpec(null, every, null, null, null, null, 0, null, CatchUp.ALL, false);
    }

    /** Advances to {@code to} as a firing step does; answers what fired, as "id@fireTime", in firing order. */
    private List<String> advance(long to, boolean virtual, int maxCatchUp) {
        List<String> fired = new ArrayList<>();
        schedules.beginStep();
        while (true) {
            long first = heap.pending.values().stream().mapToLong(key -> key[0]).min().orElse(Long.MAX_VALUE);
            if (first > to) {
                break;
            }
            List<Map.Entry<String, long[]>> due = heap.pending.entrySet().stream()
                    .filter(e -> e.getValue()[0] == first)
                    .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[1])
                            .thenComparingLong(e -> e.getValue()[2])).toList();
            for (Map.Entry<String, long[]> timer : due) {
                heap.pending.remove(timer.getKey());
                if (schedules.reached(timer.getKey(), first, to, virtual, maxCatchUp) != ClockSchedules.Reached.SKIP) {
                    fired.add(timer.getKey());
                }
            }
            schedules.addSuccessors(first);
        }
        schedules.endStep(to);
        now = to;
        return fired;
    }

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void virtualAdvanceAcrossBerlinSpringForward_firesEachOccurrenceAtItsOwnTime_interleavedWithATimer() {
        now = at("2027-03-27T22:00:00Z");
        put("night", cron("30 2 * * *", "Europe/Berlin"));
        put("half", cron("*/30 1-3 * * *", "Europe/Berlin"));
        heap.add("plain", at("2027-03-28T01:15:00Z"), 0, null, null, null, false);

        List<String> fired = advance(at("2027-03-28T03:00:00Z"), true, 1000);

        // 01:00 and 01:30 CET; 02:00 and 02:30 do not exist (moved to 03:00 and 03:30 CEST, which happen anyway)
        assertThat(fired).containsExactly("half:" + at("2027-03-28T00:00:00Z"), "half:" + at("2027-03-28T00:30:00Z"),
                "half:" + at("2027-03-28T01:00:00Z"), "plain", "night:" + at("2027-03-28T01:30:00Z"),
                "half:" + at("2027-03-28T01:30:00Z"));
        assertThat(schedules.get("night").next()).isEqualTo(at("2027-03-29T00:30:00Z"));
        assertThat(schedules.get("half").fired()).isEqualTo(4);
    }

    @Test
    void beyondMaxCatchUp_theRestIsSkippedAndCounted_andTheNextIsAfterNow() {
        put("tick", every(1000)); // 1000, 2000, ...
        List<String> fired = advance(10_500, true, 3);

        assertThat(fired).containsExactly("tick:1000", "tick:2000", "tick:3000");
        Schedule tick = schedules.get("tick");
        assertThat(tick.fired()).isEqualTo(3);
        assertThat(tick.skipped()).isEqualTo(7);
        assertThat(tick.next()).isEqualTo(11_000);
        assertThat(heap.pending).containsOnlyKeys("tick:11000");
    }

    @Test
    void paused_skipsAndCountsWhatComesDue_resumeContinuesAfterNow() {
        put("tick", every(1000));
        schedules.pause("tick", 1L);
        assertThat(advance(3_000, true, 1000)).isEmpty();
        assertThat(schedules.get("tick").skipped()).isEqualTo(3);
        now = 3_500;
        Schedule resumed = schedules.resume("tick", null, now);
        assertThat(resumed.state()).isEqualTo(Schedule.State.ACTIVE);
        assertThat(resumed.version()).isEqualTo(3);
        assertThat(advance(4_000, true, 1000)).containsExactly("tick:4000");
    }

    @Test
    void replace_neverFiresAnOccurrenceAgain() {
        put("m", cron("* * * * *", "UTC"));
        assertThat(advance(60_000, true, 1000)).containsExactly("m:60000");
        now = 30_000; // a replace that looks back (the clock never does; the last fired one bounds it anyway)
        Schedule replaced = schedules.put("m", cron("* * * * *", "UTC"), 1L, now).schedule();
        assertThat(replaced.next()).isEqualTo(120_000);
        assertThat(replaced.version()).isEqualTo(2);
        assertThat(replaced.fired()).isEqualTo(1);
    }

    @Test
    void limitAndEnd_boundNext_andTheScheduleIsDoneAfterTheLast() {
        ScheduleSpec limited = new ScheduleSpec(null, 1000L, null, null, null, 3L, 0, null, CatchUp.ALL, false);
        put("three", limited);
        assertThat(schedules.next("three", 10)).containsExactly(1000L, 2000L, 3000L);
        ScheduleSpec ending = new ScheduleSpec(null, 1000L, null, 5000L, 7500L, null, 0, null, CatchUp.ALL, false);
        put("ends", ending);
        assertThat(schedules.next("ends", 10)).containsExactly(5000L, 6000L, 7000L);

        advance(20_000, true, 1000);
        assertThat(schedules.get("three").state()).isEqualTo(Schedule.State.DONE);
        assertThat(schedules.get("three").fired()).isEqualTo(3);
        assertThat(schedules.next("ends", 5)).isEmpty();
        assertThat(heap.pending).isEmpty();
    }

    @Test
    void trigger_firesOneExtraAtNow_notCountedAgainstTheLimit() {
        ScheduleSpec limited = new ScheduleSpec(null, 1000L, null, null, null, 1L, 0, null, CatchUp.ALL, false);
        put("once", limited);
        now = 500;
        assertThat(schedules.trigger("once", now)).isEqualTo("once:500");
        assertThat(schedules.ownerOf("once:500")).isEqualTo("once");
        assertThat(advance(1000, true, 1000)).containsExactly("once:500", "once:1000");
        Schedule once = schedules.get("once");
        assertThat(once.fired()).isEqualTo(2);
        assertThat(once.triggered()).isEqualTo(1);
        assertThat(once.state()).isEqualTo(Schedule.State.DONE);
    }

    @Test
    void wallClockCatchUp_latestFiresOnlyTheLastMissed_noneFiresNone() {
        long tenMinutes = 600_000;
        for (CatchUp catchUp : CatchUp.values()) {
            put(catchUp.wire(), new ScheduleSpec(null, tenMinutes, null, null, null, null, 0, null, catchUp, false));
        }

        // down from 0 to 1,900 s: 600, 1,200 and 1,800 s were missed (the last one 100 s late, past the 60 s grace)
        List<String> fired = advance(1_900_000, false, 1000);

        assertThat(fired).containsExactly("all:600000", "all:1200000", "all:1800000", "latest:1800000");
        assertThat(schedules.get("latest").skipped()).isEqualTo(2);
        assertThat(schedules.get("none").skipped()).isEqualTo(3);
        assertThat(schedules.get("none").next()).isEqualTo(2_400_000);
    }

    @Test
    void wallClockCatchUp_none_firesAnOccurrenceReachedWithinTheGrace() {
        put("none", new ScheduleSpec(null, 600_000L, null, null, null, null, 0, null, CatchUp.NONE, false));
        assertThat(advance(659_999, false, 1000)).containsExactly("none:600000");
    }

    @Test
    void delete_removesThePendingOccurrence() {
        put("gone", every(1000));
        assertThat(schedules.delete("gone", null).next()).isEqualTo(1000);
        assertThat(heap.pending).isEmpty();
        assertThat(schedules.ownerOf("gone:1000")).isNull();
        assertThatThrownBy(() -> schedules.get("gone")).extracting(e -> ((ProblemException) e).code())
                .isEqualTo(ErrorCode.SCHEDULE_NOT_FOUND);
    }

    @Test
    void plan_namesTheOccurrenceACallWouldAdd_andRefusesAsTheCallWould() {
        put("s", every(1000));
        assertThat(schedules.plan(new Mutation.SchedulePut("s", every(5000), now, 0, 0), every(5000), null))
                .isEqualTo("s:5000");
        assertThat(schedules.plan(new Mutation.ScheduleTriggered("s", 0, 0, 0), null, null)).isEqualTo("s:0");
        assertThatThrownBy(() -> schedules.plan(new Mutation.SchedulePut("s", every(1000), now, 0, 0), every(1000),
                7L)).extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThat(schedules.get("s").spec().every()).isEqualTo(1000);
        assertThat(heap.pending).containsOnlyKeys("s:1000");
    }
}
