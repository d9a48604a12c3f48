package io.timeservice.model;

import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The one source of every refusal that does not depend on a store's state: both stores and the web layer call
 * these, so a bad id, delay, lease or batch is refused with the same code and text whichever store answers. Each
 * needs no lock; each message names the offending value.
 */
public final class Rules {

    /**
     * RFC 3339's date-time, strictly: a four-digit year, seconds, an optional fraction, and an offset ({@code Z} or
     * {@code +hh:mm}); {@code T} and {@code Z} in either case, as the RFC allows. A leap second (:60) and an offset
     * beyond java.time's ±18:00 are refused. Four-digit years keep every instant within a long of milliseconds.
     */
    private static final DateTimeFormatter RFC_3339 = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendValue(ChronoField.YEAR, 4).appendLiteral('-')
            .appendValue(ChronoField.MONTH_OF_YEAR, 2).appendLiteral('-')
            .appendValue(ChronoField.DAY_OF_MONTH, 2).appendLiteral('T')
            .appendValue(ChronoField.HOUR_OF_DAY, 2).appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2).appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
            .appendOffset("+HH:MM", "Z")
            .toFormatter()
            .withResolverStyle(ResolverStyle.STRICT)
            .withChronology(IsoChronology.INSTANCE);

    private Rules() {
    }

    /** Validates an id's form. */
    public static void requireValidId(String id) {
        if (id == null || id.isEmpty() || id.length() > Limits.MAX_ID_LENGTH) {
            throw new SchedulerException(ErrorCode.INVALID_ID, "id must be 1 to " + Limits.MAX_ID_LENGTH
                    + " characters long" + (id == null ? "" : ", got " + id.length()));
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-' || c == '~' || c == ':';
            if (!allowed) {
                throw new SchedulerException(ErrorCode.INVALID_ID, "id may contain only A-Z a-z 0-9 . _ - ~ :"
                        + ", found U+" + String.format("%04X", (int) c) + " at position " + i);
            }
        }
        if (id.equals(".") || id.equals("..")) {
            // dot-segments: a URL path normalizes /timers/.. away, so such a timer could never be read or changed
            throw new SchedulerException(ErrorCode.INVALID_ID, "id may not be \"" + id
                    + "\": a URL path segment cannot carry it as itself");
        }
    }

    /** A clock name follows the id rules, 1 to {@value Limits#MAX_CLOCK_NAME_LENGTH} characters. */
    public static void requireValidClockName(String name) {
        if (name != null && name.length() > Limits.MAX_CLOCK_NAME_LENGTH) {
            throw new SchedulerException(ErrorCode.INVALID_ID, "a clock name must be 1 to "
                    + Limits.MAX_CLOCK_NAME_LENGTH + " characters long, got " + name.length());
        }
        requireValidId(name);
    }

    /** Refuses a new clock when the store holds {@code count} of its most {@code maxClocks}. */
    public static void requireClockRoom(int count, int maxClocks) {
        if (count >= maxClocks) {
            throw new SchedulerException(ErrorCode.CLOCK_LIMIT, "the service holds its limit of " + maxClocks
                    + " clocks (timeservice.clocks.max); delete one first");
        }
    }

    /** The refusal of a copy ({@code copyOf}) under a name a clock has already. */
    public static SchedulerException copyNameTaken(String name, String source) {
        return new SchedulerException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists; a copy of "
                + abbreviateClockName(source) + " needs a new name");
    }

    /** The id cut to the longest valid length, never between the halves of a surrogate pair. */
    public static String abbreviate(String id) {
        if (id == null || id.length() <= Limits.MAX_ID_LENGTH) {
            return String.valueOf(id);
        }
        int end = Character.isHighSurrogate(id.charAt(Limits.MAX_ID_LENGTH - 1))
                ? Limits.MAX_ID_LENGTH - 1 : Limits.MAX_ID_LENGTH;
        return id.substring(0, end) + "...";
    }

    /** A clock name cut to the longest valid length, for messages about a name that is not there. */
    public static String abbreviateClockName(String name) {
        return name == null || name.length() <= Limits.MAX_CLOCK_NAME_LENGTH ? String.valueOf(name)
                : name.substring(0, Limits.MAX_CLOCK_NAME_LENGTH) + "...";
    }

    /** {@code now + delay}, refused with {@code code} when the delay is out of range or the sum overflows. */
    public static long fireTimeAfter(long now, long delay, ErrorCode code, String name) {
        if (delay < 0 || delay > Limits.MAX_DELAY) {
            throw new SchedulerException(code, name + " must be between 0 and " + Limits.MAX_DELAY + ": " + delay);
        }
        if (now > Long.MAX_VALUE - delay) {
            throw new SchedulerException(code, "now (" + now + ") + " + name + " (" + delay
                    + ") does not fit a signed 64-bit integer");
        }
        return now + delay;
    }

    /**
     * The fireTime of a timer due {@code due}, the clock's time being {@code now}: {@code now + delay}, or the
     * {@code at} time, raised to now when it lies before now. Either is refused with {@code invalid_delay} when it
     * lies more than {@link Limits#MAX_DELAY} after now.
     */
    public static long fireTime(long now, Due due) {
        if (due instanceof Due.After after) {
            return fireTimeAfter(now, after.delay(), ErrorCode.INVALID_DELAY, "delay");
        }
        long at = ((Due.At) due).time();
        if (at <= now) {
            return now;
        }
        if (at - now > Limits.MAX_DELAY) { // at > now >= 0: the difference cannot overflow
            throw new SchedulerException(ErrorCode.INVALID_DELAY, "at (" + at + ") is more than " + Limits.MAX_DELAY
                    + " ms after now (" + now + ")");
        }
        return at;
    }

    /**
     * The due time of a new timer from its two members, of which exactly one is given ({@code invalid_request}
     * otherwise).
     */
    public static Due requireDue(Long delay, Long at) {
        if ((delay == null) == (at == null)) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a timer needs exactly one of delay and at, got "
                    + (delay == null ? "neither" : "both"));
        }
        return delay != null ? Due.after(delay) : Due.at(at);
    }

    /** The new due time of an edit: at most one of the two members, null for neither (the fireTime stays). */
    public static Due editedDue(Long delay, Long at) {
        if (delay != null && at != null) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "an edit takes at most one of delay and at,"
                    + " got both");
        }
        return delay != null ? Due.after(delay) : at != null ? Due.at(at) : null;
    }

    /** Refuses an edit that changes nothing: {@code invalid_request}. */
    public static void requireEditChange(Due newDue, Integer newPriority) {
        if (newDue == null && newPriority == null) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "an edit needs a delay or an at, a priority,"
                    + " or both");
        }
    }

    /** What a member naming a clock time (a timer's {@code at}) must be, as refusals say it. */
    public static final String CLOCK_TIME_FORM = "a JSON integer of clock milliseconds (Unix epoch) or an RFC 3339"
            + " date-time string with an offset, as \"2027-03-28T03:30:00+02:00\"";

    /**
     * The clock time (Unix epoch milliseconds) an RFC 3339 date-time names, fractions of a second below the
     * millisecond cut off. Refused with {@code invalid_delay} naming {@code member} when the text is not such a
     * date-time (no offset, no seconds, a day the month lacks, ...).
     */
    public static long clockTimeOf(String text, String member) {
        try {
            return OffsetDateTime.parse(text, RFC_3339).toInstant().toEpochMilli();
        } catch (DateTimeParseException malformed) {
            throw invalidClockTime(member, "\"" + abbreviate(text) + "\"");
        }
    }

    /** The refusal of a clock-time member that holds {@code got}: {@code invalid_delay}, as its sibling delay's. */
    public static SchedulerException invalidClockTime(String member, String got) {
        return new SchedulerException(ErrorCode.INVALID_DELAY, member + " must be " + CLOCK_TIME_FORM + ", got " + got);
    }

    /**
     * {@code time + millis}, or {@link Long#MAX_VALUE} when the sum would pass it: a lease end, retry time or other
     * deadline that lies beyond the largest time a clock can show never wraps into the past. A clock that reaches
     * {@link Long#MAX_VALUE} sees such a deadline as come. {@code millis} must not be negative.
     */
    public static long saturatedAdd(long time, long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("millis must be >= 0: " + millis);
        }
        return time > Long.MAX_VALUE - millis ? Long.MAX_VALUE : time + millis;
    }

    public static SchedulerException preconditionFailed(Timer current) {
        return new SchedulerException(ErrorCode.PRECONDITION_FAILED, "timer " + current.id()
                + " is at revision " + current.sequence() + "-" + current.version()
                + ", which the precondition does not name");
    }

    /** Versions count in an int: an edit past {@link Timer#MAX_VERSION} is refused, never wrapped. */
    public static void requireVersionLeft(Timer current) {
        if (current.version() >= Timer.MAX_VERSION) {
            throw new SchedulerException(ErrorCode.VERSION_LIMIT_REACHED, "timer " + current.id() + " is at version "
                    + current.version() + ", the most a timer can count; cancel it and add it again to change it");
        }
    }

    /** Refuses a batch that is empty or longer than {@link Limits#MAX_BATCH_OPS}: {@code invalid_request}. */
    public static void requireBatchSize(List<?> ops) {
        if (ops == null || ops.isEmpty() || ops.size() > Limits.MAX_BATCH_OPS) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a batch holds 1 to " + Limits.MAX_BATCH_OPS
                    + " operations, got " + (ops == null ? 0 : ops.size()));
        }
    }

    /** Refuses a batch of acks that is empty or larger than one claim: {@code invalid_request}. */
    public static void requireAckCount(List<Ack> acks) {
        if (acks == null || acks.isEmpty() || acks.size() > Limits.MAX_CLAIM) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "one call acknowledges 1 to " + Limits.MAX_CLAIM
                    + " deliveries, got " + (acks == null ? 0 : acks.size()));
        }
    }

    /**
     * Refuses a claim's arguments, in this order: {@code max} outside 1..{@value Limits#MAX_CLAIM} with
     * {@code invalid_limit}, then a lease or a wait out of range with {@code invalid_request}.
     */
    public static void requireClaim(int max, long leaseMillis, long waitMillis) {
        if (max < 1 || max > Limits.MAX_CLAIM) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "max must be 1 to " + Limits.MAX_CLAIM + ": " + max);
        }
        requireLease(leaseMillis);
        if (waitMillis < 0 || waitMillis > Limits.MAX_CLAIM_WAIT_MILLIS) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "wait must be 0 to "
                    + Limits.MAX_CLAIM_WAIT_MILLIS + " ms: " + waitMillis);
        }
    }

    /** Refuses a lease outside {@value Limits#MIN_LEASE_MILLIS}..{@value Limits#MAX_LEASE_MILLIS} ms. */
    public static void requireLease(long leaseMillis) {
        if (leaseMillis < Limits.MIN_LEASE_MILLIS || leaseMillis > Limits.MAX_LEASE_MILLIS) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "lease must be " + Limits.MIN_LEASE_MILLIS
                    + " to " + Limits.MAX_LEASE_MILLIS + " ms: " + leaseMillis);
        }
    }

    /** A schedule id: the timer id characters, 1 to {@value Limits#MAX_SCHEDULE_ID_LENGTH} long. */
    public static void requireValidScheduleId(String id) {
        if (id != null && id.length() > Limits.MAX_SCHEDULE_ID_LENGTH) {
            throw new SchedulerException(ErrorCode.INVALID_ID, "a schedule id must be 1 to "
                    + Limits.MAX_SCHEDULE_ID_LENGTH + " characters long, got " + id.length());
        }
        requireValidId(id);
    }

    /**
     * Checks a schedule's form and compiles its times: exactly one of cron and every, every at least
     * {@value Limits#MIN_EVERY_MILLIS} ms, a zone only with cron and a known IANA one, end not before start, a
     * positive limit, a cron that parses and fires at least once. Call with the spec as given, before
     * {@link #resolveSchedule}.
     *
     * @throws SchedulerException {@code invalid_schedule} naming what is wrong
     */
    public static Recurrence requireSchedule(ScheduleSpec spec, CronParser parser) {
        return requireSchedule(spec, parser, (member, message) -> invalidSchedule(message));
    }

    /**
     * {@link #requireSchedule(ScheduleSpec, CronParser)} with each refusal made by {@code refusal} from the name of
     * the spec's member it refuses ({@code cron}, {@code every}, {@code zone}, {@code end}, {@code limit}, or the
     * empty name for the spec as a whole) and its message: a snapshot document names the member's JSON pointer.
     */
    public static Recurrence requireSchedule(ScheduleSpec spec, CronParser parser,
                                             BiFunction<String, String, SchedulerException> refusal) {
        if ((spec.cron() == null) == (spec.every() == null)) {
            throw refusal.apply(spec.cron() == null ? "" : "every", "a schedule needs exactly one of cron and every");
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
        ZoneId zone;
        try {
            zone = ZoneId.of(spec.zoneOrUtc());
        } catch (DateTimeException unknown) {
            throw refusal.apply("zone", "zone must be an IANA time zone name such as Europe/Berlin: "
                    + abbreviate(spec.zone()));
        }
        LocalRecurrence local;
        try {
            local = parser.parse(spec.cron());
        } catch (SchedulerException malformed) {
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
     * {@code now + every}.
     */
    public static ScheduleSpec resolveSchedule(ScheduleSpec spec, long now) {
        if (spec.every() != null && spec.start() == null) {
            return spec.withStart(saturatedAdd(now, spec.every()));
        }
        return spec;
    }

    /** The raw times of a resolved spec: its cron in its zone, or {@code start + k * every}. */
    public static Recurrence recurrenceOf(ScheduleSpec resolved, CronParser parser) {
        return resolved.every() != null ? Recurrence.every(resolved.start(), resolved.every())
                : new ZonedRecurrence(parser.parse(resolved.cron()), ZoneId.of(resolved.zoneOrUtc()));
    }

    /** Refuses a new schedule when the store holds {@code count} of its most {@code maxSchedules}. */
    public static void requireScheduleRoom(long count, long maxSchedules) {
        if (count >= maxSchedules) {
            throw new SchedulerException(ErrorCode.SCHEDULE_LIMIT, "the service holds its limit of " + maxSchedules
                    + " schedules (timeservice.schedules.max); delete one first");
        }
    }

    /**
     * The refusal of an advance of a queueing virtual clock that stands at {@code now} already while timers are due
     * and the deliveries hold their limit of {@code maxDeliveries}: nothing to change.
     */
    public static SchedulerException deliveriesHeldBack(long now, long maxDeliveries) {
        return new SchedulerException(ErrorCode.CAPACITY_EXCEEDED, "timers are due by " + now + " and the"
                + " deliveries hold their limit of " + maxDeliveries + " (timeservice.deliveries.max); acknowledge"
                + " or delete some before advancing further");
    }

    /** The refusal of a copy of a clock (a fork, a load) whose {@code copyDeliveries} the delivery limit has no room for. */
    public static SchedulerException noDeliveryRoomForCopy(long maxDeliveries, long copyDeliveries) {
        return new SchedulerException(ErrorCode.CAPACITY_EXCEEDED, "the limit of " + maxDeliveries
                + " deliveries has no room for a copy of " + copyDeliveries);
    }

    /** Refuses a {@code next} count outside 1..{@value Limits#MAX_NEXT_COUNT}: {@code invalid_limit}. */
    public static void requireNextCount(int count) {
        if (count < 1 || count > Limits.MAX_NEXT_COUNT) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "count must be 1 to " + Limits.MAX_NEXT_COUNT
                    + ": " + count);
        }
    }

    public static SchedulerException scheduleNotFound(String id) {
        return new SchedulerException(ErrorCode.SCHEDULE_NOT_FOUND, "no schedule " + abbreviate(id) + " on this clock");
    }

    /** The refusal of a timer-API change to a schedule's occurrence. */
    public static SchedulerException scheduleOwned(String timerId, String scheduleId) {
        return new SchedulerException(ErrorCode.SCHEDULE_OWNED, "timer " + abbreviate(timerId)
                + " is an occurrence of schedule " + scheduleId + "; change the schedule instead");
    }

    public static SchedulerException schedulePreconditionFailed(Schedule current) {
        return new SchedulerException(ErrorCode.PRECONDITION_FAILED, "schedule " + current.id()
                + " is at version " + current.version() + ", which the precondition does not name");
    }

    private static SchedulerException invalidSchedule(String message) {
        return new SchedulerException(ErrorCode.INVALID_SCHEDULE, message);
    }

    /** The longest reason a delivery sent to the dead letters at once may give. */
    public static final int MAX_DEAD_REASON_LENGTH = 256;

    /** @throws SchedulerException {@code invalid_request} for no reason or one over {@value #MAX_DEAD_REASON_LENGTH} characters */
    public static void requireDeadReason(String reason) {
        if (reason == null || reason.isEmpty() || reason.length() > MAX_DEAD_REASON_LENGTH) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a dead delivery's reason must be 1 to "
                    + MAX_DEAD_REASON_LENGTH + " characters");
        }
    }

    /** The refusal of an advance on a clock that fires by itself ({@code mode} system or scaled). */
    public static SchedulerException clockNotVirtual(ClockSettings.Mode mode) {
        return new SchedulerException(ErrorCode.CLOCK_NOT_VIRTUAL, "this clock runs on the "
                + (mode == ClockSettings.Mode.SCALED ? "wall clock scaled by its rate" : "system clock")
                + " and fires by itself; only a virtual clock can be advanced");
    }

    /** The refusal of an ack, nack, extend or reject whose claim holds no lease on a delivery of {@code id}. */
    public static SchedulerException claimLost(String id) {
        return new SchedulerException(ErrorCode.CLAIM_LOST, "the claim does not hold a lease on a delivery of "
                + abbreviate(id) + " (wrong or expired; the delivery may have gone to another worker)");
    }

    /** The refusal of a redrive or deletion of dead deliveries of {@code id} (and {@code sequence}, if given). */
    public static SchedulerException deadDeliveryNotFound(String id, Long sequence) {
        return new SchedulerException(ErrorCode.DELIVERY_NOT_FOUND, "no dead delivery has id " + abbreviate(id)
                + (sequence == null ? "" : " and sequence " + sequence));
    }

    /** The refusal of a delivery call on a clock that returns fired timers from advance (delivery "response"). */
    public static SchedulerException clockNotQueued() {
        return new SchedulerException(ErrorCode.CLOCK_NOT_QUEUED, "this clock returns fired timers from advance"
                + " (delivery \"response\"); create a clock with delivery \"queue\" to claim deliveries");
    }

    /**
     * The refusal of a create of the existing clock {@code name} with other settings or another now (a system
     * clock's now is the store's clock, so only its settings count).
     */
    public static SchedulerException clockConflict(String name, ClockSettings existing, long existingNow,
                                                   ClockSettings asked, long askedNow) {
        if (!existing.equals(asked)) {
            return new SchedulerException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists with other settings: "
                    + describe(existing));
        }
        return new SchedulerException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists, created at now="
                + existingNow + ", not " + askedNow);
    }

    private static String describe(ClockSettings settings) {
        return "mode " + settings.mode().name().toLowerCase(java.util.Locale.ROOT)
                + (settings.rate() == null ? "" : " at rate " + settings.rate().millionths() + " millionths")
                + ", delivery " + settings.delivery().name().toLowerCase(java.util.Locale.ROOT) + ", "
                + settings.retry() + (settings.push() == null ? "" : ", " + settings.push());
    }

    /**
     * The refusal of a copy of a clock (a fork, a load) of {@code count} timers and deliveries holding {@code bytes}
     * that the capacity ({@code capacity} timers, {@code capacityBytes} bytes) has no room for: the timers first.
     */
    public static SchedulerException noRoomForCopy(long capacity, long count, long capacityBytes, long bytes,
                                                   boolean timersExceed) {
        return new SchedulerException(ErrorCode.CAPACITY_EXCEEDED, timersExceed
                ? "the queue's capacity of " + capacity + " pending timers has no room for a copy of " + count
                : "the queue's " + capacityBytes + " payload bytes have no room for a copy of " + bytes);
    }
}
