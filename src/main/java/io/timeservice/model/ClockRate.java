package io.timeservice.model;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * How fast a scaled clock runs: clock milliseconds per wall-clock millisecond, 0 (frozen) to {@value #MAX} in steps
 * of one millionth. Kept as an exact count of millionths, so that every instance and every restart computes the same
 * clock time from the same wall time (a double would round differently as the elapsed time grows past 2^53 / rate).
 *
 * @param millionths the rate times 1,000,000: 0 to {@code MAX * 1,000,000}
 */
public record ClockRate(long millionths) {

    /** The fastest rate: a week of clock time in about six wall-clock seconds. */
    public static final long MAX = 100_000;
    /** Decimal places a rate may have. */
    public static final int MAX_SCALE = 6;
    private static final long ONE = 1_000_000;

    public ClockRate {
        if (millionths < 0 || millionths > MAX * ONE) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "rate must be between 0 and " + MAX + ": "
                    + BigDecimal.valueOf(millionths, MAX_SCALE).stripTrailingZeros().toPlainString());
        }
    }

    /**
     * The rate a request states, exactly.
     *
     * @throws ProblemException {@code invalid_request} when it is negative, above {@value #MAX} or has more than
     *                            {@value #MAX_SCALE} decimal places
     */
    public static ClockRate of(BigDecimal rate) {
        if (rate.signum() < 0 || rate.compareTo(BigDecimal.valueOf(MAX)) > 0) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "rate must be between 0 and " + MAX + ": "
                    + rate.toPlainString());
        }
        BigDecimal scaled = rate.movePointRight(MAX_SCALE);
        if (scaled.stripTrailingZeros().scale() > 0) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "rate has at most " + MAX_SCALE
                    + " decimal places: " + rate.toPlainString());
        }
        return new ClockRate(scaled.longValueExact());
    }

    /** The rate as a JSON number shows it (the nearest double; exact for every rate a person types). */
    public double value() {
        return millionths / (double) ONE;
    }

    /** Clock milliseconds that {@code wallMillis} (>= 0) wall-clock milliseconds make, rounded down, saturated. */
    public long clockMillis(long wallMillis) {
        long whole = millionths / ONE;
        long part = millionths % ONE;
        // wall = q * ONE + r, so wall * part / ONE = q * part + r * part / ONE exactly, and neither product overflows
        long fraction = (wallMillis / ONE) * part + (wallMillis % ONE) * part / ONE;
        long wholes = whole == 0 ? 0 : wallMillis > Long.MAX_VALUE / whole ? Long.MAX_VALUE : wallMillis * whole;
        return wholes > Long.MAX_VALUE - fraction ? Long.MAX_VALUE : wholes + fraction;
    }

    /**
     * The fewest wall-clock milliseconds that make at least {@code clockMillis} (>= 0) clock milliseconds:
     * {@link #clockMillis} of the answer is {@code >= clockMillis}; {@link Long#MAX_VALUE} when frozen or beyond.
     */
    long wallMillis(long clockMillis) {
        if (clockMillis == 0) {
            return 0;
        }
        if (millionths == 0) {
            return Long.MAX_VALUE;
        }
        BigInteger[] quotient = BigInteger.valueOf(clockMillis).multiply(BigInteger.valueOf(ONE))
                .divideAndRemainder(BigInteger.valueOf(millionths));
        BigInteger wall = quotient[1].signum() == 0 ? quotient[0] : quotient[0].add(BigInteger.ONE);
        return wall.bitLength() < 64 ? wall.longValue() : Long.MAX_VALUE;
    }

    @Override
    public String toString() {
        return BigDecimal.valueOf(millionths, MAX_SCALE).stripTrailingZeros().toPlainString();
    }
}
