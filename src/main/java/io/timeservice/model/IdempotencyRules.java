package io.timeservice.model;

import java.time.Duration;

/**
 * The rules of the {@code Idempotency-Key} header (draft-ietf-httpapi-idempotency-key-header) for both stores: what a
 * key may be, how long a first request may hold its key, and the text of every refusal about keys.
 */
public final class IdempotencyRules {

    /** The most characters a key may have. */
    public static final int MAX_KEY_LENGTH = 255;

    /**
     * How long a first request holds its key while it runs: a request is bounded (body read timeout, statement and lock
     * timeouts, no long poll among the calls that take a key), so a marker older than this belongs to a process that
     * died; a repeat then runs as a first request.
     */
    public static final Duration RUNNING_LEASE = Duration.ofMinutes(5);

    /** The retry delay, in seconds, a 409 {@code idempotency_key_in_use} suggests. */
    public static final int IN_USE_RETRY_AFTER_SECONDS = 1;

    /** The longest retention {@code timeservice.idempotency.retention} may be set to. */
    public static final Duration MAX_RETENTION = Duration.ofDays(7);

    private IdempotencyRules() {
    }

    /**
     * The key a header value names: the value itself, or — the draft's form, a Structured Field string — the
     * characters between its double quotes. Either way 1 to {@value #MAX_KEY_LENGTH} visible ASCII characters
     * ({@code !} to {@code ~}); a quoted key may not hold a quote or a backslash.
     *
     * @throws ProblemException {@code invalid_request} otherwise
     */
    public static String requireKey(String header) {
        String key = header;
        if (header.length() >= 2 && header.charAt(0) == '"' && header.charAt(header.length() - 1) == '"') {
            key = header.substring(1, header.length() - 1);
            if (key.indexOf('"') >= 0 || key.indexOf('\\') >= 0) {
                throw invalid("a quoted Idempotency-Key may not contain a quote or a backslash");
            }
        }
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw invalid("Idempotency-Key must be 1 to " + MAX_KEY_LENGTH + " characters long, got "
                    + key.length());
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < '!' || c > '~') {
                throw invalid("Idempotency-Key may contain only visible ASCII characters (! to ~); character "
                        + i + " is not one");
            }
        }
        return key;
    }

    private static ProblemException invalid(String message) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, message);
    }

    /** The key was first sent with another request: the draft's 422. */
    public static ProblemException reused() {
        return new ProblemException(ErrorCode.IDEMPOTENCY_KEY_REUSED, "this Idempotency-Key was sent before with "
                + "another method, path or body; a key names one request: send a new key for a new request");
    }

    /** The key's first request has not answered yet: the draft's 409. */
    public static ProblemException inUse() {
        return new ProblemException(ErrorCode.IDEMPOTENCY_KEY_IN_USE, "the first request with this Idempotency-Key "
                + "is still running; retry after it has answered to get its answer");
    }

    /** The store holds its most keys. */
    public static ProblemException limit(long maxKeys) {
        return new ProblemException(ErrorCode.IDEMPOTENCY_KEY_LIMIT, "the service holds " + maxKeys
                + " Idempotency-Keys already (timeservice.idempotency.max-keys); retry later, when older ones have"
                + " expired, or send the request without a key");
    }

    /**
     * Whether an answer with this status is kept for the key: a success or a client error that refuses the request
     * as it is, so that the same request would be refused again. Not kept, so that a retry runs again: a failure of
     * the service (5xx, {@code storage_unavailable} included) and the refusals that depend on the moment, not on the
     * request (408 timeout, 425, 429 limits).
     */
    public static boolean keeps(int status) {
        return status >= 200 && status < 300
                || status >= 400 && status < 500 && status != 408 && status != 425 && status != 429;
    }
}
