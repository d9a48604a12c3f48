package io.timeservice.model;

/**
 * What a firing step does when it reaches a schedule's scheduled occurrence: the store-neutral decision both stores
 * take, so an occurrence fires, is skipped and is followed alike on either. It fires unless the schedule is paused,
 * the step has fired {@code maxCatchUp} of the schedule's occurrences already, or (on a wall clock) {@code catchUp}
 * leaves a missed one out ({@link ScheduleTimes#firesOnWallClock}). Beyond the bound every later occurrence due by
 * the step's now is skipped too, counted one by one up to {@link Limits#MAX_COUNTED_SKIPS}, and the schedule moves on
 * to its first occurrence after now. A paused schedule's occurrences are each reached (and skipped) at their own
 * time, so each counts against a bounded advance's limit.
 *
 * @param fires       whether the occurrence fires (else it is skipped and counted)
 * @param next        the schedule's next pending occurrence, or {@link Recurrence#NONE}
 * @param skippedMore occurrences after this one skipped by the same step
 * @param taken       the last occurrence fired or skipped: this one, or the last one skipped after it
 */
public record OccurrenceStep(boolean fires, long next, long skippedMore, long taken) {

    /**
     * The step for the occurrence at {@code time} of a schedule that has used up {@code counted} occurrences
     * (this one not included) and fired {@code stepFires} of them in this step, the step's clock at {@code now}.
     */
    public static OccurrenceStep reach(ScheduleSpec spec, Recurrence times, long time, long now, long counted,
                                       int stepFires, int maxCatchUp, boolean virtual) {
        long successor = ScheduleTimes.successor(spec, times, time, counted + 1);
        boolean fires = !spec.paused() && stepFires < maxCatchUp
                && (virtual || ScheduleTimes.firesOnWallClock(spec.catchUp(), time, successor, now));
        int fired = stepFires + (fires ? 1 : 0);
        long used = counted + 1;
        long skippedMore = 0;
        long taken = time;
        if (successor != Recurrence.NONE && successor <= now && fired >= maxCatchUp) {
            long next = successor;
            for (int skipped = 0; next != Recurrence.NONE && next <= now; skipped++) {
                skippedMore++;
                used++;
                taken = next;
                if (skipped == Limits.MAX_COUNTED_SKIPS) {
                    return new OccurrenceStep(fires, ScheduleTimes.firstAfter(spec, times, now, next, used),
                            skippedMore, taken);
                }
                next = ScheduleTimes.successor(spec, times, next, used);
            }
            successor = next;
        }
        return new OccurrenceStep(fires, successor, skippedMore, taken);
    }

    /**
     * The spec a put keeps, given the schedule's current one ({@code null} for a new schedule): an interval replaced
     * by the same interval without a start keeps its start (its occurrences stay on their grid); anything else is
     * resolved against now ({@link Rules#resolveSchedule}).
     */
    public static ScheduleSpec resolvePut(ScheduleSpec current, ScheduleSpec given, long now) {
        return current != null && current.every() != null && given.every() != null && given.start() == null
                && given.every().equals(current.every())
                ? given.withStart(current.start()) : Rules.resolveSchedule(given, now);
    }
}
