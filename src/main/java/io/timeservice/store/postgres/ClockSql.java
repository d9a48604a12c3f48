package io.timeservice.store.postgres;

/**
 * The statements of the clocks (table {@code clocks}), kept as SQL to be reviewed as SQL: a clock's columns, its
 * creation, rate change, reads and deletion ({@link PostgresClockRegistry}, {@link ClockRows}), the demo's reset
 * ({@link PostgresTimerChanges#reset}), a fork ({@link PostgresClockCopy}) and a save and load
 * ({@link PostgresClockSnapshots}) of the whole clock. The columns ({@link #SELECT}) are read by every call that
 * reads or locks a clock. Parameters are positional ({@code ?}); each constant says them in order.
 */
final class ClockSql {

    private ClockSql() {
    }

    /**
     * A clock's columns; its retry policy's members are null when {@code settings} holds none (the default), its
     * rate and anchor null unless it is scaled; then its incarnation (V24); its dedupe window (V32, 0: none); the last
     * eight its flow control's members (issue 44, V35), each null when not set, the overrides of single keys flattened
     * to words ({@link ClockRows}: key, concurrency, rate limit, rate period, {@code -} for none, by key; keys follow
     * the id rules, so hold no space), so that the store reads no JSON; then whether it is paused and its retry
     * policy's maxRetryDuration (issue 47, both in {@code settings}: no column).
     */
    static final String SELECT = """
            SELECT name, mode, clock_now_ms(clocks), initial_now, delivery,
                   created_at, (settings #>> '{retry,maxAttempts}')::int, (settings #>> '{retry,initialBackoff}')::bigint,
                   (settings #>> '{retry,multiplier}')::float8, (settings #>> '{retry,maxBackoff}')::bigint,
                   (settings #>> '{retry,jitter}')::float8, rate_millionths, anchor_wall, now_ms, push_url,
                   push_timeout, push_concurrency, push_header_names, push_header_values, push_secrets, incarnation,
                   coalesce((settings ->> 'dedupeWindow')::bigint, 0),
                   (settings #>> '{flow,concurrency}')::int, (settings #>> '{flow,rate,limit}')::bigint,
                   (settings #>> '{flow,rate,period}')::bigint, (settings #>> '{flow,burst}')::int,
                   (settings #>> '{flow,clockConcurrency}')::int, (settings #>> '{flow,clockRate,limit}')::bigint,
                   (settings #>> '{flow,clockRate,period}')::bigint,
                   (SELECT string_agg(k || ' ' || coalesce(v ->> 'concurrency', '-') || ' '
                                      || coalesce(v #>> '{rate,limit}', '-') || ' '
                                      || coalesce(v #>> '{rate,period}', '-'), ' ' ORDER BY k)
                      FROM jsonb_each(settings #> '{flow,keys}') AS overrides (k, v)),
                   coalesce((settings ->> 'paused')::boolean, false),
                   coalesce((settings #>> '{retry,maxRetryDuration}')::bigint, 0)
              FROM clocks""";

    /** The clock named, with a row-lock clause (or "") appended by the caller. Parameter: the name. */
    static final String FIND = SELECT + " WHERE name = ?";

    /**
     * A delivery call's clock ({@link DeliveryRows#onClock}) in one round trip: a virtual clock's row locked
     * {@code FOR SHARE} (the lock returns the row's latest version, so an advance that committed after the statement's
     * snapshot is seen), any other clock's (system, scaled) read unlocked. A clock's mode never changes, so the two
     * branches never both answer. Parameters: the clock, twice.
     */
    static final String FIND_LOCKING_VIRTUAL = "WITH virtual_clock AS (" + SELECT
            + " WHERE name = ? AND mode = 'virtual' FOR SHARE) SELECT * FROM virtual_clock UNION ALL "
            + SELECT + " WHERE name = ? AND mode <> 'virtual'";

    /** A page of clocks by name (bytewise), after a name (null: from the first). Parameters: after, limit. */
    static final String LIST = SELECT
            + " WHERE name COLLATE \"C\" > coalesce(?, '') ORDER BY name COLLATE \"C\" LIMIT ?";

    /** Clocks that exist, the default one included. */
    static final String COUNT = "SELECT count(*) FROM clocks";

    /** The default clock unless it exists. Parameters: name, mode, delivery. */
    static final String INSERT_DEFAULT = """
            INSERT INTO clocks (name, mode, now_ms, initial_now, delivery) VALUES (?, ?, 0, 0, ?)
            ON CONFLICT (name) DO NOTHING""";

