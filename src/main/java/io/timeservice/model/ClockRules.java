package io.timeservice.model;

import java.util.Locale;

/**
 * The rulebook's clocks: a name's form, the clock limit, a create that conflicts, a copy or load under a taken name or
 * without room, the default clock that stays, an advance's form and the clocks that cannot be advanced or re-rated.
 * Both stores call these, so a clock call is refused with the same code and text whichever store answers.
 */
public final class ClockRules {

    private ClockRules() {
    }

    /** A clock name follows the id rules, 1 to {@value Limits#MAX_CLOCK_NAME_LENGTH} characters. */
    public static void requireValidClockName(String name) {
        if (name != null && name.length() > Limits.MAX_CLOCK_NAME_LENGTH) {
            throw new ProblemException(ErrorCode.INVALID_ID, "a clock name must be 1 to "
                    + Limits.MAX_CLOCK_NAME_LENGTH + " characters long, got " + name.length());
        }
        TimerRules.requireValidId(name);
    }

    /** A clock's dedupe window is 0 (none) to {@link Limits#MAX_DEDUPE_WINDOW} milliseconds: {@code invalid_request}. */
    public static void requireDedupeWindow(long windowMillis) {
        if (windowMillis < 0 || windowMillis > Limits.MAX_DEDUPE_WINDOW) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "dedupeWindow must be 0 to "
                    + Limits.MAX_DEDUPE_WINDOW + " milliseconds (30 days), got " + windowMillis);
        }
    }

    /** A clock name cut to the longest valid length, for messages about a name that is not there. */
    public static String abbreviateClockName(String name) {
        return name == null || name.length() <= Limits.MAX_CLOCK_NAME_LENGTH ? String.valueOf(name)
                : name.substring(0, Limits.MAX_CLOCK_NAME_LENGTH) + "...";
    }

    /** The refusal of a call on a clock {@code name} that does not exist (a malformed name names none either). */
    public static ProblemException clockNotFound(String name) {
        return new ProblemException(ErrorCode.CLOCK_NOT_FOUND, "no clock is named " + abbreviateClockName(name));
    }

    /** The refusal of a call that reached clock {@code name} as it was being deleted. */
    public static ProblemException clockDeleted(String name) {
        return new ProblemException(ErrorCode.CLOCK_NOT_FOUND, "clock " + abbreviateClockName(name)
                + " was deleted");
    }

    /** The refusal of a deletion of the default clock. */
    public static ProblemException defaultClockUndeletable() {
        return new ProblemException(ErrorCode.CLOCK_UNDELETABLE, "the clock " + Limits.DEFAULT_CLOCK
                + " always exists and cannot be deleted");
    }

    /** Refuses a new clock when the store holds {@code count} of its most {@code maxClocks}. */
    public static void requireClockRoom(int count, int maxClocks) {
        if (count >= maxClocks) {
            throw new ProblemException(ErrorCode.CLOCK_LIMIT, "the service holds its limit of " + maxClocks
                    + " clocks (timeservice.clocks.max); delete one first");
        }
    }

    /**
     * Refuses a clock time a client names for a clock's {@code now} outside 0..{@link Limits#MAX_TIME}:
     * {@code invalid_request}.
     */
    public static void requireClockNow(long now) {
        if (now < 0 || now > Limits.MAX_TIME) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "now must be between 0 and " + Limits.MAX_TIME
                    + ": " + now);
        }
    }

    /**
     * The refusal of a system clock created at a {@code now} other than 0 (its time is the store's clock), where the
     * store refuses it rather than ignoring it.
     */
    public static ProblemException systemClockNow(long now) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, "a system clock's now is the database's clock,"
                + " not " + now);
    }

    /** The refusal of a copy ({@code copyOf}) under a name a clock has already. */
    public static ProblemException copyNameTaken(String name, String source) {
        return new ProblemException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists; a copy of "
                + abbreviateClockName(source) + " needs a new name");
    }

    /** The refusal of a load of a saved clock under a name a clock has already. */
    public static ProblemException loadNameTaken(String name) {
        return new ProblemException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists; a snapshot loads"
                + " into a new name");
    }

    /**
     * The refusal of a create of the existing clock {@code name} with other settings or another now (a system
     * clock's now is the store's clock, so only its settings count).
     */
    public static ProblemException clockConflict(String name, ClockSettings existing, long existingNow,
                                                   ClockSettings asked, long askedNow) {
        if (!existing.equals(asked)) {
            return new ProblemException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists with other settings: "
                    + describe(existing));
        }
        return new ProblemException(ErrorCode.CLOCK_CONFLICT, "clock " + name + " exists, created at now="
                + existingNow + ", not " + askedNow);
    }

    private static String describe(ClockSettings settings) {
        return "mode " + lowerCase(settings.mode())
                + (settings.rate() == null ? "" : " at rate " + settings.rate().millionths() + " millionths")
                + ", delivery " + lowerCase(settings.delivery()) + ", "
                + settings.retry() + (settings.push() == null ? "" : ", " + settings.push());
    }

    private static String lowerCase(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** Refuses an advance that names neither or both of {@code by} and {@code to}: {@code invalid_request}. */
    public static void requireAdvanceForm(Long by, Long to) {
        if ((by == null) == (to == null)) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "an advance needs exactly one of by and to");
        }
    }

    /** The refusal of an advance on a clock that fires by itself ({@code mode} system or scaled). */
    public static ProblemException clockNotVirtual(ClockSettings.Mode mode) {
        return new ProblemException(ErrorCode.CLOCK_NOT_VIRTUAL, "this clock runs on the "
                + (mode == ClockSettings.Mode.SCALED ? "wall clock scaled by its rate" : "system clock")
                + " and fires by itself; only a virtual clock can be advanced");
    }

    /**
     * The refusal of a traced advance to {@code to} that would fire more than {@link Limits#MAX_TRACED_FIRES}
     * timers: {@code invalid_advance}.
     */
    public static ProblemException tracedAdvanceTooLarge(long to) {
        return new ProblemException(ErrorCode.INVALID_ADVANCE, "a traced advance fires at most "
                + Limits.MAX_TRACED_FIRES + " timers, and advancing to " + to + " would fire more; advance"
                + " in smaller steps, with a lower limit or without trace");
    }

    /** The refusal of a rate change of a clock of {@code mode} other than scaled. */
    public static ProblemException clockNotScaled(ClockSettings.Mode mode) {
        return new ProblemException(ErrorCode.CLOCK_NOT_SCALED, "only a scaled clock (mode \"scaled\") has a"
                + " rate to change; this one is " + lowerCase(mode));
    }

    /** The refusal of a claim for an incarnation of {@code clock} that was deleted and created again since. */
    public static ProblemException clockRecreated(String clock) {
        return new ProblemException(ErrorCode.CLOCK_NOT_FOUND, "the clock " + abbreviateClockName(clock)
                + " was deleted and created again");
    }

    /**
     * The refusal of an advance of a queueing virtual clock that stands at {@code now} already while timers are due
     * and the deliveries hold their limit of {@code maxDeliveries}: nothing to change.
     */
    public static ProblemException deliveriesHeldBack(long now, long maxDeliveries) {
        return new ProblemException(ErrorCode.CAPACITY_EXCEEDED, "timers are due by " + now + " and the"
                + " deliveries hold their limit of " + maxDeliveries + " (timeservice.deliveries.max); acknowledge"
                + " or delete some before advancing further");
    }

    /**
     * The refusal of a copy of a clock (a fork, a load) of {@code count} timers and deliveries holding {@code bytes}
     * that the capacity ({@code capacity} timers, {@code capacityBytes} bytes) has no room for: the timers first.
     */
    public static ProblemException noRoomForCopy(long capacity, long count, long capacityBytes, long bytes,
                                                   boolean timersExceed) {
        return new ProblemException(ErrorCode.CAPACITY_EXCEEDED, timersExceed
                ? "the queue's capacity of " + capacity + " pending timers has no room for a copy of " + count
                : "the queue's " + capacityBytes + " payload bytes have no room for a copy of " + bytes);
    }

    /** The refusal of a copy of a clock (a fork, a load) whose {@code copyDeliveries} the delivery limit has no room for. */
    public static ProblemException noDeliveryRoomForCopy(long maxDeliveries, long copyDeliveries) {
        return new ProblemException(ErrorCode.CAPACITY_EXCEEDED, "the limit of " + maxDeliveries
                + " deliveries has no room for a copy of " + copyDeliveries);
    }

    /** The refusal of a pause of a clock that answers advances with what fired: it holds no deliveries back. */
    public static ProblemException pauseWithoutDeliveries() {
        return new ProblemException(ErrorCode.INVALID_REQUEST, "a pause holds deliveries back: a clock with delivery"
                + " \"response\" has none (pause a clock with delivery \"queue\" or \"push\")");
    }

    /** The refusal of clock-wide flow limits changed on a clock made without flow control. */
    public static ProblemException flowSetAtCreation() {
        return new ProblemException(ErrorCode.INVALID_REQUEST, "flow control is chosen when a clock is made: this"
                + " clock has none, so clockConcurrency and clockRate cannot change");
    }
}
