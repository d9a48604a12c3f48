package io.timeservice.store.postgres;

/**
 * The statements of the clocks (table {@code clocks}), kept as SQL to be reviewed as SQL: a clock's columns, its
 * creation, rate change, reads, and its deletion with every row it holds. Run by {@link PostgresClocks}; the columns
 * ({@link #SELECT}) are read by every call that reads or locks a clock.
 */
final class ClockSql {

    private ClockSql() {
    }

    /**
     * A clock's columns; its retry policy's members are null when {@code settings} holds none (the default), its
     * rate and anchor null unless it is scaled; the last its incarnation (V24).
     */
    static final String SELECT = """
            SELECT name, mode, clock_now_ms(clocks), initial_now, delivery,
                   created_at, (settings #>> '{retry,maxAttempts}')::int, (settings #>> '{retry,initialBackoff}')::bigint,
                   (settings #>> '{retry,multiplier}')::float8, (settings #>> '{retry,maxBackoff}')::bigint,
                   (settings #>> '{retry,jitter}')::float8, rate_millionths, anchor_wall, now_ms, push_url,
                   push_timeout, push_concurrency, push_header_names, push_header_values, push_secrets, incarnation
              FROM clocks""";

    /** The clock named, with a row-lock clause (or "") appended by the caller. Parameter: the name. */
    static final String FIND = SELECT + " WHERE name = ?";

    /** A page of clocks by name (bytewise), after a name (null: from the first). Parameters: after, limit. */
    static final String LIST = SELECT
            + " WHERE name COLLATE \"C\" > coalesce(?, '') ORDER BY name COLLATE \"C\" LIMIT ?";

    /** Clocks that exist, the default one included. */
    static final String COUNT = "SELECT count(*) FROM clocks";

    /** The default clock unless it exists. Parameters: name, mode, delivery. */
    static final String INSERT_DEFAULT = """
            INSERT INTO clocks (name, mode, now_ms, initial_now, delivery) VALUES (?, ?, 0, 0, ?)
            ON CONFLICT (name) DO NOTHING""";

    /** The settings column for a retry policy: the API's member names and units (milliseconds). */
    private static final String SETTINGS = """
            jsonb_build_object('retry', jsonb_build_object('maxAttempts', ?::int, 'initialBackoff', ?::bigint,
                                                           'multiplier', ?::float8, 'maxBackoff', ?::bigint,
                                                           'jitter', ?::float8))""";

    /**
     * A new clock's row; a scaled clock's anchor is the database's clock now. Parameters: name, mode, now, initial
     * now, delivery, the retry policy's five members ({@link #SETTINGS}), rate twice (null unless scaled), push url,
     * timeout, concurrency, header names, header values, secrets.
     */
    static final String INSERT = "INSERT INTO clocks (name, mode, now_ms, initial_now, delivery, settings,"
            + " rate_millionths, anchor_wall, push_url, push_timeout, push_concurrency, push_header_names,"
            + " push_header_values, push_secrets) VALUES (?, ?, ?, ?, ?, " + SETTINGS + ", ?,"
            + " CASE WHEN ?::bigint IS NULL THEN NULL ELSE db_now_ms() END, ?, ?, ?, ?, ?, ?)";

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

    /** The clock's row, its other rows deleted before. Parameter: the name. */
    static final String DELETE = "DELETE FROM clocks WHERE name = ?";
}