    /**
     * The settings column for a retry policy (its maxRetryDuration left out when 0), a dedupe window, flow control (a
     * JSON object of the API's members, or null for none) and a pause (left out unless true): the API's member names
     * and units (milliseconds).
     */
    private static final String SETTINGS = """
            jsonb_build_object('retry', jsonb_build_object('maxAttempts', ?::int, 'initialBackoff', ?::bigint,
                                                           'multiplier', ?::float8, 'maxBackoff', ?::bigint,
                                                           'jitter', ?::float8)
                                        || jsonb_strip_nulls(jsonb_build_object('maxRetryDuration', ?::bigint)),
                               'dedupeWindow', ?::bigint)
            || jsonb_strip_nulls(jsonb_build_object('flow', ?::jsonb, 'paused', ?::boolean))""";

    /**
     * A new clock's row; a scaled clock's anchor is the database's clock now. Parameters: name, mode, now, initial
     * now, delivery, the retry policy's six members, the dedupe window, flow control and the pause ({@link #SETTINGS}), rate twice (null unless scaled), push url,
     * timeout, concurrency, header names, header values, secrets.
     */
    static final String INSERT = "INSERT INTO clocks (name, mode, now_ms, initial_now, delivery, settings,"
            + " rate_millionths, anchor_wall, push_url, push_timeout, push_concurrency, push_header_names,"
            + " push_header_values, push_secrets) VALUES (?, ?, ?, ?, ?, " + SETTINGS + ", ?,"
            + " CASE WHEN ?::bigint IS NULL THEN NULL ELSE db_now_ms() END, ?, ?, ?, ?, ?, ?)";

    /**
     * A live clock's changed settings (issue 47): the settings column ({@link #SETTINGS}) and the push target.
     * Parameters: as {@link #SETTINGS}, push url, timeout, concurrency, header names, header values, secrets, name.
     */
    static final String CHANGE = "UPDATE clocks SET settings = " + SETTINGS + ", push_url = ?, push_timeout = ?,"
            + " push_concurrency = ?, push_header_names = ?, push_header_values = ?, push_secrets = ? WHERE name = ?";

    /** The clock-wide bucket of a flow clock (its row {@code /}), retuned. Parameters: units, refill time, clock. */
    static final String RETUNE_CLOCK_BUCKET = "UPDATE flow_keys SET units = ?, refilled_at = ? WHERE clock = ? AND key = '/'";

    /**
     * The lock every creation of a clock holds to its transaction's end, combined with the {@code clocks} table's OID
     * so that stores in other schemas of the same database do not wait for each other. Parameter: the key.
     */
    static final String LOCK_CREATION = "SELECT pg_advisory_xact_lock(? # 'clocks'::regclass::oid::bigint)";

    /**
     * The time up to which a new virtual clock has fired every due timer, before its now (a loaded document's timers
     * due before its now stay pending). Parameters: the time, name.
     */
    static final String FIRED_THROUGH = "UPDATE clocks SET fired_through = ? WHERE name = ?";

    /**
     * A scaled clock's new rate, anchored at the database's clock now and the clock's time there. Parameters: rate
     * in millionths, name.
     */
    static final String RERATE = """
            UPDATE clocks SET now_ms = clock_now_ms(clocks), anchor_wall = db_now_ms(), rate_millionths = ?
             WHERE name = ?""";

    /**
     * Deletes a clock's timers and deliveries and answers what the budget counted of them: the pending timers and the
     * unacknowledged deliveries that this statement removed, each as it was when removed. Counting before deleting
     * would also count rows that a concurrent cancel, dead-letter delete or ack (none of which locks a system clock's
     * row) removes or acknowledges and gives back itself: the budget would drift down for good. Here such a row is
     * either gone before the DELETE reaches it, or the DELETE waits for that transaction and then sees the row as it
     * committed it (acknowledged: not counted), or that transaction finds the row deleted and gives nothing back.
     * The clock's row is locked first, so nothing is added to it meanwhile. Answers the count, the bytes, and how
     * many of the count were deliveries. Parameters: the clock, twice.
     */
    static final String DELETE_ROWS = """
            WITH timers_gone AS (DELETE FROM timers WHERE clock = ? RETURNING bytes),
                 deliveries_gone AS (DELETE FROM deliveries WHERE clock = ? RETURNING bytes, state)
            SELECT count(*), coalesce(sum(bytes), 0), count(*) FILTER (WHERE delivery) FROM (
                SELECT bytes, false AS delivery FROM timers_gone
                UNION ALL
                SELECT bytes, true FROM deliveries_gone WHERE state <> 'acked') released""";

