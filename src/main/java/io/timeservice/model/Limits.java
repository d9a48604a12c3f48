package io.timeservice.model;


/**
 * Every fixed bound of the API, in one place for both stores and the web layer: docs/API.md and openapi.yaml quote
 * these values. Limits an operator sets (capacity, clock count, payload size) are configuration, not here.
 */
public final class Limits {

    /** Largest delay or advance accepted: 10^15 ms, about 31,700 years. */
    public static final long MAX_DELAY = 1_000_000_000_000_000L;

    /** Longest dedupe window of a clock: 30 days in milliseconds. */
    public static final long MAX_DEDUPE_WINDOW = 30L * 24 * 60 * 60 * 1000;
    /**
     * The end of time: the latest time a clock shows and the latest any time it holds may be (a timer's fireTime, a
     * schedule's start, end and occurrences, a lease's end, a retry's time), 2^53 - 1 ms, in the year 287,396: the
     * largest integer every JSON client reads exactly (JavaScript's {@code Number.MAX_SAFE_INTEGER}). A time a client
     * names past it is refused (a clock's now, a delay, an at, an advance, a schedule's start or end); a time the
     * service computes past it saturates there (a lease's end, a retry's time, a scaled clock's time); a schedule has
     * no occurrence past it. So every clock the service can reach saves a document its load takes, and no sum of such
     * a time and a bounded duration comes near {@link Long#MAX_VALUE}: no time wraps, none is out of java.time's range.
     */
    public static final long MAX_TIME = (1L << 53) - 1;
    /** Longest timer id; a clock name is at most {@link #MAX_CLOCK_NAME_LENGTH}. */
    public static final int MAX_ID_LENGTH = 128;
    public static final int MAX_CLOCK_NAME_LENGTH = 64;
    /** The clock that every instance has and that the timer paths without a clock name. */
    public static final String DEFAULT_CLOCK = "default";
    /** Most operations one batch holds. */
    public static final int MAX_BATCH_OPS = 1_000;
    /**
     * Most timers an advance with a trace may fire: a trace holds about d+1 steps per heap level per fired timer,
     * all of it in memory under the lock and then in one response, so a larger traced advance is refused up front.
     */
    public static final int MAX_TRACED_FIRES = 1_000;
    /** Most deliveries one claim takes, and most acknowledgements one batch ack holds. */
    public static final int MAX_CLAIM = 1_000;
    public static final long MIN_LEASE_MILLIS = 1_000;
    public static final long MAX_LEASE_MILLIS = 12L * 60 * 60 * 1000;
    public static final long DEFAULT_LEASE_MILLIS = 30_000;
    public static final long MAX_CLAIM_WAIT_MILLIS = 30_000;
    /**
     * The {@code Retry-After} (seconds) of every 503 {@code storage_unavailable}: a database failover (the pool's
     * connection timeout, 3 s, plus the time to promote a standby) is over within a few such retries.
     */
    public static final int STORAGE_RETRY_AFTER_SECONDS = 1;
    /**
     * Most dead deliveries one redrive or delete of an id takes: the first by sequence; a call again takes the next.
     * Bounds the time one call holds its clock and the size of its journal record and answer.
     */
    public static final int MAX_DEAD_LETTERS_PER_CALL = 100_000;

    /**
     * The least default of {@code timeservice.limits.max-snapshot-bytes}, the largest snapshot document a load reads;
     * unset, it follows the capacity (up to {@link #MAX_SNAPSHOT_BYTES}, see {@link SnapshotSizes}).
     */
    public static final int DEFAULT_MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
    /** The most {@code timeservice.limits.max-snapshot-bytes} may be: a loaded clock is one journal record. */
    public static final int MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
    /** Longest schedule id: its occurrences' timer ids ({@code <id>:<time>}) stay within {@link #MAX_ID_LENGTH}. */
    public static final int MAX_SCHEDULE_ID_LENGTH = 100;
    /** Shortest interval of an {@code every} schedule. */
    public static final long MIN_EVERY_MILLIS = 1_000;
    /** Most times one {@code next} call lists, and how many it lists when not told. */
    public static final int MAX_NEXT_COUNT = 1_000;
    public static final int DEFAULT_NEXT_COUNT = 10;
    /**
     * On a wall clock an occurrence reached this late (or with its successor due as well) was missed, and
     * {@code catchUp} decides whether it fires; one reached sooner is on time.
     */
    public static final long MISSED_AFTER_MILLIS = 60_000;
    /**
     * Most skipped occurrences of one schedule that one step counts; past it the step moves the schedule on to its
     * first occurrence after the clock's new now without counting the rest. An interval's skips are counted by
     * arithmetic, in O(1) up to this bound; a cron's are found one by one, up to {@link #MAX_WALKED_SKIPS}.
     */
    public static final int MAX_COUNTED_SKIPS = 1_000_000;
    /**
     * Most skipped occurrences of one cron schedule that one step counts, each found by a step of the cron engine
     * (some microseconds): bounds the time under the clock's lock of, say, a secondly cron advanced across years.
     */
    public static final int MAX_WALKED_SKIPS = 10_000;

    private Limits() {
    }

    /**
     * What a timer counts against the byte budget: the characters of its id and payload, as {@link String#length()}
     * counts them. That is the bytes of its text in memory for the ASCII JSON payloads usually are (compact strings
     * keep Latin-1 text at one byte per character); other text takes two bytes per character. O(1), so every add,
     * cancel and fire keeps the total in a counter.
     */
    public static long bytesOf(String id, String payload) {
        return (long) id.length() + (payload == null ? 0 : payload.length());
    }
}
