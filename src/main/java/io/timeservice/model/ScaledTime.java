package io.timeservice.model;

/**
 * A scaled clock's time as a function of the wall clock: from the anchor ({@code wallAnchor}, {@code clockAnchor}) on,
 * the clock shows {@code clockAnchor + (wall - wallAnchor) * rate}, rounded down and saturated at the end of time
 * ({@link Limits#MAX_TIME}): a clock left running stops there, with a time its snapshot document holds. A rate change
 * anchors a new function where the old one stands, so the clock's time is continuous across it. Both stores compute a scaled clock's time only through this record, so they agree to the
 * millisecond; each keeps the latest reading on top (never going back when the wall clock steps back).
 *
 * @param wallAnchor  wall-clock epoch milliseconds of the anchor (the creation or the last rate change)
 * @param clockAnchor the clock's time at the anchor
 * @param rate        clock milliseconds per wall-clock millisecond
 */
public record ScaledTime(long wallAnchor, long clockAnchor, ClockRate rate) {

    public ScaledTime {
        if (rate == null || clockAnchor < 0) {
            throw new IllegalArgumentException("a scaled time needs a rate and a clock anchor >= 0: " + clockAnchor);
        }
    }

    /** The clock's time at wall-clock time {@code wall}; a wall time before the anchor shows the anchor's time. */
    public long at(long wall) {
        if (wall <= wallAnchor) {
            return clockAnchor;
        }
        long elapsed = wall - wallAnchor;
        long scaled = rate.clockMillis(elapsed < 0 ? Long.MAX_VALUE : elapsed); // < 0: the difference overflowed
        return clockAnchor > Limits.MAX_TIME - scaled ? Math.max(clockAnchor, Limits.MAX_TIME) : clockAnchor + scaled;
    }

    /**
     * The earliest wall-clock time at which the clock shows {@code clockTime} or later: the anchor for a time it has
     * passed at the anchor, {@link Long#MAX_VALUE} when the clock never gets there (frozen, or past the end of time).
     */
    public long wallWhen(long clockTime) {
        if (clockTime <= clockAnchor) {
            return wallAnchor;
        }
        if (clockTime > Limits.MAX_TIME) { // the clock stops at the end of time
            return Long.MAX_VALUE;
        }
        long wait = rate.wallMillis(clockTime - clockAnchor);
        return wait == Long.MAX_VALUE || wallAnchor > Long.MAX_VALUE - wait ? Long.MAX_VALUE : wallAnchor + wait;
    }
}
