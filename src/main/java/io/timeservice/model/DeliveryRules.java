package io.timeservice.model;

import java.util.List;

/**
 * The rulebook's deliveries: a claim's arguments, a lease, a batch of acks, a nack's retry time, a dead letter's
 * reason, and the refusals of a lost claim, a missing dead delivery and a clock that does not queue. Both stores call
 * these, so a delivery call is refused with the same code and text whichever store answers.
 */
public final class DeliveryRules {

    /** The longest reason a delivery sent to the dead letters at once may give. */
    public static final int MAX_DEAD_REASON_LENGTH = 256;

    /**
     * How many dead letters one chunk of a bulk redrive or delete takes: each chunk is one short lock of the clock
     * (memory) or one transaction (PostgreSQL), so no bulk action holds a lock for long.
     */
    public static final int BULK_CHUNK = 1_000;

    private DeliveryRules() {
    }

    /**
     * Refuses a filter ({@code invalid_request}): no state, an id prefix longer than an id may be, an attempt below 1,
     * a reason longer than {@value #MAX_DEAD_REASON_LENGTH} characters, a reason or a deadSince on deliveries that are
     * not dead, a deadSince below 0.
     */
    public static void requireFilter(DeliveryFilter filter) {
        if (filter == null || filter.state() == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a delivery filter needs a state");
        }
        if (filter.idPrefix() != null && filter.idPrefix().length() > Limits.MAX_ID_LENGTH) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "idPrefix must be at most " + Limits.MAX_ID_LENGTH
                    + " characters, got " + filter.idPrefix().length());
        }
        if (filter.minAttempt() != null && filter.minAttempt() < 1) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "minAttempt must be at least 1, got "
                    + filter.minAttempt());
        }
        if (filter.reason() != null && filter.reason().length() > MAX_DEAD_REASON_LENGTH) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "reason must be at most " + MAX_DEAD_REASON_LENGTH
                    + " characters, got " + filter.reason().length());
        }
        if (filter.reason() != null && filter.state() != Delivery.State.DEAD) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "reason filters dead deliveries only");
        }
        if (filter.deadSince() != null && filter.state() != Delivery.State.DEAD) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "deadSince filters dead deliveries only");
        }
        if (filter.deadSince() != null && filter.deadSince() < 0) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "deadSince must be a clock time of at least 0, got "
                    + filter.deadSince());
        }
    }

    /** Refuses a batch of acks that is empty or larger than one claim: {@code invalid_request}. */
    public static void requireAckCount(List<Ack> acks) {
        if (acks == null || acks.isEmpty() || acks.size() > Limits.MAX_CLAIM) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "one call acknowledges 1 to " + Limits.MAX_CLAIM
                    + " deliveries, got " + (acks == null ? 0 : acks.size()));
        }
    }

    /**
     * Refuses a claim's arguments, in this order: {@code max} outside 1..{@value Limits#MAX_CLAIM} with
     * {@code invalid_limit}, then a lease or a wait out of range with {@code invalid_request}.
     */
    public static void requireClaim(int max, long leaseMillis, long waitMillis) {
        if (max < 1 || max > Limits.MAX_CLAIM) {
            throw new ProblemException(ErrorCode.INVALID_LIMIT, "max must be 1 to " + Limits.MAX_CLAIM + ": " + max);
        }
        requireLease(leaseMillis);
        if (waitMillis < 0 || waitMillis > Limits.MAX_CLAIM_WAIT_MILLIS) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "wait must be 0 to "
                    + Limits.MAX_CLAIM_WAIT_MILLIS + " ms: " + waitMillis);
        }
    }

    /** Refuses a lease outside {@value Limits#MIN_LEASE_MILLIS}..{@value Limits#MAX_LEASE_MILLIS} ms. */
    public static void requireLease(long leaseMillis) {
        if (leaseMillis < Limits.MIN_LEASE_MILLIS || leaseMillis > Limits.MAX_LEASE_MILLIS) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "lease must be " + Limits.MIN_LEASE_MILLIS
                    + " to " + Limits.MAX_LEASE_MILLIS + " ms: " + leaseMillis);
        }
    }

    /**
     * Refuses a nack's {@code retryAfter} outside 0..{@value RetryPolicy#MAX_BACKOFF_MILLIS} ms
     * ({@code invalid_request}); null (the clock's retry policy decides) passes.
     */
    public static void requireRetryAfter(Long retryAfterMillis) {
        if (retryAfterMillis != null && (retryAfterMillis < 0 || retryAfterMillis > RetryPolicy.MAX_BACKOFF_MILLIS)) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "retryAfter must be 0 to "
                    + RetryPolicy.MAX_BACKOFF_MILLIS + " ms: " + retryAfterMillis);
        }
    }

    /** @throws ProblemException {@code invalid_request} for no reason or one over {@value #MAX_DEAD_REASON_LENGTH} characters */
    public static void requireDeadReason(String reason) {
        if (reason == null || reason.isEmpty() || reason.length() > MAX_DEAD_REASON_LENGTH) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a dead delivery's reason must be 1 to "
                    + MAX_DEAD_REASON_LENGTH + " characters");
        }
    }

    /** The refusal of an ack, nack, extend or reject whose claim holds no lease on a delivery of {@code id}. */
    public static ProblemException claimLost(String id) {
        return new ProblemException(ErrorCode.CLAIM_LOST, "the claim does not hold a lease on a delivery of "
                + TimerRules.abbreviate(id) + " (wrong or expired; the delivery may have gone to another worker)");
    }

    /** The refusal of a redrive or deletion of dead deliveries of {@code id} (and {@code sequence}, if given). */
    public static ProblemException deadDeliveryNotFound(String id, Long sequence) {
        return new ProblemException(ErrorCode.DELIVERY_NOT_FOUND, "no dead delivery has id "
                + TimerRules.abbreviate(id) + (sequence == null ? "" : " and sequence " + sequence));
    }

    /**
     * The state named {@code ready}, {@code in_flight}, {@code waiting} or {@code dead}, as deliveries show it.
     *
     * @throws ProblemException {@code invalid_request} for any other name
     */
    public static Delivery.State stateNamed(String name) {
        for (Delivery.State state : Delivery.State.values()) {
            if (state.name().toLowerCase(java.util.Locale.ROOT).equals(name)) {
                return state;
            }
        }
        throw new ProblemException(ErrorCode.INVALID_REQUEST, "state must be ready, in_flight, waiting or dead, got \""
                + TimerRules.abbreviate(String.valueOf(name)) + "\"");
    }

    /** The refusal of a bulk action over deliveries that are not dead. */
    public static ProblemException bulkOnDeadOnly() {
        return new ProblemException(ErrorCode.INVALID_REQUEST, "a bulk redrive or delete takes dead deliveries only");
    }

    /** The refusal of a delivery call on a clock that returns fired timers from advance (delivery "response"). */
    public static ProblemException clockNotQueued() {
        return new ProblemException(ErrorCode.CLOCK_NOT_QUEUED, "this clock returns fired timers from advance"
                + " (delivery \"response\"); create a clock with delivery \"queue\" to claim deliveries");
    }
}
