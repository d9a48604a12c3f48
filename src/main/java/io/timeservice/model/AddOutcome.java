package io.timeservice.model;

import java.util.Locale;

/**
 * What an add with {@link OnConflict} did: added a timer, kept the pending one or a reservation, or replaced the
 * pending one.
 *
 * @param result      which of the three happened
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
}
