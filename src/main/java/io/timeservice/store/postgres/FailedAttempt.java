package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

import io.timeservice.model.Delivery;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.RetryPolicy;

/**
 * A failed attempt of the delivery {@code sequence} (nacked, or its lease ended), decided in Java as the memory
 * store's queue decides it, then written with every other one of the same call in one statement
 * ({@link DeliverySql#FAILED}).
 *
 * @param retryAt set when it waits for a retry, else null
 * @param readyAt set when it is ready again at once, or dead (its time of death, as {@link
 *                io.timeservice.model.DeliveryFilter} says), else null (unchanged)
 * @param reason  why it died, null unless dead
 */
record FailedAttempt(long sequence, State state, int attempt, Long retryAt, Long readyAt, String reason) {

    /**
     * Nacked on attempt {@code attempt} at {@code now} (fired at {@code fireTime}): dead once the policy is exhausted
     * ({@link RetryPolicy#exhausted}), else attempt + 1
     * waiting for {@code retryAt}, or ready at once when that is not after {@code now}.
     */
    static FailedAttempt nacked(long sequence, int attempt, long fireTime, RetryPolicy policy, long now,
                                long retryAt) {
        if (policy.exhausted(attempt, fireTime, now)) {
            return dead(sequence, attempt, policy, "nacked", now);
        }
        if (retryAt <= now) {
            return new FailedAttempt(sequence, State.READY, attempt + 1, null, now, null);
        }
        return new FailedAttempt(sequence, State.WAITING, attempt + 1, retryAt, null, null);
    }

    /**
     * Its lease ended at {@code leaseUntil} on attempt {@code attempt}: dead then after the policy's last attempt, else
     * attempt + 1 waiting for {@code retryAt} (the retry step's second half readies it at that time, even if it has
     * passed).
     */
    static FailedAttempt expired(long sequence, int attempt, long fireTime, RetryPolicy policy, long leaseUntil,
                                 long retryAt) {
        if (policy.exhausted(attempt, fireTime, leaseUntil)) {
            return dead(sequence, attempt, policy, "lease expired", leaseUntil);
        }
        return new FailedAttempt(sequence, State.WAITING, attempt + 1, retryAt, null, null);
    }

    /**
     * Sent to the dead letters at once on attempt {@code attempt}, for {@code reason}, dead since the end of the lease
     * {@code leaseUntil} it was rejected in (as the memory store's journal recovers it).
     */
    static FailedAttempt rejected(long sequence, int attempt, long leaseUntil, String reason) {
        return new FailedAttempt(sequence, State.DEAD, attempt, null, leaseUntil, reason);
    }

    private static FailedAttempt dead(long sequence, int attempt, RetryPolicy policy, String how, long deadAt) {
        return new FailedAttempt(sequence, State.DEAD, attempt, null, deadAt, how + " "
                + policy.exhaustedOn(attempt));
    }

    /** Applies failed attempts in one statement, on the caller's transaction; returns the deliveries as they are now. */
    static List<Delivery> apply(Connection connection, List<FailedAttempt> failed) throws SQLException {
        int n = failed.size();
        Long[] sequences = new Long[n];
        String[] states = new String[n];
        Integer[] attempts = new Integer[n];
        Long[] retryAts = new Long[n];
        Long[] readyAts = new Long[n];
        String[] reasons = new String[n];
        for (int i = 0; i < n; i++) {
            FailedAttempt f = failed.get(i);
            sequences[i] = f.sequence();
            states[i] = f.state().name().toLowerCase(Locale.ROOT);
            attempts[i] = f.attempt();
            retryAts[i] = f.retryAt();
            readyAts[i] = f.readyAt();
            reasons[i] = f.reason();
        }
        try (PreparedStatement update = connection.prepareStatement(DeliverySql.FAILED)) {
            update.setArray(1, connection.createArrayOf("bigint", sequences));
            update.setArray(2, connection.createArrayOf("text", states));
            update.setArray(3, connection.createArrayOf("integer", attempts));
            update.setArray(4, connection.createArrayOf("bigint", retryAts));
            update.setArray(5, connection.createArrayOf("bigint", readyAts));
            update.setArray(6, connection.createArrayOf("text", reasons));
            return DeliveryRows.viewsOf(update);
        }
    }
}
