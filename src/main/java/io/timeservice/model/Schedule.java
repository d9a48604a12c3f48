package io.timeservice.model;

import java.util.Locale;

/**
 * One schedule as a store holds it: the client's resolved spec plus what firing has done.
 *
 * @param id        1 to {@value Limits#MAX_SCHEDULE_ID_LENGTH} timer-id characters
 * @param spec      as given, with an interval's implied start filled in ({@link ScheduleRules#resolveSchedule})
 * @param next      the pending occurrence's time (epoch ms of the clock), or null when none is left
 * @param fired     occurrences fired, triggered ones included
 * @param skipped   occurrences skipped (paused, beyond the catch-up bound, or left out by {@code catchUp})
 * @param triggered extra occurrences fired by {@code trigger} (counted in {@code fired}, not against the limit)
 * @param taken     the last scheduled occurrence fired or skipped, or {@link Long#MIN_VALUE} for none: a replace
 *                  continues after it, so an occurrence never fires twice
 * @param version   1 at creation, +1 on each replace, pause and resume
 */
public record Schedule(String id, ScheduleSpec spec, Long next, long fired, long skipped, long triggered, long taken,
                       long version) {

    /** The timer id of the occurrence at {@code time}: {@code <schedule id>:<time>}. */
    public static String occurrenceId(String scheduleId, long time) {
        return scheduleId + ":" + time;
    }

    /** Scheduled occurrences used up: fired or skipped, triggered ones not counted. */
    public long counted() {
        return fired - triggered + skipped;
    }

    public State state() {
        return next == null ? State.DONE : spec.paused() ? State.PAUSED : State.ACTIVE;
    }

    /** {@code active} (an occurrence pending), {@code paused}, or {@code done} (none left). */
    public enum State {
        ACTIVE, PAUSED, DONE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a put did: the schedule, and whether it is new (201) or replaced one (200). */
    public record Put(Schedule schedule, boolean created) {
    }
}
