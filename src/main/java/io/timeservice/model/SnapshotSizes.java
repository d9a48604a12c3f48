package io.timeservice.model;

/**
 * How large a clock's snapshot document ({@code GET /clocks/{clock}/snapshot}) can be, for the one limit its save
 * and its load share, {@code timeservice.limits.max-snapshot-bytes}: a load reads at most that many bytes, and a
 * save refuses ({@link #tooLargeToLoad}) a document its load would refuse, before it writes a byte.
 *
 * <p>The bounds are the document format's worst case: every number at its longest (20 characters), every member a
 * saved clock may leave out present, and every character of free text (a dead reason, a cron, a push header) escaped
 * as {@code \\uXXXX}. Ids, schedule ids and clock names are ASCII the document writes as they are; a payload is
 * written as the compact JSON it is, at most {@code max-payload-bytes} of UTF-8. A plain timer as clients usually add
 * them takes far less: 105 bytes plus its id and payload at wall-clock times ({@code docs/API.md}).
 */
public final class SnapshotSizes {

    /** The most bytes a JSON string's one character takes in the document: {@code \\uXXXX}. */
    public static final int MAX_BYTES_PER_CHAR = 6;
    /** A timer besides its id, schedule and payload: member names, six numbers, separators. */
    public static final int TIMER_FIXED_BYTES = 200;
    /** A delivery besides its id, schedule, dead reason and payload. */
    public static final int DELIVERY_FIXED_BYTES = 260;
    /** A schedule besides its id, cron, zone and payload. */
    public static final int SCHEDULE_FIXED_BYTES = 480;
    /** The document's frame and its clock besides a push target: settings, retry policy, now, nextSequence. */
    public static final int CLOCK_FIXED_BYTES = 1024;
    /**
     * The optional trace context of a timer or delivery (issue 46): {@code "traceparent"} (55 characters) and
     * {@code "tracestate"} (printable ASCII, each {@code "} or backslash escaped to 2 bytes) with their names.
     */
    public static final int TRACE_CONTEXT_BYTES = 40 + 55 + 2 * TraceContext.MAX_TRACESTATE;
    /** The most bytes of a push target: its URL and every header, each character escaped. */
    public static final int PUSH_BYTES = 128 + MAX_BYTES_PER_CHAR * PushTarget.MAX_URL_LENGTH
            + PushTarget.MAX_HEADERS * (8 + MAX_BYTES_PER_CHAR * (64 + PushTarget.MAX_HEADER_VALUE_LENGTH));

    private SnapshotSizes() {
    }

    /** The most bytes one pending timer takes. */
    public static long largestTimer(int maxPayloadBytes) {
        return TIMER_FIXED_BYTES + Limits.MAX_ID_LENGTH + Limits.MAX_SCHEDULE_ID_LENGTH + TRACE_CONTEXT_BYTES
                + (long) maxPayloadBytes;
    }

    /** The most bytes one delivery takes. */
    public static long largestDelivery(int maxPayloadBytes) {
        return DELIVERY_FIXED_BYTES + Limits.MAX_ID_LENGTH + Limits.MAX_SCHEDULE_ID_LENGTH + TRACE_CONTEXT_BYTES
                + (long) MAX_BYTES_PER_CHAR * SnapshotRules.MAX_DEAD_REASON_LENGTH + maxPayloadBytes;
    }

    /** The most bytes one schedule takes: its cron and zone came in one request body of at most that many bytes. */
    public static long largestSchedule(int maxPayloadBytes, int maxBodyBytes) {
        return SCHEDULE_FIXED_BYTES + Limits.MAX_SCHEDULE_ID_LENGTH + (long) MAX_BYTES_PER_CHAR * maxBodyBytes
                + maxPayloadBytes;
    }

    /**
     * The largest document of a clock that holds {@code timers} timers, {@code schedules} schedules and
     * {@code deliveries} deliveries, each at its largest: what {@code max-snapshot-bytes} must be for every such
     * clock to be saved and loaded back.
     */
    public static long largestDocument(long timers, long schedules, long deliveries, int maxPayloadBytes,
                                       int maxBodyBytes) {
        return CLOCK_FIXED_BYTES + PUSH_BYTES + timers * largestTimer(maxPayloadBytes)
                + schedules * largestSchedule(maxPayloadBytes, maxBodyBytes)
                + deliveries * largestDelivery(maxPayloadBytes);
    }

    /**
     * The refusal of a save whose document is over {@code maxSnapshotBytes}: a load of it would be refused (413), so
     * the save is refused the same way, before it writes a byte.
     */
    public static ProblemException tooLargeToLoad(String clock, long maxSnapshotBytes) {
        return new ProblemException(ErrorCode.PAYLOAD_TOO_LARGE, "the snapshot document of clock "
                + ClockRules.abbreviateClockName(clock) + " is over timeservice.limits.max-snapshot-bytes ("
                + maxSnapshotBytes + " bytes), the most a load reads, so it could not be loaded back: raise that limit"
                + " (at most " + Limits.MAX_SNAPSHOT_BYTES + ") on the saving and the loading service, or fork the"
                + " clock (PUT /clocks/{new} with copyOf) instead");
    }
}
