package io.timeservice.model;

import java.util.List;

/**
 * The one source of every refusal that does not depend on a store's state: both stores and the web layer call
 * these, so a bad id, delay, lease or batch is refused with the same code and text whichever store answers. Each
 * needs no lock; each message names the offending value.
 */
public final class Rules {

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

    /** The longest reason a delivery sent to the dead letters at once may give. */
    public static final int MAX_DEAD_REASON_LENGTH = 256;

    /** @throws SchedulerException {@code invalid_request} for no reason or one over {@value #MAX_DEAD_REASON_LENGTH} characters */
    public static void requireDeadReason(String reason) {
        if (reason == null || reason.isEmpty() || reason.length() > MAX_DEAD_REASON_LENGTH) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a dead delivery's reason must be 1 to "
                    + MAX_DEAD_REASON_LENGTH + " characters");
        }
    }
}
