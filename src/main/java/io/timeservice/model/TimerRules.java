package io.timeservice.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rulebook's timers: an id's form, a due time's members, an edit, a batch, a precondition, a version, the
 * capacity of pending timers, and the refusals of a timer that is there twice or not at all. Both stores call these,
 * so a timer call is refused with the same code and text whichever store answers; each message names the offending
 * value.
 */
public final class TimerRules {

    private TimerRules() {
    }

    /** Validates an id's form. */
    public static void requireValidId(String id) {
        requireIdSyntax(id, "id", ErrorCode.INVALID_ID);
    }

    /**
     * Refuses a flow-control key that breaks the id rules ({@code invalid_request}); null (no key) passes: the timer
     * shares the empty key with every other timer without one.
     */
    public static void requireValidKey(String key) {
        if (key != null) {
            requireIdSyntax(key, "key", ErrorCode.INVALID_REQUEST);
        }
    }

    /** The id rules for {@code value}, named {@code member} in the refusal, which carries {@code code}. */
    private static void requireIdSyntax(String value, String member, ErrorCode code) {
        if (value == null || value.isEmpty() || value.length() > Limits.MAX_ID_LENGTH) {
            throw new ProblemException(code, member + " must be 1 to " + Limits.MAX_ID_LENGTH
                    + " characters long" + (value == null ? "" : ", got " + value.length()));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-' || c == '~' || c == ':';
            if (!allowed) {
                throw new ProblemException(code, member + " may contain only A-Z a-z 0-9 . _ - ~ :"
                        + ", found U+" + String.format("%04X", (int) c) + " at position " + i);
            }
        }
        if (value.equals(".") || value.equals("..")) {
            // dot-segments: a URL path normalizes /timers/.. away, so such a timer could never be read or changed
            throw new ProblemException(code, member + " may not be \"" + value
                    + "\": a URL path segment cannot carry it as itself");
        }
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

    /**
     * The due time of a new timer from its two members, of which exactly one is given ({@code invalid_request}
     * otherwise).
     */
    public static Due requireDue(Long delay, Long at) {
        if ((delay == null) == (at == null)) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a timer needs exactly one of delay and at, got "
                    + (delay == null ? "neither" : "both"));
        }
        return delay != null ? Due.after(delay) : Due.at(at);
    }

    /** The new due time of an edit: at most one of the two members, null for neither (the fireTime stays). */
    public static Due editedDue(Long delay, Long at) {
        if (delay != null && at != null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "an edit takes at most one of delay and at,"
                    + " got both");
        }
        return delay != null ? Due.after(delay) : at != null ? Due.at(at) : null;
    }

    /** Refuses an edit that changes nothing: {@code invalid_request}. */
    public static void requireEditChange(Due newDue, Integer newPriority) {
        if (newDue == null && newPriority == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "an edit needs a delay or an at, a priority,"
                    + " or both");
        }
    }

    public static ProblemException preconditionFailed(Timer current) {
        return new ProblemException(ErrorCode.PRECONDITION_FAILED, "timer " + current.id()
                + " is at revision " + current.sequence() + "-" + current.version()
                + ", which the precondition does not name");
    }

    /** Versions count in an int: an edit past {@link Timer#MAX_VERSION} is refused, never wrapped. */
    public static void requireVersionLeft(Timer current) {
        if (current.version() >= Timer.MAX_VERSION) {
            throw new ProblemException(ErrorCode.VERSION_LIMIT_REACHED, "timer " + current.id() + " is at version "
                    + current.version() + ", the most a timer can count; cancel it and add it again to change it");
        }
    }

    /** Refuses a batch that is empty or longer than {@link Limits#MAX_BATCH_OPS}: {@code invalid_request}. */
    public static void requireBatchSize(List<?> ops) {
        if (ops == null || ops.isEmpty() || ops.size() > Limits.MAX_BATCH_OPS) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a batch holds 1 to " + Limits.MAX_BATCH_OPS
                    + " operations, got " + (ops == null ? 0 : ops.size()));
        }
    }

    /**
     * Refuses a batch across clocks ({@link ClockBatch}) without parts, with a part of no operations, one naming a
     * clock twice, or more than {@link Limits#MAX_BATCH_OPS} operations in all: {@code invalid_request}. (Its journal
     * record, like a batch's, holds at most that many, whose payloads came in one request body.)
     */
    public static void requireBatchAcross(List<ClockBatch> parts) {
        if (parts == null || parts.isEmpty()) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a batch across clocks names 1 or more clocks");
        }
        Set<String> named = new HashSet<>();
        int total = 0;
        for (ClockBatch part : parts) {
            if (part == null || part.ops() == null || part.ops().isEmpty()) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "a batch across clocks gives each clock 1 or"
                        + " more operations" + (part == null ? ""
                        : ", not clock " + ClockRules.abbreviateClockName(part.clockName())));
            }
            if (!named.add(part.clockName())) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "a batch across clocks names clock "
                        + ClockRules.abbreviateClockName(part.clockName()) + " twice");
            }
            total += part.ops().size();
        }
        if (total > Limits.MAX_BATCH_OPS) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a batch holds 1 to " + Limits.MAX_BATCH_OPS
                    + " operations, got " + total);
        }
    }

    /** The refusal of a batch operation that is null: {@code invalid_request}. */
    public static ProblemException nullBatchOp() {
        return new ProblemException(ErrorCode.INVALID_REQUEST, "a batch operation may not be null");
    }

    /**
     * Refuses a page's (or a bounded advance's) {@code limit} below 1: {@code invalid_limit}. The web layer bounds it
     * from above before a store sees it.
     */
    public static void requireLimit(int limit) {
        if (limit < 1) {
            throw new ProblemException(ErrorCode.INVALID_LIMIT, "limit must be >= 1: " + limit);
        }
    }

    /** The refusal of an add whose id a pending timer (or an earlier add of its batch) has. */
    public static ProblemException duplicateId(String id) {
        return new ProblemException(ErrorCode.DUPLICATE_ID, "a pending timer already has id " + id);
    }

    /**
     * The refusal of an add of an id the clock keeps reserved for its dedupe window: {@code duplicate_id} with the
     * reservation as the problem's {@code previous} member.
     */
    public static ProblemException idReserved(Reservation previous) {
        return new ProblemException(ErrorCode.DUPLICATE_ID, "id " + previous.id() + " is reserved: its timer (sequence "
                + previous.sequence() + ") was " + previous.state().code() + " at " + previous.time()
                + " within the clock's dedupeWindow").with("previous", previous.asMember());
    }

    /** The refusal of the release of an id the clock does not keep reserved: {@code reservation_not_found}. */
    public static ProblemException reservationNotFound(String id) {
        return new ProblemException(ErrorCode.RESERVATION_NOT_FOUND, "the clock keeps no reservation of id "
                + abbreviate(id));
    }

    /** Refuses an add on a clock with a dedupe window while the store holds {@code held} of its most {@code max}. */
    public static void requireReservationRoom(long held, long max) {
        if (held >= max) {
            throw new ProblemException(ErrorCode.RESERVATION_LIMIT, "the service holds its limit of " + max
                    + " reserved ids (timeservice.dedupe.max-reservations); an add on a clock with a dedupeWindow"
                    + " waits until some expire or are released");
        }
    }

    /** The refusal of a read or change of a timer {@code id} that is not pending. */
    public static ProblemException timerNotFound(String id) {
        return new ProblemException(ErrorCode.TIMER_NOT_FOUND, "no pending timer has id " + abbreviate(id));
    }

    /** The refusal of a peek at the first timer of a clock that holds none. */
    public static ProblemException queueEmpty() {
        return new ProblemException(ErrorCode.QUEUE_EMPTY, "no timer is pending");
    }

    /** The refusal of one more pending timer when the store holds its {@code capacity} of them. */
    public static ProblemException noTimerRoom(long capacity) {
        return new ProblemException(ErrorCode.CAPACITY_EXCEEDED, "the queue holds its capacity of " + capacity
                + " pending timers");
    }

    /**
     * The refusal of a timer (an add, a schedule's occurrence) of {@code needs} id and payload characters when the
     * pending timers hold {@code pendingBytes} of the {@code capacityBytes} the store has room for.
     */
    public static ProblemException noPayloadRoom(long pendingBytes, long capacityBytes, long needs) {
        return noBytes(pendingBytes, capacityBytes, "this timer needs " + needs);
    }

    /**
     * The refusal of a batch whose running total needs {@code needs} more bytes than it took already, when the
     * pending timers (with what the batch took) hold {@code pendingBytes} of {@code capacityBytes}.
     */
    public static ProblemException noBatchPayloadRoom(long pendingBytes, long capacityBytes, long needs) {
        return noBytes(pendingBytes, capacityBytes, "the batch needs " + needs + " more");
    }

    private static ProblemException noBytes(long pendingBytes, long capacityBytes, String needs) {
        return new ProblemException(ErrorCode.CAPACITY_EXCEEDED, "the pending timers hold " + pendingBytes
                + " of the queue's " + capacityBytes + " payload bytes (capacity-bytes: id and payload characters); "
                + needs);
    }
}
