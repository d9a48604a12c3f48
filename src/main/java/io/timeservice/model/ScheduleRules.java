package io.timeservice.model;

import java.time.ZoneId;
import java.util.function.BiFunction;

/**
 * The rulebook's schedules: an id's form, a spec's members and the times they compile to, the schedule limit, the
 * occurrence ids a schedule owns, a precondition, and the refusals of a schedule that is not there. Both stores call
 * these, so a schedule call is refused with the same code and text whichever store answers.
 */
public final class ScheduleRules {

    /** The cron parser of a store opened without one: every cron is refused, {@code invalid_schedule}. */
    public static final CronParser NO_CRON = expression -> {
        throw new ProblemException(ErrorCode.INVALID_SCHEDULE, "this store was opened without a cron parser: "
                + expression);
    };

    private ScheduleRules() {
    }

    /** A schedule id: the timer id characters, 1 to {@value Limits#MAX_SCHEDULE_ID_LENGTH} long. */
    public static void requireValidScheduleId(String id) {
        if (id != null && id.length() > Limits.MAX_SCHEDULE_ID_LENGTH) {
            throw new ProblemException(ErrorCode.INVALID_ID, "a schedule id must be 1 to "
                    + Limits.MAX_SCHEDULE_ID_LENGTH + " characters long, got " + id.length());
        }
        TimerRules.requireValidId(id);
    }

    /**
     * Checks a schedule's form and compiles its times: exactly one of cron and every, start and end clock times
     * (0 to {@link Limits#MAX_TIME}), every at least {@value Limits#MIN_EVERY_MILLIS} ms, a zone only with cron and a
     * known IANA one, end not before start, a
     * positive limit, a cron that parses and fires at least once. Call with the spec as given, before
     * {@link #resolveSchedule}.
     *
     * @throws ProblemException {@code invalid_schedule} naming what is wrong
     */
    public static Recurrence requireSchedule(ScheduleSpec spec, CronParser parser) {
        return requireSchedule(spec, parser, (member, message) -> invalidSchedule(message));
    }

    /**
     * {@link #requireSchedule(ScheduleSpec, CronParser)} with each refusal made by {@code refusal} from the name of
     * the spec's member it refuses ({@code cron}, {@code every}, {@code zone}, {@code start}, {@code end},
     * {@code limit}, or the
     * empty name for the spec as a whole) and its message: a snapshot document names the member's JSON pointer.
     */
    public static Recurrence requireSchedule(ScheduleSpec spec, CronParser parser,
                                             BiFunction<String, String, ProblemException> refusal) {
        if ((spec.cron() == null) == (spec.every() == null)) {
            throw refusal.apply(spec.cron() == null ? "" : "every", "a schedule needs exactly one of cron and every");
        }
        try {
            TimerRules.requireValidKey(spec.key());
        } catch (ProblemException badKey) {
            throw refusal.apply("key", badKey.getMessage());
        }
        if (spec.start() != null && (spec.start() < 0 || spec.start() > Limits.MAX_TIME)) {
            throw refusal.apply("start", "start must be between 0 and " + Limits.MAX_TIME + ": " + spec.start());
        }
        if (spec.end() != null && (spec.end() < 0 || spec.end() > Limits.MAX_TIME)) {
            throw refusal.apply("end", "end must be between 0 and " + Limits.MAX_TIME + ": " + spec.end());
        }
        if (spec.end() != null && spec.start() != null && spec.end() < spec.start()) {
            throw refusal.apply("end", "end (" + spec.end() + ") is before start (" + spec.start() + ")");
        }
        if (spec.limit() != null && spec.limit() < 1) {
            throw refusal.apply("limit", "limit must be at least 1: " + spec.limit());
        }
        if (spec.every() != null) {
            if (spec.zone() != null) {
                throw refusal.apply("zone", "zone applies to cron only; an every schedule counts milliseconds");
            }
            if (spec.every() < Limits.MIN_EVERY_MILLIS || spec.every() > Limits.MAX_DELAY) {
                throw refusal.apply("every", "every must be " + Limits.MIN_EVERY_MILLIS + " to " + Limits.MAX_DELAY
                        + " ms: " + spec.every());
            }
            return null;
        }
        ZoneId zone = IanaZones.zoneOf(spec.zoneOrUtc());
        if (zone == null) {
            throw refusal.apply("zone", IanaZones.refusal(TimerRules.abbreviate(spec.zone())));
        }
        LocalRecurrence local;
        try {
            local = parser.parse(spec.cron());
        } catch (ProblemException malformed) {
            throw refusal.apply("cron", malformed.getMessage());
        }
        Recurrence times = new ZonedRecurrence(local, zone);
        // a cron's matches repeat with the calendar, so one that fires at all fires after any time
        if (times.nextAfter(0) == Recurrence.NONE) {
            throw refusal.apply("cron", "cron " + spec.cron() + " never fires");
        }
        return times;
    }