    /** Deletes a clock's schedules and gives their count back to the schedules' limit. Parameter: the clock. */
    static final String DELETE_SCHEDULES = """
            WITH gone AS (DELETE FROM schedules WHERE clock = ? RETURNING 1)
            UPDATE schedule_count SET schedules = schedules - (SELECT count(*) FROM gone)""";

    /**
     * The clock's pending counts (V45), deleted after its timers: they sum to 0 then, and no other transaction adds a
     * timer to the clock while its row is locked. Without this a name's rows would stay after its clock, for every
     * clock ever deleted. Parameter: the clock.
     */
    static final String DELETE_COUNTS = "DELETE FROM timer_counts WHERE clock = ?";

    /** The clock's row, its other rows deleted before. Parameter: the name. */
    static final String DELETE = "DELETE FROM clocks WHERE name = ?";

    // A reset (PostgresTimerChanges.reset): the clock emptied, its now back to 0.

    /** A reset's deletion of the clock's timers: each row's bytes, and true (the budget counted it). Parameter: clock. */
    static final String RESET_TIMERS = "DELETE FROM timers WHERE clock = ? RETURNING bytes, true";

    /**
     * A reset's deletion of the clock's deliveries: each row's bytes, and whether the budget counted it (it was not
     * acknowledged). Parameter: the clock.
     */
    static final String RESET_DELIVERIES = "DELETE FROM deliveries WHERE clock = ? RETURNING bytes, state <> 'acked'";

    /** A reset clock starts again at 0, having fired through nothing. Parameter: the name. */
    static final String RESTART = "UPDATE clocks SET now_ms = 0, initial_now = 0, fired_through = NULL WHERE name = ?";

    // A fork (PostgresClockCopy); the schedules' copy is ScheduleSql.COPY.

    /**
     * The copy's clock row: the source's settings and time (a scaled clock's initial now is its time now). Parameters:
     * the copy's name, the source's.
     */
    static final String COPY_CLOCK = """
            INSERT INTO clocks (name, mode, now_ms, initial_now, delivery, settings, rate_millionths, anchor_wall,
                                push_url, push_timeout, push_concurrency, push_header_names, push_header_values,
                                push_secrets, fired_through)
            SELECT ?, mode, now_ms, CASE WHEN mode = 'scaled' THEN clock_now_ms(clocks) ELSE now_ms END, delivery,
                   settings, rate_millionths, anchor_wall, push_url, push_timeout, push_concurrency,
                   push_header_names, push_header_values, push_secrets, fired_through
              FROM clocks WHERE name = ?""";

    /**
     * Copies the timers and deliveries of the clock {@code src} into {@code dst} with fresh sequences in the same
     * order, an in-flight delivery ready at {@code now}; answers the count and bytes copied, and how many of the count
     * are deliveries. Parameters: src, dst, now.
     */
    static final String COPY_ROWS = """
            WITH args AS (SELECT ?::text AS src, ?::text AS dst, ?::bigint AS now),
            old AS (
                SELECT seq FROM timers WHERE clock = (SELECT src FROM args)
                UNION ALL SELECT seq FROM deliveries WHERE clock = (SELECT src FROM args) AND state <> 'acked'),
            fresh AS MATERIALIZED (
                SELECT nextval('timer_sequence') AS seq FROM generate_series(1, (SELECT count(*) FROM old))),
            mapped AS MATERIALIZED (
                SELECT o.seq AS old_seq, f.seq AS new_seq
                  FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS r FROM old) o
                  JOIN (SELECT seq, row_number() OVER (ORDER BY seq) AS r FROM fresh) f USING (r)),
            copied_timers AS (
                INSERT INTO timers (clock, id, fire_time, priority, seq, version, created_at, created_at_wall,
                                    payload, bytes, schedule, triggered, system_clock, trace_context, key)
                SELECT (SELECT dst FROM args), t.id, t.fire_time, t.priority, m.new_seq, t.version, t.created_at, t.created_at_wall,
                       t.payload, t.bytes, t.schedule, t.triggered, t.system_clock, t.trace_context, t.key
                  FROM timers t JOIN mapped m ON m.old_seq = t.seq
                 WHERE t.clock = (SELECT src FROM args)
                RETURNING bytes),
            copied_deliveries AS (
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                        attempt, claim, lease_until, retry_at, ready_at, done_at, dead_reason, schedule,
                                        system_clock, trace_context, key, flow_key)
                SELECT m.new_seq, (SELECT dst FROM args), d.id, d.fire_time, d.priority, d.version, d.created_at, d.payload, d.bytes,
                       CASE WHEN d.state = 'in_flight' THEN 'ready' ELSE d.state END, d.attempt, NULL, NULL,
                       d.retry_at, CASE WHEN d.state = 'in_flight' THEN (SELECT now FROM args) ELSE d.ready_at END, d.done_at,
                       d.dead_reason, d.schedule, d.system_clock, d.trace_context, d.key, d.flow_key
                  FROM deliveries d JOIN mapped m ON m.old_seq = d.seq
                 WHERE d.clock = (SELECT src FROM args) AND d.state <> 'acked'
                RETURNING bytes)
            SELECT (SELECT count(*) FROM copied_timers) + (SELECT count(*) FROM copied_deliveries),
                   (SELECT coalesce(sum(bytes), 0) FROM copied_timers)
                       + (SELECT coalesce(sum(bytes), 0) FROM copied_deliveries),
                   (SELECT count(*) FROM copied_deliveries)""";

