package io.timeservice.model;

/**
 * The earliest pending event of a clock: what {@code advance {"next": true}} moves the clock to. Both stores find
 * the three earliest times and let {@link #earliest} choose, so they agree on the kind when times tie.
 *
 * @param kind what happens then
 * @param at   the clock's time it happens at
 */
public record NextEvent(Kind kind, long at) {

    /** A timer coming due, a lease ending, a retry becoming ready; the API writes them in lower case. */
    public enum Kind { TIMER, LEASE, RETRY }

    /**
     * The earliest of a timer's fireTime, a lease's end and a retry's time ({@link Long#MAX_VALUE} for none of that
     * kind), or null when none is pending. On a tie the timer wins, then the lease: the advance to that time does all
     * three anyway, and naming the timer tells the caller that something fired.
     */
    public static NextEvent earliest(long timerAt, long leaseEndsAt, long retryAt) {
        long at = Math.min(timerAt, Math.min(leaseEndsAt, retryAt));
        if (at == Long.MAX_VALUE) {
            return null;
        }
        Kind kind = at == timerAt ? Kind.TIMER : at == leaseEndsAt ? Kind.LEASE : Kind.RETRY;
        return new NextEvent(kind, at);
    }
}
