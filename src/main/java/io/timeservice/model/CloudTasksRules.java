package io.timeservice.model;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rulebook of the Cloud Tasks drop-in API (issue 47, docs/DROP-IN.md): names, how a queue becomes a clock, and
 * the JSON encodings of durations and timestamps Google's REST API uses.
 *
 * <p>A queue {@code projects/P/locations/L/queues/Q} is the push clock {@code ct~P~L~Q} ({@link #clockName}; '~' is
 * in no part, so the clock names the queue back). Its push target is {@link #PLACEHOLDER_HOST}, never reached: the
 * pusher sends each task to its own URL. The target URL's query keeps what a clock setting does not hold (the retry
 * config's {@code maxDoublings}, an unlimited {@code maxAttempts}, the rate as given), so the queue reads back as it
 * was created or last updated (an update changes the target with the other settings, {@link ClockChange}). Task names stay reserved for {@link #DEDUPE_WINDOW_MILLIS} after the task
 * ran or was deleted, as Cloud Tasks keeps them.
 */
public final class CloudTasksRules {

    public static final String CLOCK_PREFIX = "ct~";
    public static final String PLACEHOLDER_HOST = "cloudtasks.invalid";
    public static final long DEDUPE_WINDOW_MILLIS = 60 * 60 * 1000L;
    /** Cloud Tasks' defaults for a queue that does not say. */
    public static final double DEFAULT_DISPATCHES_PER_SECOND = 500;
    public static final int DEFAULT_CONCURRENT_DISPATCHES = 1_000;
    public static final int DEFAULT_MAX_ATTEMPTS = 100;
    public static final long DEFAULT_MIN_BACKOFF_MILLIS = 100;
    public static final long DEFAULT_MAX_BACKOFF_MILLIS = 3_600_000;
    public static final int DEFAULT_MAX_DOUBLINGS = 16;
    /** A task's dispatch deadline: Cloud Tasks' range and default. */
    public static final long MIN_DEADLINE_MILLIS = 15_000;
    public static final long MAX_DEADLINE_MILLIS = 30 * 60_000L;
    public static final long DEFAULT_DEADLINE_MILLIS = 10 * 60_000L;
    public static final List<String> METHODS = List.of("POST", "GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS");

    private static final Pattern PROJECT = Pattern.compile("[A-Za-z0-9:.-]{1,100}");
    private static final Pattern LOCATION = Pattern.compile("[A-Za-z0-9-]{1,63}");
    private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9-]{1,100}");
    private static final Pattern TASK = Pattern.compile("[A-Za-z0-9_-]{1," + Limits.MAX_ID_LENGTH + "}");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(\\.\\d{1,9})?s");

    private CloudTasksRules() {
    }

    /** A queue's name in its parts, each checked. */
    public record QueueName(String project, String location, String queue) {

        public QueueName {
            requireMatch(PROJECT, project, "project id");
            requireMatch(LOCATION, location, "location id");
            requireMatch(QUEUE, queue, "queue id");
            String clock = clockName(project, location, queue);
            if (clock.length() > Limits.MAX_CLOCK_NAME_LENGTH) {
                throw invalid("the queue's clock name " + clock + " is longer than " + Limits.MAX_CLOCK_NAME_LENGTH
                        + " characters (docs/DROP-IN.md): use shorter project, location or queue ids");
            }
        }

        /** The queue of the clock {@code clock}, or null for a clock that is no queue's. */
        public static QueueName ofClock(String clock) {
            if (!clock.startsWith(CLOCK_PREFIX)) {
                return null;
            }
            String[] parts = clock.substring(CLOCK_PREFIX.length()).split("~", -1);
            try {
                return parts.length == 3 ? new QueueName(parts[0], parts[1], parts[2]) : null;
            } catch (ProblemException notAQueue) {
                return null;
            }
        }

        public String clock() {
            return clockName(project, location, queue);
        }

        /** {@code projects/P/locations/L/queues/Q}. */
        public String path() {
            return parent(project, location) + "/queues/" + queue;
        }
    }

    /** {@code projects/P/locations/L}. */
    public static String parent(String project, String location) {
        return "projects/" + project + "/locations/" + location;
    }

    /** The prefix every clock of a queue under {@code project} and {@code location} starts with. */
    public static String clockPrefix(String project, String location) {
        requireMatch(PROJECT, project, "project id");
        requireMatch(LOCATION, location, "location id");
        return CLOCK_PREFIX + project + "~" + location + "~";
    }

    private static String clockName(String project, String location, String queue) {
        return CLOCK_PREFIX + project + "~" + location + "~" + queue;
    }

    /** A task id: letters, digits, hyphens and underscores, at most TimeService's id length. */
    public static String requireTaskId(String id) {
        requireMatch(TASK, id, "task id");
        return id;
    }

    /**
     * A queue's configuration as Cloud Tasks shows it.
     *
     * @param maxDispatchesPerSecond  the queue's rate (0 &lt; rate &lt;= 500)
     * @param maxConcurrentDispatches most tasks in flight (1 to 5,000)
     * @param maxAttempts             attempts before a task is dead; -1 unlimited (TimeService's most, 1,000)
     * @param maxRetryDurationMillis  retries go on past maxAttempts until this long after the task was due; 0 none
     * @param minBackoffMillis        the first retry's wait
     * @param maxBackoffMillis        the longest wait
     * @param maxDoublings            kept and shown: waits double from minBackoff up to maxBackoff
     */
    public record QueueConfig(double maxDispatchesPerSecond, int maxConcurrentDispatches, int maxAttempts,
                              long maxRetryDurationMillis, long minBackoffMillis, long maxBackoffMillis,
                              int maxDoublings) {

        public static final QueueConfig DEFAULT = new QueueConfig(DEFAULT_DISPATCHES_PER_SECOND,
                DEFAULT_CONCURRENT_DISPATCHES, DEFAULT_MAX_ATTEMPTS, 0, DEFAULT_MIN_BACKOFF_MILLIS,
                DEFAULT_MAX_BACKOFF_MILLIS, DEFAULT_MAX_DOUBLINGS);

        public QueueConfig {
            if (!(maxDispatchesPerSecond > 0 && maxDispatchesPerSecond <= 500)) {
                throw invalid("rateLimits.maxDispatchesPerSecond must be more than 0 and at most 500: "
                        + maxDispatchesPerSecond);
            }
            if (maxConcurrentDispatches < 1 || maxConcurrentDispatches > 5_000) {
                throw invalid("rateLimits.maxConcurrentDispatches must be 1 to 5000: " + maxConcurrentDispatches);
            }
            if (maxAttempts < -1 || maxAttempts == 0 || maxAttempts > RetryPolicy.MAX_ATTEMPTS) {
                throw invalid("retryConfig.maxAttempts must be -1 (unlimited) or 1 to " + RetryPolicy.MAX_ATTEMPTS
                        + ": " + maxAttempts);
            }
            if (maxRetryDurationMillis < 0 || maxRetryDurationMillis > RetryPolicy.MAX_RETRY_DURATION_MILLIS) {
                throw invalid("retryConfig.maxRetryDuration must be 0 (unlimited) to 31 days: "
                        + formatDuration(maxRetryDurationMillis));
            }
            if (maxDoublings < 0 || maxDoublings > 1_000) {
                throw invalid("retryConfig.maxDoublings must be 0 to 1000: " + maxDoublings);
            }
            if (maxBackoffMillis < minBackoffMillis || maxBackoffMillis > RetryPolicy.MAX_BACKOFF_MILLIS) {
                throw invalid("retryConfig.maxBackoff must be at least minBackoff and at most 7 days: "
                        + formatDuration(maxBackoffMillis));
            }
        }

        /**
         * The push clock that holds this queue's tasks, virtual or system by {@code mode}: its rate limits as the
         * clock's own flow limits (always, so that an update can change them), its retry config as the retry policy.
         * Unlimited attempts are TimeService's most, or 1 beside a maxRetryDuration (then the duration alone ends
         * retries, as Cloud Tasks does).
         */
        public ClockSettings clockSettings(ClockSettings.Mode mode) {
            if (mode == ClockSettings.Mode.SCALED) {
                throw invalid("a queue's clock is virtual or system, not scaled");
            }
            return new ClockSettings(mode, ClockSettings.DeliveryMode.PUSH, retryPolicy(), null, pushTarget(),
                    DEDUPE_WINDOW_MILLIS, new FlowLimits(null, null, null, maxConcurrentDispatches,
                    flowRate(maxDispatchesPerSecond)));
        }

        /**
         * The change that gives a queue's clock this configuration (an UpdateQueue): retry policy, clock-wide limits
         * and the placeholder target that keeps what they do not hold.
         */
        public ClockChange change() {
            return new ClockChange(null, retryPolicy(), maxConcurrentDispatches, flowRate(maxDispatchesPerSecond),
                    pushTarget());
        }

        private RetryPolicy retryPolicy() {
            int attempts = maxAttempts != -1 ? maxAttempts : maxRetryDurationMillis > 0 ? 1 : RetryPolicy.MAX_ATTEMPTS;
            return new RetryPolicy(attempts, minBackoffMillis, 2.0, maxBackoffMillis, 0.0, maxRetryDurationMillis);
        }

        private PushTarget pushTarget() {
            return new PushTarget("http://" + PLACEHOLDER_HOST + "/?maxAttempts=" + maxAttempts + "&maxDoublings="
                    + maxDoublings + "&maxDispatchesPerSecond=" + BigDecimal.valueOf(maxDispatchesPerSecond)
                    .toPlainString(), PushTarget.MAX_TIMEOUT_MILLIS, PushTarget.DEFAULT_CONCURRENCY, Map.of(),
                    List.of());
        }

        /** The configuration a queue's clock was made with, or null when {@code settings} are no queue's. */
        public static QueueConfig of(ClockSettings settings) {
            if (!isQueueTarget(settings.push())) {
                return null;
            }
            Map<String, String> extras = new LinkedHashMap<>();
            for (String pair : settings.push().uri().getRawQuery().split("&")) {
                int equals = pair.indexOf('=');
                extras.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
            FlowLimits flow = settings.flow();
            RetryPolicy retry = settings.retry();
            return new QueueConfig(Double.parseDouble(extras.get("maxDispatchesPerSecond")),
                    flow == null || flow.clockConcurrency() == null ? DEFAULT_CONCURRENT_DISPATCHES
                            : flow.clockConcurrency(),
                    Integer.parseInt(extras.get("maxAttempts")), retry.maxRetryDurationMillis(),
                    retry.initialBackoffMillis(), retry.maxBackoffMillis(), Integer.parseInt(extras.get("maxDoublings")));
        }

        /** Cloud Tasks' output-only {@code maxBurstSize}: the bucket of the clock's rate. */
        public long maxBurstSize() {
            return flowRate(maxDispatchesPerSecond).limit();
        }
    }

    /** Whether {@code target} is the placeholder of a queue's clock (its tasks carry their own URLs). */
    public static boolean isQueueTarget(PushTarget target) {
        return target != null && PLACEHOLDER_HOST.equals(target.uri().getHost());
    }

    /** A rate per second as tokens per period: whole rates per second, others per 10 s or as one per period. */
    static FlowRate flowRate(double perSecond) {
        if (perSecond == Math.rint(perSecond)) {
            return new FlowRate((long) perSecond, 1_000);
        }
        if (perSecond < 1) {
            return new FlowRate(1, Math.round(1_000 / perSecond));
        }
        return new FlowRate(Math.round(perSecond * 10), 10_000);
    }

    /** A protobuf JSON duration ("3s", "0.100s") in milliseconds; {@code member} names it in a refusal. */
    public static long parseDuration(String member, String text) {
        if (text == null || !DURATION.matcher(text).matches()) {
            throw invalid(member + " must be a duration such as \"10s\" or \"0.5s\": " + text);
        }
        return new BigDecimal(text.substring(0, text.length() - 1)).movePointRight(3).longValue();
    }

    /** Milliseconds as a protobuf JSON duration: "10s", "0.100s". */
    public static String formatDuration(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : BigDecimal.valueOf(millis).movePointLeft(3).toPlainString()
                + "s";
    }

    /** An RFC 3339 timestamp in epoch milliseconds (a clock's reading). */
    public static long parseTimestamp(String member, String text) {
        try {
            Instant instant = Instant.parse(text);
            long millis = instant.toEpochMilli();
            if (millis < 0 || millis > Limits.MAX_TIME) {
                throw invalid(member + " must be from 1970 on: " + text);
            }
            return millis;
        } catch (DateTimeParseException | ArithmeticException e) {
            throw invalid(member + " must be an RFC 3339 timestamp such as \"2026-12-08T10:00:00Z\": " + text);
        }
    }

    /** Epoch milliseconds as an RFC 3339 timestamp. */
    public static String formatTimestamp(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }

    /** {@code httpRequest.httpMethod}: POST when unset. */
    public static String method(String method) {
        if (method == null || method.isEmpty() || method.equals("HTTP_METHOD_UNSPECIFIED")) {
            return "POST";
        }
        if (!METHODS.contains(method)) {
            throw invalid("httpRequest.httpMethod must be one of " + METHODS + ": " + method);
        }
        return method;
    }

    /** {@code dispatchDeadline}: Cloud Tasks' range, 15 s to 30 min; 10 min when unset. */
    public static long dispatchDeadlineMillis(String text) {
        if (text == null) {
            return DEFAULT_DEADLINE_MILLIS;
        }
        long millis = parseDuration("dispatchDeadline", text);
        if (millis < MIN_DEADLINE_MILLIS || millis > MAX_DEADLINE_MILLIS) {
            throw invalid("dispatchDeadline must be 15s to 1800s: " + text);
        }
        return millis;
    }

    /** The target URL's host must be reachable as any push target's; this checks its form only. */
    public static String requireUrl(String url) {
        if (url == null || url.isEmpty()) {
            throw invalid("httpRequest.url is required");
        }
        try {
            String scheme = URI.create(url).getScheme();
            if (scheme == null || !(scheme.equals("http") || scheme.equals("https"))) {
                throw invalid("httpRequest.url must be an http or https URL: " + url);
            }
        } catch (IllegalArgumentException e) {
            throw invalid("httpRequest.url is not a URL: " + url);
        }
        return url;
    }

    private static void requireMatch(Pattern pattern, String value, String what) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw invalid("the " + what + " must match " + pattern.pattern() + ": " + value);
        }
    }

    private static ProblemException invalid(String message) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, message);
    }
}