    // A saved clock (PostgresClockSnapshots); its schedules are ScheduleSql.LIST's and ScheduleSql.COUNT_MORE's.

    /**
     * A save's rows: the clock's timers and unacknowledged deliveries in one statement, by sequence, each flagged
     * whether it is a delivery. Parameters: the clock, twice.
     */
    static final String SAVED_ROWS = """
            SELECT * FROM (
                SELECT false AS delivery, id, fire_time, priority, seq, version, created_at, payload, NULL AS state,
                       1 AS attempt, NULL::bigint AS retry_at, 0::bigint AS ready_at, NULL AS dead_reason, schedule,
                       trace_context, key
                  FROM timers WHERE clock = ?
                UNION ALL
                SELECT true, id, fire_time, priority, seq, version, created_at, payload, state, attempt, retry_at,
                       ready_at, dead_reason, schedule, trace_context, key
                  FROM deliveries WHERE clock = ? AND state <> 'acked') rows
             ORDER BY seq""";

    /** A load's fresh sequences from the database's sequence. Parameter: how many. */
    static final String FRESH_SEQUENCES = "SELECT nextval('timer_sequence') FROM generate_series(1, ?)";

    /**
     * A chunk of a load's timers, one array per column; an occurrence timer names its schedule. Parameters: the clock
     * twice, then the arrays of ids, fire times, priorities, sequences, versions, creation times, payloads, bytes,
     * schedules, triggered flags, trace contexts and keys.
     */
    static final String LOAD_TIMERS = """
            INSERT INTO timers (clock, id, fire_time, priority, seq, version, created_at, payload, bytes, schedule,
                                triggered, system_clock, trace_context, key)
            SELECT ?, u.id, u.fire_time, u.priority, u.seq, u.version, u.created_at, u.payload, u.bytes, u.schedule,
                   coalesce(u.triggered, false), (SELECT mode = 'system' FROM clocks WHERE name = ?), u.trace_context,
                   u.key
              FROM unnest(?::text[], ?::bigint[], ?::int[], ?::bigint[], ?::int[], ?::bigint[], ?::text[], ?::bigint[],
                          ?::text[], ?::boolean[], ?::text[], ?::text[])
                   AS u (id, fire_time, priority, seq, version, created_at, payload, bytes, schedule, triggered,
                         trace_context, key)""";

    /**
     * A chunk of a load's deliveries, one array per column, ready, waiting or dead (dead ones done at the load).
     * Parameters: the clock twice, then the arrays of ids, fire times, priorities, sequences, payloads, bytes, states,
     * attempts, retry times, ready times, dead reasons, schedules, trace contexts and keys. A delivery's flow key is
     * {@link StoredClock#flowKeyOf}'s, from the loaded clock's row.
     */
    static final String LOAD_DELIVERIES = """
            INSERT INTO deliveries (clock, id, fire_time, priority, seq, version, created_at, payload, bytes, state,
                                    attempt, retry_at, ready_at, dead_reason, done_at, schedule, system_clock,
                                    trace_context, key, flow_key)
            SELECT ?, u.id, u.fire_time, u.priority, u.seq, 1, u.fire_time, u.payload, u.bytes, u.state, u.attempt,
                   u.retry_at, u.ready_at, u.dead_reason, CASE WHEN u.state = 'dead' THEN db_now_ms() END, u.schedule,
                   c.mode = 'system', u.trace_context, u.key,
                   CASE WHEN c.settings -> 'flow' IS NOT NULL THEN coalesce(u.key, '') END
              FROM (SELECT mode, settings FROM clocks WHERE name = ?) c,
                   unnest(?::text[], ?::bigint[], ?::int[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::int[],
                          ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[])
                   AS u (id, fire_time, priority, seq, payload, bytes, state, attempt, retry_at, ready_at,
                         dead_reason, schedule, trace_context, key)""";
}
