package io.timeservice.model;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rulebook of the QStash drop-in API (issue 47, docs/DROP-IN.md): which clock holds a message, how that clock is
 * set up, and the refusals of the {@code Upstash-*} headers.
 *
 * <p>A message is a timer on the push clock {@code qstash-r<retries>} (one clock per retry count, since a clock's retry
 * policy is fixed): created on first use, virtual or system as configured, its push target the placeholder
 * {@link #PLACEHOLDER_URL} (each message carries its own destination, which the pusher sends to), and ids reserved
 * for {@link #DEDUPE_WINDOW_MILLIS} after the message left, as QStash deduplicates.
 */
public final class QStashRules {

    /** The push URL of every QStash clock: never reached (RFC 6761's {@code .invalid}); the message's URL is. */
    public static final String PLACEHOLDER_URL = "http://qstash.invalid/";
    public static final String CLOCK_PREFIX = "qstash-r";
    public static final int DEFAULT_RETRIES = 3;
    public static final int MAX_RETRIES = 20;
    public static final long DEDUPE_WINDOW_MILLIS = 10 * 60 * 1000L;
    public static final long DEFAULT_TIMEOUT_MILLIS = PushTarget.MAX_TIMEOUT_MILLIS;
    private static final Pattern DLQ_ID = Pattern.compile("dlq_(\\d+)_(\\d+)");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    private QStashRules() {
    }

    /** The clock that holds messages retried {@code retries} times. */
    public static String clockName(int retries) {
        return CLOCK_PREFIX + retries;
    }

    /** The retry count of a QStash clock's name {@code qstash-r<0..20>}, or -1 for any other name. */
    public static int retriesOf(String clock) {
        String digits = clock.startsWith(CLOCK_PREFIX) ? clock.substring(CLOCK_PREFIX.length()) : "";
        if (!digits.matches("0|[1-9]\\d?") || Integer.parseInt(digits) > MAX_RETRIES) {
            return -1;
        }
        return Integer.parseInt(digits);
    }

    /** The {@code dlqId} of the dead letter with {@code sequence} on the clock with {@code retries}. */
    public static String dlqId(int retries, long sequence) {
        return "dlq_" + retries + "_" + sequence;
    }

    /**
     * The retry count and sequence a {@link #dlqId} names.
     *
     * @throws ProblemException {@code delivery_not_found} for a text that is no dlqId
     */
    public static long[] ofDlqId(String dlqId) {
        Matcher matcher = DLQ_ID.matcher(dlqId);
        if (matcher.matches() && matcher.group(1).length() <= 2 && matcher.group(2).length() <= 18) {
            int retries = Integer.parseInt(matcher.group(1));
            if (retries <= MAX_RETRIES) {
                return new long[] {retries, Long.parseLong(matcher.group(2))};
            }
        }
        throw new ProblemException(ErrorCode.DELIVERY_NOT_FOUND, "no dead letter has the dlqId " + dlqId);
    }

    /** The settings of {@link #clockName}: push to the placeholder, {@code retries + 1} attempts, the dedupe window. */
    public static ClockSettings clockSettings(ClockSettings.Mode mode, int retries) {
        PushTarget target = new PushTarget(PLACEHOLDER_URL, PushTarget.MAX_TIMEOUT_MILLIS,
                PushTarget.DEFAULT_CONCURRENCY, Map.of(), List.of());
        RetryPolicy retry = new RetryPolicy(retries + 1, 12_000, 2.0, 24 * 60 * 60 * 1000L, 0.2);
        return new ClockSettings(mode, ClockSettings.DeliveryMode.PUSH, retry, null, target)
                .withDedupeWindow(DEDUPE_WINDOW_MILLIS);
    }

    /** {@code Upstash-Retries}: 0 to {@value #MAX_RETRIES}, {@value #DEFAULT_RETRIES} when absent. */
    public static int retries(String header) {
        if (header == null) {
            return DEFAULT_RETRIES;
        }
        try {
            int retries = Integer.parseInt(header.trim());
            if (retries >= 0 && retries <= MAX_RETRIES) {
                return retries;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw invalid("Upstash-Retries must be an integer 0 to " + MAX_RETRIES + ": " + header);
    }

    /**
     * A QStash duration ({@code Upstash-Delay}, {@code Upstash-Timeout}): digits and a unit, ms, s, m, h or d
     * ("10s", "5m"; a bare number is seconds); null when absent.
     */
    public static Long durationMillis(String name, String header) {
        if (header == null) {
            return null;
        }
        String text = header.trim();
        if (text.matches("\\d{1,9}")) {
            text += "s";
        }
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            throw invalid(name + " must be a number and a unit (ms, s, m, h, d), e.g. 10s: " + header);
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> amount;
            case "s" -> amount * 1000;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            default -> amount * 86_400_000;
        };
    }

    /** {@code Upstash-Timeout} as an attempt's timeout: {@link PushTarget}'s range, its maximum when absent. */
    public static long timeoutMillis(String header) {
        Long timeout = durationMillis("Upstash-Timeout", header);
        if (timeout == null) {
            return DEFAULT_TIMEOUT_MILLIS;
        }
        if (timeout < PushTarget.MIN_TIMEOUT_MILLIS || timeout > PushTarget.MAX_TIMEOUT_MILLIS) {
            throw invalid("Upstash-Timeout must be " + PushTarget.MIN_TIMEOUT_MILLIS + " ms to "
                    + PushTarget.MAX_TIMEOUT_MILLIS / 1000 + " s: " + header);
        }
        return timeout;
    }

    /** {@code Upstash-Not-Before}: Unix seconds, as epoch milliseconds of the clock; null when absent. */
    public static Long notBeforeMillis(String header) {
        if (header == null) {
            return null;
        }
        try {
            long seconds = Long.parseLong(header.trim());
            if (seconds >= 0 && seconds <= Long.MAX_VALUE / 1000) {
                return seconds * 1000;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw invalid("Upstash-Not-Before must be Unix seconds: " + header);
    }

    /** {@code Upstash-Method}: an HTTP method token in capitals, POST when absent. */
    public static String method(String header) {
        if (header == null || header.isBlank()) {
            return "POST";
        }
        String method = header.trim().toUpperCase(java.util.Locale.ROOT);
        if (!List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS").contains(method)) {
            throw invalid("Upstash-Method must be GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS: " + header);
        }
        return method;
    }

    /** A header that QStash takes but TimeService does not do yet: refused rather than ignored. */
    public static ProblemException unsupported(String header) {
        return invalid(header + " is not supported by TimeService's QStash API yet (docs/DROP-IN.md)");
    }

    /** {@code clock} exists with other settings than a QStash clock's: made by hand, or with another mode. */
    public static ProblemException clockTaken(String clock) {
        return new ProblemException(ErrorCode.CLOCK_CONFLICT, "clock " + clock + " exists with other settings than"
                + " the QStash clock of that name would have (docs/DROP-IN.md): delete it or use another retry count");
    }

    private static ProblemException invalid(String message) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, message);
    }
}
