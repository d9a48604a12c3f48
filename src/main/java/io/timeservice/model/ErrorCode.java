package io.timeservice.model;

import java.util.Locale;

/**
 * Why the scheduler refused an operation. The names are part of the public contract: the web layer sends them as
 * the problem's {@code code} and metrics use them as the only values of the {@code reason} tag.
 */
public enum ErrorCode {
    INVALID_REQUEST,
    INVALID_ID,
    INVALID_DELAY,
    INVALID_PRIORITY,
    INVALID_ADVANCE,
    INVALID_LIMIT,
    PAYLOAD_TOO_LARGE,
    DUPLICATE_ID,
    TIMER_NOT_FOUND,
    QUEUE_EMPTY,
    PRECONDITION_FAILED,
    /** An edit of a timer that has counted {@link Timer#MAX_VERSION} versions already (409). */
    VERSION_LIMIT_REACHED,
    CAPACITY_EXCEEDED,
    /** No clock has the name (404), or it was deleted meanwhile. */
    CLOCK_NOT_FOUND,
    /** A clock of that name exists with other settings (409). */
    CLOCK_CONFLICT,
    /** The {@code default} clock cannot be deleted (409). */
    CLOCK_UNDELETABLE,
    /** {@code timeservice.clocks.max} clocks exist already (429). */
    CLOCK_LIMIT,
    /** Advance on a clock that fires by itself: a system clock (the wall clock's time) or a scaled one (409). */
    CLOCK_NOT_VIRTUAL,
    /** A rate change of a clock that is not scaled (409). */
    CLOCK_NOT_SCALED,
    /** A delivery call on a clock whose fired timers are returned by advance, not queued (409). */
    CLOCK_NOT_QUEUED,
    /** An ack, nack or extend whose claim holds no lease (wrong, expired, or the delivery went elsewhere) (409). */
    CLAIM_LOST,
    /** No dead delivery has that id (and sequence) (404). */
    DELIVERY_NOT_FOUND,
    /** A clock's snapshot document breaks a rule; the problem's {@code member} is the JSON pointer of the first (400). */
    INVALID_SNAPSHOT,
    /** A schedule's spec is malformed or never fires (400). */
    INVALID_SCHEDULE,
    /** No schedule has that id on the clock (404). */
    SCHEDULE_NOT_FOUND,
    /** {@code timeservice.schedules.max} schedules exist already (429). */
    SCHEDULE_LIMIT,
    /** A change through the timer API of a schedule's occurrence, which only its schedule changes (409). */
    SCHEDULE_OWNED,
    /**
     * A push target whose host is, or resolves to, an address the service may not reach (loopback, private,
     * link-local, ...), or does not resolve at all (400): see {@link PushTargetGuard}.
     */
    TARGET_NOT_ALLOWED,
    /** An Idempotency-Key sent again with another method, path or body than its first request (422). */
    IDEMPOTENCY_KEY_REUSED,
    /** An Idempotency-Key whose first request is still running (409, with Retry-After). */
    IDEMPOTENCY_KEY_IN_USE,
    /** {@code timeservice.idempotency.max-keys} kept answers are held already (429). */
    IDEMPOTENCY_KEY_LIMIT,
    /** A release of an id the clock keeps no reservation of (404). */
    RESERVATION_NOT_FOUND,
    /** {@code timeservice.dedupe.max-reservations} reserved ids are held already (429). */
    RESERVATION_LIMIT,
    /** A read or delete of a key's flow override the clock does not have (404). */
    FLOW_KEY_NOT_FOUND,
    /** A new key override past {@code FlowRules.MAX_KEY_OVERRIDES} on one clock (429). */
    FLOW_KEY_LIMIT,
    /**
     * The journal failed (or a change failed after its record was written): the scheduler has stopped and refuses
     * every call, reads included, until a restart rebuilds the state from the journal.
     */
    STORAGE_UNAVAILABLE;

    /** The wire form: {@code invalid_delay}, {@code timer_not_found}, ... */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
