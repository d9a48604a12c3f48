package io.timeservice.model;

/**
 * What a firing step does when it reaches a schedule's scheduled occurrence: the store-neutral decision both stores
 * take, so an occurrence fires, is skipped and is followed alike on either. It fires unless the schedule is paused,
 * the step has fired {@code maxCatchUp} of the schedule's occurrences already, or (on a wall clock) {@code catchUp}
 * leaves a missed one out ({@link ScheduleTimes#firesOnWallClock}). Once the step has fired its bound and the
 * successor is due by the step's target too, the schedule's catch-up is {@code spent}: the step adds no successor
 * then but, once it knows where the clock stops (its target, or short of it when its limit stopped it), calls
 * {@link #skipThrough} for that time, which skips and counts every occurrence up to it and moves the schedule on to
 * its first occurrence after it. A paused schedule's occurrences are each reached (and skipped) at their own time, so
 * each counts against a bounded advance's limit.
 *
 * @param fires whether the occurrence fires (else it is skipped and counted)
 * @param next  the schedule's next pending occurrence, or {@link Recurrence#NONE} (when {@code spent}: the successor,
 *              which {@link #skipThrough} replaces)
 * @param spent whether the step fired its bound of the schedule with the successor due by the step's target
 */
public record OccurrenceStep(boolean fires, long next, boolean spent) {

    /**
     * The step for the occurrence at {@code time} of a schedule that has used up {@code counted} occurrences
     * (this one not included) and fired {@code stepFires} of them in this step, the step's target at {@code now}.
     */
    public static OccurrenceStep reach(ScheduleSpec spec, Recurrence times, long time, long now, long counted,
                                       int stepFires, int maxCatchUp, boolean virtual) {
        long successor = ScheduleTimes.successor(spec, times, time, counted + 1);
        boolean fires = !spec.paused() && stepFires < maxCatchUp
                && (virtual || ScheduleTimes.firesOnWallClock(spec.catchUp(), time, successor, now));
        int fired = stepFires + (fires ? 1 : 0);
        boolean spent = successor != Recurrence.NONE && successor <= now && fired >= maxCatchUp;
        return new OccurrenceStep(fires, successor, spent);
    }

    /**
     * After a step that spent a schedule's catch-up at occurrence {@code time} ({@code used} occurrences used up,
     * that one included) stopped the clock at {@code through}: the occurrences after {@code time} up to
     * {@code through} are skipped. Costs O(1) for an interval, one recurrence step per skip counted for a cron.
     *
     * @return the skipped ones' count (at most {@link Limits#MAX_COUNTED_SKIPS}, a cron's at most
     *         {@link Limits#MAX_WALKED_SKIPS}; the rest up to {@code through} are passed without counting), the last
     *         one counted and the schedule's next occurrence, after {@code through}
     */
    public static Skipped skipThrough(ScheduleSpec spec, Recurrence times, long time, long through, long used) {
        long max = times.countsInO1() ? Limits.MAX_COUNTED_SKIPS : Limits.MAX_WALKED_SKIPS;
        if (spec.limit() != null) {
            max = Math.min(max, Math.max(0, spec.limit() - used));
        }
        long last = spec.end() == null ? through : Math.min(through, spec.end());
        Recurrence.Span span = last > time ? times.count(time, last, max) : new Recurrence.Span(0, time);
        long taken = span.count() == 0 ? time : span.last();
        long next = ScheduleTimes.firstAfter(spec, times, through, taken, used + span.count());
        return new Skipped(span.count(), taken, next);
    }

    /**
     * What {@link #skipThrough} skipped.
     *
     * @param count occurrences skipped and counted
     * @param taken the last occurrence fired or skipped
     * @param next  the schedule's next pending occurrence, or {@link Recurrence#NONE}
     */
    public record Skipped(long count, long taken, long next) {
    }

    /**
     * The spec a put keeps, given the schedule's current one ({@code null} for a new schedule): an interval replaced
     * by the same interval without a start keeps its start (its occurrences stay on their grid); anything else is
     * resolved against now ({@link ScheduleRules#resolveSchedule}).
     */
    public static ScheduleSpec resolvePut(ScheduleSpec current, ScheduleSpec given, long now) {
        return current != null && current.every() != null && given.every() != null && given.start() == null
                && given.every().equals(current.every())
                ? given.withStart(current.start()) : ScheduleRules.resolveSchedule(given, now);
    }
}
