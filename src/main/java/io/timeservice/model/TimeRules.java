package io.timeservice.model;

import java.time.OffsetDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;

/**
 * The rulebook's times: a clock time read from RFC 3339, a time a delay or an {@code at} names, the time an advance
 * goes to, and a deadline the service computes, each kept within 0..{@link Limits#MAX_TIME} and at most
 * {@link Limits#MAX_DELAY} ahead of the clock's now. Both stores and the web layer call these.
 */
public final class TimeRules {

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

    /** What a member naming a clock time (a timer's {@code at}) must be, as refusals say it. */
    public static final String CLOCK_TIME_FORM = "a JSON integer of clock milliseconds (Unix epoch) or an RFC 3339"
            + " date-time string with an offset, as \"2027-03-28T03:30:00+02:00\"";

    private TimeRules() {
    }

    /**
     * {@code now + delay}, refused with {@code code} when the delay is out of range or the sum passes the end of time
     * ({@link Limits#MAX_TIME}).
     */
    public static long fireTimeAfter(long now, long delay, ErrorCode code, String name) {
        if (delay < 0 || delay > Limits.MAX_DELAY) {
            throw new ProblemException(code, name + " must be between 0 and " + Limits.MAX_DELAY + ": " + delay);
        }
        if (now > Limits.MAX_TIME - delay) {
            throw new ProblemException(code, "now (" + now + ") + " + name + " (" + delay + ") passes the end of"
                    + " time, " + Limits.MAX_TIME);
        }
        return now + delay;
    }

    /**
     * {@code to} as a virtual clock's new time: not before {@code now}, at most {@link Limits#MAX_DELAY} after it and
     * not past the end of time; else {@code invalid_advance}.
     */
    public static long advanceTarget(long now, long to) {
        if (to < now) {
            throw new ProblemException(ErrorCode.INVALID_ADVANCE, "to (" + to + ") is before now (" + now
                    + "); the clock never goes back");
        }
        return requireWithinReach(now, to, "to", ErrorCode.INVALID_ADVANCE);
    }

    /**
     * The fireTime of a timer due {@code due}, the clock's time being {@code now}: {@code now + delay}, or the
     * {@code at} time, raised to now when it lies before now. Either is refused with {@code invalid_delay} when it
     * lies more than {@link Limits#MAX_DELAY} after now or after the end of time ({@link Limits#MAX_TIME}).
     */
    public static long fireTime(long now, Due due) {
        if (due instanceof Due.After after) {
            return fireTimeAfter(now, after.delay(), ErrorCode.INVALID_DELAY, "delay");
        }
        long at = ((Due.At) due).time();
        return at <= now ? now : requireWithinReach(now, at, "at", ErrorCode.INVALID_DELAY);
    }

    /**
     * {@code time}, a time the client named for {@code member} that is not before {@code now}: refused with
     * {@code code} when it lies more than {@link Limits#MAX_DELAY} after now or after the end of time.
     */
    private static long requireWithinReach(long now, long time, String member, ErrorCode code) {
        if (time - now > Limits.MAX_DELAY) { // time >= now >= 0: the difference cannot overflow
            throw new ProblemException(code, member + " (" + time + ") is more than " + Limits.MAX_DELAY
                    + " ms after now (" + now + ")");
        }
        if (time > Limits.MAX_TIME) {
            throw new ProblemException(code, member + " (" + time + ") is after the end of time, "
                    + Limits.MAX_TIME);
        }
        return time;
    }

    /**
     * The clock time (Unix epoch milliseconds) an RFC 3339 date-time names, fractions of a second below the
     * millisecond cut off (toward the past), a fraction of any length read. Refused with {@code invalid_delay} naming
     * {@code member} when the text is not such a date-time (no offset, no seconds, a day the month lacks, ...).
     */
    public static long clockTimeOf(String text, String member) {
        try {
            return OffsetDateTime.parse(withNineFractionDigits(text), RFC_3339).toInstant().toEpochMilli();
        } catch (DateTimeParseException malformed) {
            throw invalidClockTime(member, "\"" + TimerRules.abbreviate(text) + "\"");
        }
    }

    /**
     * {@code text} with the digits of its fraction past the ninth dropped: RFC 3339 allows any number, java.time
     * reads nine, and every digit past the third is cut off anyway.
     */
    private static String withNineFractionDigits(String text) {
        int point = "yyyy-mm-ddThh:mm:ss".length();
        int digits = 0;
        if (text.length() > point && text.charAt(point) == '.') {
            while (point + 1 + digits < text.length() && text.charAt(point + 1 + digits) >= '0'
                    && text.charAt(point + 1 + digits) <= '9') {
                digits++;
            }
        }
        return digits <= 9 ? text : text.substring(0, point + 10) + text.substring(point + 1 + digits);
    }

    /** The refusal of a clock-time member that holds {@code got}: {@code invalid_delay}, as its sibling delay's. */
    public static ProblemException invalidClockTime(String member, String got) {
        return new ProblemException(ErrorCode.INVALID_DELAY, member + " must be " + CLOCK_TIME_FORM + ", got " + got);
    }

    /**
     * {@code time + millis}, or the end of time ({@link Limits#MAX_TIME}) when the sum would pass it: a lease end,
     * retry time or other deadline the service computes never lies past the latest time a clock can show, so a clock
     * that reaches the end of time sees it come, {@code advance {"next": true}} finds it, and a saved document holds
     * it. {@code millis} must not be negative; a {@code time} past the end of time (none the service makes) stays.
     */
    public static long saturatedAdd(long time, long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("millis must be >= 0: " + millis);
        }
        return time > Limits.MAX_TIME - millis ? Math.max(time, Limits.MAX_TIME) : time + millis;
    }
}
