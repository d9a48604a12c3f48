package io.timeservice.model;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of a {@link ClockSnapshot}'s schedules, part of {@link SnapshotRules#check}: each schedule's spec as
 * {@code PUT /clocks/{clock}/schedules/{id}} takes it ({@link ScheduleRules#requireSchedule}, the same code, each refusal at
 * the pointer of the member it names), distinct ids, counts a clock could have made (none negative, the triggered
 * ones among the fired, no more used than the limit, no occurrence left once it is used up), and a pending
 * occurrence ({@code next}) within the schedule's start and end, after the last one taken, and among the timers: the
 * timer {@code <id>:<next>} naming the schedule. The timers' own {@code schedule} members are checked with the
 * timers; a timer naming a schedule the document does not hold is a triggered occurrence of a deleted one. A timer
 * without {@code schedule} whose id has the form {@code <id>:<digits>} of a schedule the document holds is refused
 * at its pointer: such ids are the schedule's ({@link ScheduleRules#occurrenceFormOwner}), as a client's add is refused.
 */
final class ScheduleSnapshotRules {

    private ScheduleSnapshotRules() {
    }

    static void check(ClockSnapshot snapshot, CronParser parser) {
        long now = snapshot.now();
        Map<String, String> occurrences = new HashMap<>();
        for (Timer timer : snapshot.timers()) {
            if (timer.schedule() != null) {
                occurrences.put(timer.id(), timer.schedule());
            }
        }
        Set<String> ids = new HashSet<>();
        List<Schedule> schedules = snapshot.schedules();
        for (int i = 0; i < schedules.size(); i++) {
            Schedule s = schedules.get(i);
            String at = "/schedules/" + i;
            SnapshotRules.requireScheduleId(s.id(), at + "/id");
            SnapshotRules.require(ids.add(s.id()), at + "/id", "schedule id " + s.id() + " appears twice");
            ScheduleRules.requireSchedule(s.spec(), parser, (member, message) ->
                    SnapshotRules.refused(member.isEmpty() ? at : at + "/" + member, message));
            ScheduleSpec spec = s.spec();
            long latest = TimeRules.saturatedAdd(now, Limits.MAX_DELAY);
            SnapshotRules.require(s.next() == null || s.next() >= 0 && s.next() <= latest, at + "/next",
                    "next must be null or between 0 and " + latest + " (now + " + Limits.MAX_DELAY + ", at most the"
                    + " end of time): " + s.next());
            SnapshotRules.require(s.next() == null || spec.start() == null || s.next() >= spec.start(), at + "/next",
                    "next (" + s.next() + ") is before the schedule's start (" + spec.start() + ")");
            SnapshotRules.require(s.next() == null || spec.end() == null || s.next() <= spec.end(), at + "/next",
                    "next (" + s.next() + ") is after the schedule's end (" + spec.end() + ")");
            // each scheduled occurrence has its own time, 0 to the end of time: so no count passes it, nor overflows
            SnapshotRules.require(s.fired() >= 0 && s.fired() <= Limits.MAX_TIME, at + "/fired",
                    "fired must be between 0 and " + Limits.MAX_TIME + ": " + s.fired());
            SnapshotRules.require(s.skipped() >= 0 && s.skipped() <= Limits.MAX_TIME, at + "/skipped",
                    "skipped must be between 0 and " + Limits.MAX_TIME + ": " + s.skipped());
            SnapshotRules.require(s.triggered() >= 0 && s.triggered() <= s.fired(), at + "/triggered",
                    "triggered must be between 0 and fired (" + s.fired() + "): " + s.triggered());
            SnapshotRules.require(s.taken() == Long.MIN_VALUE || s.taken() >= 0 && s.taken() <= now, at + "/taken",
                    "taken must be between 0 and now (" + now + "): " + s.taken());
            SnapshotRules.require(s.next() == null || s.taken() == Long.MIN_VALUE || s.next() > s.taken(),
                    at + "/next", "next (" + s.next() + ") must come after taken (" + s.taken() + ")");
            SnapshotRules.require(s.version() >= 1, at + "/version", "version must be at least 1: " + s.version());
            if (spec.limit() != null) {
                // fired and skipped are each 0 to MAX_TIME here and triggered <= fired: no overflow, never negative.
                // More used than the limit is a done schedule a replace gave a lower limit than it had used.
                long counted = s.counted();
                SnapshotRules.require(s.next() == null || counted < spec.limit(), at + "/next", "a schedule that"
                        + " has used its limit of " + spec.limit() + " occurrences has none pending: next is null");
            }
            if (s.next() != null) {
                String pending = Schedule.occurrenceId(s.id(), s.next());
                SnapshotRules.require(s.id().equals(occurrences.get(pending)), at + "/next", "the pending"
                        + " occurrence " + pending + " is not among the timers (as a timer with \"schedule\": \""
                        + s.id() + "\")");
            }
        }
        List<Timer> timers = snapshot.timers();
        for (int i = 0; ids.size() > 0 && i < timers.size(); i++) {
            Timer timer = timers.get(i);
            String owner = timer.schedule() == null ? ScheduleRules.occurrenceFormOwner(timer.id()) : null;
            SnapshotRules.require(owner == null || !ids.contains(owner), "/timers/" + i, "timer " + timer.id()
                    + " has the form of schedule " + owner + "'s occurrences, which are the schedule's while it"
                    + " exists, but is not one (no \"schedule\": \"" + owner + "\")");
        }
    }
}
