package io.timeservice.model;

import java.util.ArrayList;
import java.util.List;

/**
 * When a schedule's occurrences fall, with start, end and limit applied: the store-neutral arithmetic both stores
 * call, so that the pending occurrence, {@code next} and every catch-up decision agree whichever store answers.
 * Pure functions of their arguments; the recurrence comes from {@link ScheduleRules#recurrenceOf}.
 */
public final class ScheduleTimes {

    private ScheduleTimes() {
    }

    /**
     * The first occurrence after the clock's {@code now} and after {@code taken} (the last one fired or skipped, so a
     * replaced schedule never repeats one), at or after start; {@link Recurrence#NONE} when none is left.
     */
    public static long firstAfter(ScheduleSpec spec, Recurrence times, long now, long taken, long counted) {
        long after = Math.max(now, taken);
        if (spec.start() != null && spec.start() - 1 > after) {
            after = spec.start() - 1;
        }
        return within(spec, times.nextAfter(after), counted);
    }

    /**
     * {@link #firstAfter} for a put at {@code now} of the resolved spec {@code spec}, refused as an {@code at} is
     * when its start or first occurrence lies more than {@link Limits#MAX_DELAY} after now: so a schedule's pending
     * occurrence, like every timer, is due at most that long after the clock's time (the snapshot load's rule).
     *
     * @throws ProblemException {@code invalid_schedule}
     */
    public static long firstOnPut(ScheduleSpec spec, Recurrence times, long now, long taken, long counted) {
        if (spec.start() != null && spec.start() - now > Limits.MAX_DELAY) { // start and now are clock times
            throw new ProblemException(ErrorCode.INVALID_SCHEDULE, "start (" + spec.start() + ") is more than "
                    + Limits.MAX_DELAY + " ms after now (" + now + ")");
        }
        long first = firstAfter(spec, times, now, taken, counted);
        if (first != Recurrence.NONE && first - now > Limits.MAX_DELAY) {
            throw new ProblemException(ErrorCode.INVALID_SCHEDULE, "the first occurrence (" + first
                    + ") is more than " + Limits.MAX_DELAY + " ms after now (" + now + ")");
        }
        return first;
    }

    /** The occurrence after {@code time}, given {@code counted} occurrences used up; {@link Recurrence#NONE} at the end. */
    public static long successor(ScheduleSpec spec, Recurrence times, long time, long counted) {
        return within(spec, times.nextAfter(time), counted);
    }

    /**
     * {@code time}, or {@link Recurrence#NONE} when it lies past end or the end of time ({@link Limits#MAX_TIME}) or
     * the limit is used up.
     */
    private static long within(ScheduleSpec spec, long time, long counted) {
        if (time == Recurrence.NONE || time > Limits.MAX_TIME || spec.end() != null && time > spec.end()
                || spec.limit() != null && counted >= spec.limit()) {
            return Recurrence.NONE;
        }
        return time;
    }

    /**
     * The next {@code count} occurrences as the schedule will fire them: the pending one, then its successors, end
     * and limit applied; empty when none is pending.
     */
    public static List<Long> upcoming(Schedule schedule, Recurrence times, int count) {
        ScheduleRules.requireNextCount(count);
        List<Long> upcoming = new ArrayList<>(Math.min(count, 16));
        if (schedule.next() == null) {
            return upcoming;
        }
        long time = schedule.next();
        long counted = schedule.counted();
        while (time != Recurrence.NONE && upcoming.size() < count) {
            upcoming.add(time);
            counted++;
            time = successor(schedule.spec(), times, time, counted);
        }
        return upcoming;
    }

    /**
     * Whether a wall clock's firing that reaches occurrence {@code time} at {@code now}, its successor at
     * {@code successor} ({@link Recurrence#NONE} for none), fires it or skips it. It was missed when its successor is
     * due as well or it is {@value Limits#MISSED_AFTER_MILLIS} ms late or more; a missed one fires under {@code all},
     * under {@code latest} only when it is the last one due, never under {@code none}. A virtual clock never misses
     * one: an advance passes through each at its own time.
     */
    public static boolean firesOnWallClock(ScheduleSpec.CatchUp catchUp, long time, long successor, long now) {
        boolean lastDue = successor == Recurrence.NONE || successor > now;
        boolean missed = !lastDue || now - time >= Limits.MISSED_AFTER_MILLIS;
        return switch (catchUp) {
            case ALL -> true;
            case LATEST -> lastDue;
            case NONE -> !missed;
        };
    }
}
