package io.timeservice.store.memory.journal;

/**
 * The table of the journal's record tags: every tag a record body may start with, the family whose codec reads and
 * writes it, the format version since which it is written, and the version since which it is no longer written
 * (0: written now). {@link RecordCodec} reads a body's tag here and hands the body to its family. Each constant's
 * comment gives the fields after the tag (big-endian integers; strings as u32 length + UTF-8, -1 for none); the
 * history of the format is in docs/DURABILITY.md.
 */
enum RecordTag {

    /** sequence, fireTime, priority u32, version, createdAt, createdAtWallMillis, id, payload. */
    ADDED(1, Family.TIMER, 1, 0),
    /** sequence, id. */
    CANCELLED(2, Family.TIMER, 1, 0),
    /** sequence, fireTime, priority u32, version, id. */
    EDITED(3, Family.TIMER, 1, 0),
    /** now. */
    ADVANCED(4, Family.TIMER, 1, 0),
    /** nothing. */
    RESET(5, Family.TIMER, 1, 0),
    /** upTo. */
    SEQUENCES_RESERVED(6, Family.TIMER, 2, 0),
    /** number u32, now, createdAtWallMillis, firstSequence, name: a virtual clock, as settings came to be written. */
    CLOCK_CREATED(7, Family.CLOCK, 3, 4),
    /** number u32, then the record of that clock (tag and fields); outermost only. */
    ON_CLOCK(8, Family.CLOCK, 3, 0),
    /** nothing; only inside a record of a clock. */
    CLOCK_DELETED(9, Family.CLOCK, 3, 0),
    /** now, count u32: a bounded advance that stopped at its limit. */
    ADVANCED_FIRING(10, Family.TIMER, 3, 0),
    /** count u32, then each part's own body (an add, edit, cancel or, since version 14, replace): an atomic batch. */
    BATCH(11, Family.TIMER, 3, 0),
    /** as {@link #CLOCK_CREATED}, then the settings. */
    CLOCK_CREATED_WITH_SETTINGS(12, Family.CLOCK, 4, 0),
    /** settings: the clock's settings changed. */
    CLOCK_CONFIGURED(13, Family.SETTINGS, 4, 0),
    /** now: deliveries settled. */
    DELIVERIES_SETTLED(14, Family.DELIVERY, 4, 0),
    /** now, leaseMillis, count u32 and that many claims. */
    CLAIMED(15, Family.DELIVERY, 4, 0),
    /** claim. */
    ACKED(16, Family.DELIVERY, 4, 0),
    /** claim, now, retryAt. */
    NACKED(17, Family.DELIVERY, 4, 0),
    /** claim, now, leaseMillis. */
    EXTENDED(18, Family.DELIVERY, 4, 0),
    /** now, count u32 and that many sequences. */
    REDRIVEN(19, Family.DELIVERY, 4, 0),
    /** count u32 and that many sequences. */
    DEAD_DELETED(20, Family.DELIVERY, 4, 0),
    /** now. */
    LEASES_RENEWED(21, Family.DELIVERY, 4, 0),
    /**
     * sequence, fireTime, priority u32, attempt u32, state u8, leaseUntil, leaseMillis, retryAt, readyAt, id, payload,
     * claim, deadReason: a delivery as a snapshot, or a loaded clock's record, keeps it (never a record of its own).
     */
    SAVED_DELIVERY(22, Family.DELIVERY, 4, 0),
    /** count u32 and that many claims: acked together. */
    ACKED_ALL(23, Family.DELIVERY, 4, 0),
    /** now: a queueing clock's time moved with nothing fired. */
    PASSED(24, Family.TIMER, 6, 0),
    /** number u64, then the record of that clock: {@link #ON_CLOCK} for a number past u32. */
    ON_WIDE_CLOCK(25, Family.CLOCK, 7, 0),
    /** as {@link #CLOCK_CREATED_WITH_SETTINGS} with number u64. */
    WIDE_CLOCK_CREATED(26, Family.CLOCK, 7, 0),
    /** number, source, createdAtWallMillis, lastSequence, name: a fork without the source's time. */
    CLOCK_FORKED(27, Family.CLOCK, 7, 12),
    /** now, wallMillis, sequence, id, spec ({@link ScheduleRecords}). */
    SCHEDULE_PUT(28, Family.SCHEDULE, 8, 0),
    /** id. */
    SCHEDULE_DELETED(29, Family.SCHEDULE, 8, 0),
    /** id. */
    SCHEDULE_PAUSED(30, Family.SCHEDULE, 8, 0),
    /** now, wallMillis, sequence, id. */
    SCHEDULE_RESUMED(31, Family.SCHEDULE, 8, 0),
    /** now, wallMillis, sequence, id. */
    SCHEDULE_TRIGGERED(32, Family.SCHEDULE, 8, 0),
    /** now, maxPops u32, firstSequence, wallMillis. */
    SCHEDULED_FIRING(33, Family.SCHEDULE, 8, 0),
    /** claim, reason: a delivery sent to the dead letters at once. */
    REJECTED(34, Family.DELIVERY, 9, 0),
    /**
     * number, createdAtWallMillis, name, now, firedThrough, lastSequence, settings, count u32 and that many
     * {@link #ADDED} bodies, count u32 and that many {@link #SAVED_DELIVERY} bodies, then (since version 13) the
     * schedule section ({@link ScheduleRecords#putSection}): a whole clock loaded from a saved one.
     */
    CLOCK_LOADED(38, Family.CLOCK, 7, 0),
    /** number, source, createdAtWallMillis, lastSequence, copiedAt, name: a fork with the source's time. */
    CLOCK_FORKED_AT(39, Family.CLOCK, 12, 0),
    /** as {@link #WIDE_CLOCK_CREATED}, with settings of mode scaled. */
    SCALED_CLOCK_CREATED(42, Family.CLOCK, 11, 0),
    /** wallAnchor, clockAnchor, rate in millionths: a scaled clock's rate changed. */
    RATE_CHANGED(43, Family.SETTINGS, 11, 0),
    /** id: a reserved id released before its dedupe window ended. */
    RESERVATION_RELEASED(44, Family.TIMER, JournalFiles.DEDUPE_FORMAT_VERSION, 0),
    /** sequence, fireTime, priority u32, version, id, payload: a pending timer replaced by an add (onConflict). */
    REPLACED(45, Family.TIMER, JournalFiles.DEDUPE_FORMAT_VERSION, 0),
    /** now, key, u32 concurrency, u64 rate limit, u64 rate period (each 0 when the override leaves it): an override. */
    FLOW_KEY_PUT(46, Family.SETTINGS, JournalFiles.FLOW_KEYS_FORMAT_VERSION, 0),
    /** now, key: a key's override deleted. */
    FLOW_KEY_DELETED(47, Family.SETTINGS, JournalFiles.FLOW_KEYS_FORMAT_VERSION, 0),
    /** now, settings: a live clock's settings changed (paused, resumed, retry policy, clock-wide flow limits, push). */
    CLOCK_CHANGED(48, Family.SETTINGS, JournalFiles.CLOCK_CHANGE_FORMAT_VERSION, 0),
    /**
     * count u32, then that many parts, each a clock's number u64 and a {@link #BATCH} body: a batch across clocks,
     * every part accepted together (outermost only; the default clock is number 0 here).
     */
    ACROSS_CLOCKS(49, Family.CLOCK, JournalFiles.ACROSS_CLOCKS_FORMAT_VERSION, 0),
    /** as {@link #ADDED}, then the timer's flow-control key: a timer with a key (a snapshot's timer too). */
    KEYED_ADDED(50, Family.TIMER, JournalFiles.FLOW_FORMAT_VERSION, 0),
    /** as {@link #SAVED_DELIVERY}, then the delivery's flow-control key. */
    KEYED_SAVED_DELIVERY(51, Family.DELIVERY, JournalFiles.FLOW_FORMAT_VERSION, 0),
    /** now, leaseMillis, claims (as {@link #CLAIMED}), then the claimed sequences as {@link #REDRIVEN} holds them. */
    FLOW_CLAIMED(52, Family.DELIVERY, JournalFiles.FLOW_FORMAT_VERSION, 0),
    /**
     * as {@link #ADDED}, then the flow-control key, then the trace context: a timer that has both (written instead
     * of {@link #KEYED_ADDED} and {@link #TRACED_ADDED}, which each keep only one of them).
     */
    KEYED_TRACED_ADDED(53, Family.TIMER, JournalFiles.TRACE_CONTEXT_FORMAT_VERSION, 0),
    /** as {@link #SAVED_DELIVERY}, then the key, then the trace context: a delivery that has both. */
    KEYED_TRACED_SAVED_DELIVERY(54, Family.DELIVERY, JournalFiles.TRACE_CONTEXT_FORMAT_VERSION, 0),
    /**
     * as {@link #ADDED}, then the trace context of the request that added it (issue 46; {@code TraceContext}):
     * written instead of {@link #ADDED} for a timer that has one.
     */
    TRACED_ADDED(56, Family.TIMER, JournalFiles.TRACE_CONTEXT_FORMAT_VERSION, 0),
    /** as {@link #SAVED_DELIVERY}, then the trace context: written instead of it for a delivery that has one. */
    TRACED_SAVED_DELIVERY(57, Family.DELIVERY, JournalFiles.TRACE_CONTEXT_FORMAT_VERSION, 0);

