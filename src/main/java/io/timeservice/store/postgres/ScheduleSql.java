package io.timeservice.store.postgres;

/**
 * The statements of the schedules (table {@code schedules}, keyed by (clock, id), and their occurrence timers),
 * kept as SQL to be reviewed as SQL: a schedule's row ({@link ScheduleRows}), the calls on it
 * ({@link PostgresSchedules}), and the firing of its occurrences ({@link ScheduleFiring}). Every statement on a
 * schedule names its primary key, so each is one index lookup.
 */
final class ScheduleSql {

    private ScheduleSql() {
    }

    // A schedule's row (ScheduleRows).

    static final String COLUMNS = "id, cron, every_ms, zone, start_ms, end_ms, occurrence_limit, priority, payload,"
            + " catch_up, paused, pending, fired, skipped, triggered, taken, version, trace_context, key";
    static final String LOCK = "SELECT " + COLUMNS + " FROM schedules WHERE clock = ? AND id = ? FOR UPDATE";
    static final String LIST = "SELECT " + COLUMNS + " FROM schedules WHERE clock = ? ORDER BY id";
    /**
     * How many schedules a clock has, for its description (each clock of a page of {@code GET /clocks}): a range of
     * the primary key, at most {@code timeservice.schedules.max} entries over every clock. Parameter: the clock.
     */
    static final String COUNT_OF_CLOCK = "SELECT count(*) FROM schedules WHERE clock = ?";
    static final String INSERT = "INSERT INTO schedules (clock, " + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    static final String UPDATE = """
            UPDATE schedules SET cron = ?, every_ms = ?, zone = ?, start_ms = ?, end_ms = ?, occurrence_limit = ?,
                                 priority = ?, payload = ?, catch_up = ?, paused = ?, pending = ?, fired = ?,
                                 skipped = ?, triggered = ?, taken = ?, version = ?, trace_context = ?, key = ?
             WHERE clock = ? AND id = ?""";
    /**
     * An occurrence timer: a new row, or the same schedule's occurrence of that time kept (a triggered one becomes
     * the scheduled one: one timer per occurrence id); answers whether a row was inserted (a new timer for the
     * budget), and no row when a client's timer holds the id.
     */
    static final String INSERT_OCCURRENCE = """
            INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes, schedule, triggered,
                                system_clock, trace_context, key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT mode = 'system' FROM clocks WHERE name = ?), ?, ?)
            ON CONFLICT (clock, id) DO UPDATE SET triggered = timers.triggered AND EXCLUDED.triggered
             WHERE timers.schedule = EXCLUDED.schedule
            RETURNING xmax = 0""";
    static final String REMOVE_OCCURRENCE = "DELETE FROM timers WHERE clock = ? AND id = ? RETURNING bytes";

    // The calls on a schedule (PostgresSchedules).

    static final String GET = "SELECT " + COLUMNS + " FROM schedules WHERE clock = ? AND id = ?";
    static final String DELETE = "DELETE FROM schedules WHERE clock = ? AND id = ?";
    /** One more schedule within {@code timeservice.schedules.max}; no row when at it. Parameter: the limit. */
    static final String COUNT_ONE_MORE = "UPDATE schedule_count SET schedules = schedules + 1 WHERE schedules < ?";
    /** Parameter: how many schedules fewer. */
    static final String COUNT_FEWER = "UPDATE schedule_count SET schedules = schedules - ?";

    // Whole clocks' schedules: a fork's (PostgresClockCopy) and a load's (PostgresClockSnapshots).

    /**
     * Copies the schedules of one clock into another as they stand (counts, pending occurrence, version) and counts
     * them in {@code schedule_count}, beyond {@code timeservice.schedules.max} if need be: a fork copies whole, as a
     * recovered memory store counts what it rebuilt. Parameters: the copy, the source.
     */
    static final String COPY = """
            WITH copied AS (
                INSERT INTO schedules (clock, id, cron, every_ms, zone, start_ms, end_ms, occurrence_limit, priority,
                                       payload, catch_up, paused, pending, fired, skipped, triggered, taken, version,
                                       trace_context, key)
                SELECT ?, id, cron, every_ms, zone, start_ms, end_ms, occurrence_limit, priority, payload, catch_up,
                       paused, pending, fired, skipped, triggered, taken, version, trace_context, key
                  FROM schedules WHERE clock = ?
                RETURNING 1)
            UPDATE schedule_count SET schedules = schedules + (SELECT count(*) FROM copied)""";

    /** Counts a load's schedules, beyond {@code timeservice.schedules.max} if need be (as a fork does). Parameter: how many. */
    static final String COUNT_MORE = "UPDATE schedule_count SET schedules = schedules + ?";

    // The firing of occurrences (ScheduleFiring).

    /** Fires the first due timers of a virtual clock up to a horizon: deletes and returns them, with bytes and kind. */
    static final String TAKE_DUE = """
            WITH picked AS (
                SELECT seq FROM timers WHERE clock = ? AND fire_time <= ?
                 ORDER BY fire_time, priority, seq LIMIT ?),
            taken AS (
                DELETE FROM timers t USING picked WHERE t.seq = picked.seq RETURNING t.*)
            SELECT""" + " " + TimerRows.COLUMNS + ", bytes, triggered FROM taken ORDER BY " + TimerRows.FIRING_ORDER;
    /** The earliest occurrence timer of the clock due by a time, read from the firing-order index's due range. */
    static final String FIRST_OCCURRENCE_DUE =
            "SELECT min(fire_time) FROM timers WHERE clock = ? AND fire_time <= ? AND schedule IS NOT NULL";
    static final String ANY_DUE = "SELECT EXISTS (SELECT 1 FROM timers WHERE clock = ? AND fire_time <= ?)";
    /**
     * The ready delivery of an occurrence, its flow key ({@link StoredClock#flowKeyOf}) and system flag from its
     * clock's row. Parameters: sequence (null: a new one), clock, id, fire time, priority, version, created at,
     * payload, bytes, ready at, schedule, trace context, key twice, clock again.
     */
    static final String DELIVER = """
            INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                    ready_at, schedule, system_clock, trace_context, key, flow_key)
            SELECT COALESCE(?::bigint, nextval('timer_sequence')), ?::text, ?::text, ?::bigint, ?::int, ?::bigint,
                   ?::bigint, ?::text, ?::bigint, 'ready', ?::bigint, ?::text, c.mode = 'system', ?::text, ?::text,
                   CASE WHEN c.settings -> 'flow' IS NOT NULL THEN coalesce(?::text, '') END
              FROM clocks c WHERE c.name = ?""";
    /** Schedules of a clock that fires by itself (system, scaled) with an occurrence due by its own now. */
    static final String SCHEDULES_DUE = """
            SELECT DISTINCT schedule FROM (
                SELECT schedule FROM timers
                 WHERE clock = ? AND fire_time <= ? AND schedule IS NOT NULL
                 ORDER BY fire_time LIMIT ?) due""";
    /** Whether a clock holds a schedule, in any state (one primary-key probe). Parameters: clock, id. */
    static final String EXISTS = "SELECT EXISTS (SELECT 1 FROM schedules WHERE clock = ? AND id = ?)";
    static final String LOCK_IF_FREE = "SELECT " + COLUMNS
            + " FROM schedules WHERE clock = ? AND id = ? FOR UPDATE SKIP LOCKED";
    static final String TAKE_OCCURRENCES_DUE = "DELETE FROM timers WHERE clock = ? AND schedule = ?"
            + " AND fire_time <= ? RETURNING " + TimerRows.COLUMNS + ", bytes, triggered";
}
