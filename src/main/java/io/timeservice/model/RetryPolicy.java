package io.timeservice.model;


/**
 * How a clock retries a delivery whose lease expired or that was nacked without a {@code retryAfter}: the n-th retry
 * waits {@code min(maxBackoff, initialBackoff * multiplier^(n-1))}, spread by up to {@code ±jitter} of itself so
 * that deliveries failing together do not all come back in the same millisecond. A delivery is dead once its
 * {@code maxAttempts}-th attempt fails.
 *
 * @param maxAttempts          attempts before a delivery is dead, 1 to {@value #MAX_ATTEMPTS}
 * @param initialBackoffMillis the first retry's wait, 0 to {@value #MAX_BACKOFF_MILLIS} ms
 * @param multiplier           how much each later wait grows, 1 to 10
 * @param maxBackoffMillis     the longest wait, {@code initialBackoffMillis} to {@value #MAX_BACKOFF_MILLIS} ms
 * @param jitter               the spread as a fraction of the wait, 0 to 1
 * @param maxRetryDurationMillis how long after its fire time a delivery keeps being retried past {@code maxAttempts},
 *                             0 (none: {@code maxAttempts} alone ends retries) to {@value #MAX_RETRY_DURATION_MILLIS}
 *                             ms
 */
public record RetryPolicy(int maxAttempts, long initialBackoffMillis, double multiplier, long maxBackoffMillis,
                          double jitter, long maxRetryDurationMillis) {

    public static final int MAX_ATTEMPTS = 1_000;
    /** Seven days. */
    public static final long MAX_BACKOFF_MILLIS = 7L * 24 * 60 * 60 * 1000;
    /** Thirty-one days: Cloud Tasks' longest task retention. */
    public static final long MAX_RETRY_DURATION_MILLIS = 31L * 24 * 60 * 60 * 1000;

    /** Ten attempts, waits of 1 s doubling up to 5 minutes, ±20%. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(10, 1_000, 2.0, 300_000, 0.2);

    public RetryPolicy {
        require(maxAttempts >= 1 && maxAttempts <= MAX_ATTEMPTS, "maxAttempts must be 1 to " + MAX_ATTEMPTS
                + ": " + maxAttempts);
        require(initialBackoffMillis >= 0 && initialBackoffMillis <= MAX_BACKOFF_MILLIS, "initialBackoff must be 0"
                + " to " + MAX_BACKOFF_MILLIS + " ms: " + initialBackoffMillis);
        require(multiplier >= 1.0 && multiplier <= 10.0, "multiplier must be 1 to 10: " + multiplier);
        require(maxBackoffMillis >= initialBackoffMillis && maxBackoffMillis <= MAX_BACKOFF_MILLIS, "maxBackoff must"
                + " be initialBackoff (" + initialBackoffMillis + ") to " + MAX_BACKOFF_MILLIS + " ms: "
                + maxBackoffMillis);
        require(jitter >= 0.0 && jitter <= 1.0, "jitter must be 0 to 1: " + jitter);
        require(maxRetryDurationMillis >= 0 && maxRetryDurationMillis <= MAX_RETRY_DURATION_MILLIS, "maxRetryDuration"
                + " must be 0 to " + MAX_RETRY_DURATION_MILLIS + " ms: " + maxRetryDurationMillis);
    }

    /** A policy without a retry duration: {@code maxAttempts} alone ends retries. */
    public RetryPolicy(int maxAttempts, long initialBackoffMillis, double multiplier, long maxBackoffMillis,
                       double jitter) {
        this(maxAttempts, initialBackoffMillis, multiplier, maxBackoffMillis, jitter, 0);
    }

    /**
     * Whether a delivery that fired at {@code fireTime} is dead when its attempt {@code attempt} fails at {@code now}
     * (both clock times): past {@code maxAttempts}, and past {@code maxRetryDuration} after its fire time when there
     * is one; always after {@value #MAX_ATTEMPTS} attempts.
     */
    public boolean exhausted(int attempt, long fireTime, long now) {
        if (attempt >= MAX_ATTEMPTS) {
            return true;
        }
        return attempt >= maxAttempts && (maxRetryDurationMillis == 0 || now - fireTime >= maxRetryDurationMillis);
    }

    /** Why a delivery died when {@link #exhausted} said so: "on attempt n of m" (and the duration, when there is one). */
    public String exhaustedOn(int attempt) {
        return "on attempt " + attempt + " of " + maxAttempts + (maxRetryDurationMillis == 0 ? ""
                : ", " + maxRetryDurationMillis + " ms after it fired");
    }

    private static void require(boolean valid, String message) {
        if (!valid) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, message);
        }
    }

    /**
     * The wait before attempt {@code nextAttempt} (2 or more) of the delivery {@code sequence}. The jitter is a hash
     * of both, not a random draw: recovery replays a lease expiry to exactly the wait the live service chose.
     */
    public long backoffMillis(long sequence, int nextAttempt) {
        double base = initialBackoffMillis;
        for (int i = 2; i < nextAttempt && base < maxBackoffMillis; i++) {
            base *= multiplier;
        }
        base = Math.min(base, maxBackoffMillis);
        double spread = jitter * unitInterval(sequence, nextAttempt) * 2 - jitter; // in [-jitter, +jitter)
        long wait = Math.round(base * (1 + spread));
        return Math.max(0, Math.min(maxBackoffMillis, wait));
    }

    /** A well-mixed number in [0, 1) from the two inputs (SplitMix64's finalizer). */
    private static double unitInterval(long sequence, int attempt) {
        long z = sequence * 0x9E3779B97F4A7C15L + attempt;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
