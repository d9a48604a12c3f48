package io.timeservice.store.postgres;

/**
 * When a delivery whose attempt failed (nacked, or its lease expired) is tried again: after
 * {@code min(maxBackoffMillis, initialBackoffMillis * multiplier^(attempt - 1))}, shortened by up to
 * {@code jitter} of itself at random; after {@code maxAttempts} attempts it is dead.
 */
public record RetryPolicy(int maxAttempts, long initialBackoffMillis, double multiplier, long maxBackoffMillis,
                          double jitter) {

    /** Issue 16's defaults: 10 attempts, 1 s doubling up to 1 h, with 20% jitter. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(10, 1_000, 2.0, 3_600_000, 0.2);

    public RetryPolicy {
        if (maxAttempts < 1 || initialBackoffMillis < 0 || multiplier < 1 || maxBackoffMillis < initialBackoffMillis
                || jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("retry policy out of range: " + maxAttempts + " attempts, backoff "
                    + initialBackoffMillis + " ms x" + multiplier + " up to " + maxBackoffMillis + " ms, jitter "
                    + jitter);
        }
    }
}