    /** The codecs of the record families, one type each. */
    enum Family {
        /** {@link TimerRecords}: a clock's timers and time. */
        TIMER,
        /** {@link ClockRecords}: clocks created, forked, loaded, deleted, and the records of a clock. */
        CLOCK,
        /** {@link DeliveryRecords}: deliveries claimed, settled, acked, retried and dead. */
        DELIVERY,
        /** {@link SettingsRecords}: a clock's settings and rate. */
        SETTINGS,
        /** {@link ScheduleRecords}: a clock's schedules. */
        SCHEDULE
    }

    private static final RecordTag[] BY_CODE = new RecordTag[128];

    static {
        for (RecordTag tag : values()) {
            if (BY_CODE[tag.code] != null) {
                throw new ExceptionInInitializerError("record tag " + tag.code + " twice");
            }
            BY_CODE[tag.code] = tag;
        }
    }

    /** The byte a body starts with. */
    final byte code;
    final Family family;
    /** The format version since which records of this tag are written. */
    final int since;
    /** The format version since which they are no longer written, only read; 0 while they are written. */
    final int retiredIn;

    RecordTag(int code, Family family, int since, int retiredIn) {
        this.code = (byte) code;
        this.family = family;
        this.since = since;
        this.retiredIn = retiredIn;
    }

