package io.timeservice.push;

import java.util.Locale;

/**
 * How one push attempt ended.
 *
 * @param kind              the metric's outcome
 * @param status            the answer's HTTP status, or 0 without an answer
 * @param retryAfterMillis  what a 429 or 503 asked for in {@code Retry-After}, else null
 * @param detail            why, in words, for the log and the dead letter's reason
 */
public record PushOutcome(Kind kind, int status, Long retryAfterMillis, String detail) {

    /** The values of {@code timer_push_attempts_total}'s {@code outcome} tag. */
    public enum Kind {
        SUCCESS, HTTP_4XX, HTTP_5XX, TIMEOUT, CONNECT_ERROR, REFUSED,
        /** An answer that breaks HTTP/1.1 or the client's bounds on an answer's head (its connection is closed). */
        PROTOCOL_ERROR;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static PushOutcome answered(int status, Long retryAfterMillis) {
        Kind kind = status >= 200 && status < 300 ? Kind.SUCCESS : status >= 500 ? Kind.HTTP_5XX : Kind.HTTP_4XX;
        return new PushOutcome(kind, status, retryAfterMillis, "answered " + status);
    }

    static PushOutcome failed(Kind kind, String detail) {
        return new PushOutcome(kind, 0, null, detail);
    }

    public boolean acknowledged() {
        return kind == Kind.SUCCESS;
    }

    /** 410 Gone: the receiver says never again, so the delivery is dead at once. */
    public boolean gone() {
        return status == 410;
    }
}