    /**
     * The spec a store keeps, given the clock's {@code now}: an interval schedule without start starts at
     * {@code now + every}, saturated at the end of time ({@link TimeRules#saturatedAdd}).
     */
    public static ScheduleSpec resolveSchedule(ScheduleSpec spec, long now) {
        if (spec.every() != null && spec.start() == null) {
            return spec.withStart(TimeRules.saturatedAdd(now, spec.every()));
        }
        return spec;
    }

    /** The raw times of a resolved spec: its cron in its zone, or {@code start + k * every}. */
    public static Recurrence recurrenceOf(ScheduleSpec resolved, CronParser parser) {
        return resolved.every() != null ? Recurrence.every(resolved.start(), resolved.every())
                : new ZonedRecurrence(parser.parse(resolved.cron()), IanaZones.zoneOf(resolved.zoneOrUtc()));
    }

    /** Refuses a new schedule when the store holds {@code count} of its most {@code maxSchedules}. */
    public static void requireScheduleRoom(long count, long maxSchedules) {
        if (count >= maxSchedules) {
            throw new ProblemException(ErrorCode.SCHEDULE_LIMIT, "the service holds its limit of " + maxSchedules
                    + " schedules (timeservice.schedules.max); delete one first");
        }
    }

    /** Refuses a {@code next} count outside 1..{@value Limits#MAX_NEXT_COUNT}: {@code invalid_limit}. */
    public static void requireNextCount(int count) {
        if (count < 1 || count > Limits.MAX_NEXT_COUNT) {
            throw new ProblemException(ErrorCode.INVALID_LIMIT, "count must be 1 to " + Limits.MAX_NEXT_COUNT
                    + ": " + count);
        }
    }

    public static ProblemException scheduleNotFound(String id) {
        return new ProblemException(ErrorCode.SCHEDULE_NOT_FOUND, "no schedule " + TimerRules.abbreviate(id)
                + " on this clock");
    }

    /** The refusal of a timer-API change to a schedule's occurrence. */
    public static ProblemException scheduleOwned(String timerId, String scheduleId) {
        return new ProblemException(ErrorCode.SCHEDULE_OWNED, "timer " + TimerRules.abbreviate(timerId)
                + " is an occurrence of schedule " + scheduleId + "; change the schedule instead");
    }

    /**
     * The schedule whose occurrence ids have the form of {@code timerId} ({@code <schedule id>:<digits>}, the digits
     * an optional minus and at most 19 digits, as {@link Schedule#occurrenceId} writes a time), or null for an id of
     * no such form. While that schedule exists on a clock the id is its own: a client may not add a timer with it.
     */
    public static String occurrenceFormOwner(String timerId) {
        int colon = timerId == null ? -1 : timerId.lastIndexOf(':');
        if (colon < 1 || colon > Limits.MAX_SCHEDULE_ID_LENGTH) {
            return null;
        }
        int first = colon + 1 < timerId.length() && timerId.charAt(colon + 1) == '-' ? colon + 2 : colon + 1;
        int digits = timerId.length() - first;
        if (digits < 1 || digits > 19) {
            return null;
        }
        for (int i = first; i < timerId.length(); i++) {
            char c = timerId.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return timerId.substring(0, colon);
    }

    /** The refusal of a client's add of a timer id of the form of schedule {@code scheduleId}'s occurrences. */
    public static ProblemException scheduleReserved(String timerId, String scheduleId) {
        return new ProblemException(ErrorCode.SCHEDULE_OWNED, "timer id " + TimerRules.abbreviate(timerId)
                + " has the form of schedule " + scheduleId + "'s occurrences (" + scheduleId + ":<time>), which are"
                + " the schedule's while it exists; choose another id");
    }

    /**
     * The refusal of a schedule's occurrence (its first, or the one a replace or a trigger adds) whose id
     * {@code timerId} a pending timer has already.
     */
    public static ProblemException occurrenceIdTaken(String timerId) {
        return new ProblemException(ErrorCode.DUPLICATE_ID, "a pending timer already has id " + timerId
                + ", the schedule's occurrence");
    }

    public static ProblemException schedulePreconditionFailed(Schedule current) {
        return new ProblemException(ErrorCode.PRECONDITION_FAILED, "schedule " + current.id()
                + " is at version " + current.version() + ", which the precondition does not name");
    }

    /** The refusal of a put whose If-Match names {@code ifMatch} of schedule {@code id}, which does not exist. */
    public static ProblemException noScheduleToMatch(String id, long ifMatch) {
        return new ProblemException(ErrorCode.PRECONDITION_FAILED, "If-Match names version " + ifMatch
                + " of schedule " + id + ", which does not exist");
    }

    private static ProblemException invalidSchedule(String message) {
        return new ProblemException(ErrorCode.INVALID_SCHEDULE, message);
    }
}
