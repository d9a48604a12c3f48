package io.timeservice.model;

import java.util.Locale;

/**
 * What an add with {@link OnConflict} did: added a timer, kept the pending one or a reservation, or replaced the
 * pending one. Among a batch's outcomes (one per operation) an edit's or a cancel's has no result, only its timer.
 *
 * @param result      which of the three happened; null for a batch's edit or cancel
 * @param timer       the timer added, kept or replaced (as it is now); null when a reservation was kept
 * @param reservation the reservation kept ({@link OnConflict#KEEP} of a reserved id); else null
 */
public record AddOutcome(Result result, Timer timer, Reservation reservation) {

    public enum Result {
        ADDED, KEPT, REPLACED;

        /** The wire form: {@code added}, {@code kept}, {@code replaced}. */
        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static AddOutcome added(Timer timer) {
        return new AddOutcome(Result.ADDED, timer, null);
    }

    /** A batch's edit or cancel: the timer edited, or the one cancelled as it was. */
    public static AddOutcome changed(Timer timer) {
        return new AddOutcome(null, timer, null);
    }

    /** The pending timer {@code timer} kept. */
    public static AddOutcome kept(Timer timer) {
        return new AddOutcome(Result.KEPT, timer, null);
    }

    /** The reservation {@code reservation} kept: no timer of the id is pending. */
    public static AddOutcome kept(Reservation reservation) {
        return new AddOutcome(Result.KEPT, null, reservation);
    }

    /** The pending timer replaced, as it is now. */
    public static AddOutcome replaced(Timer timer) {
        return new AddOutcome(Result.REPLACED, timer, null);
    }
}