    /** The tag a body starts with, or null when {@code code} is no tag. */
    static RecordTag of(byte code) {
        return code > 0 ? BY_CODE[code] : null;
    }

    /**
     * The tag for a body of kind {@code plain} ({@link #ADDED} or {@link #SAVED_DELIVERY}) whose timer or delivery
     * has the flow-control {@code key} and the trace {@code context} (each null: none): the plain tag, or its keyed,
     * traced or keyed-and-traced form, which append the key, then the context.
     */
    static RecordTag withExtras(RecordTag plain, String key, String context) {
        boolean added = plain == ADDED;
        if (!added && plain != SAVED_DELIVERY) {
            throw new IllegalArgumentException("no keyed or traced form of " + plain);
        }
        if (key == null) {
            return context == null ? plain : added ? TRACED_ADDED : TRACED_SAVED_DELIVERY;
        }
        return context == null ? (added ? KEYED_ADDED : KEYED_SAVED_DELIVERY)
                : added ? KEYED_TRACED_ADDED : KEYED_TRACED_SAVED_DELIVERY;
    }

    /** Whether a body of this tag ends with a flow-control key (before a trace context, if any). */
    boolean keyed() {
        return this == KEYED_ADDED || this == KEYED_SAVED_DELIVERY || this == KEYED_TRACED_ADDED
                || this == KEYED_TRACED_SAVED_DELIVERY;
    }

    /** Whether a body of this tag ends with a trace context. */
    boolean traced() {
        return this == TRACED_ADDED || this == TRACED_SAVED_DELIVERY || this == KEYED_TRACED_ADDED
                || this == KEYED_TRACED_SAVED_DELIVERY;
    }

    /** Whether this version still writes records of this tag. */
    boolean written() {
        return retiredIn == 0;
    }
}
