package io.timeservice.client;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by a {@link DeliveryHandler} to give the delivery back and have it ready again after {@link #retryAfter()}
 * (up to 7 days) instead of after the clock's backoff. The attempt still counts against the clock's most attempts.
 */
public class RetryLaterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    public RetryLaterException(Duration retryAfter) {
        this(retryAfter, "retry after " + retryAfter, null);
    }

    public RetryLaterException(Duration retryAfter, String message, Throwable cause) {
        super(message, cause);
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must be >= 0: " + retryAfter);
        }
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
