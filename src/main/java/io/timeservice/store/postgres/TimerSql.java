package io.timeservice.store.postgres;

/**
 * The statements of the pending timers (table {@code timers}), kept as SQL to be reviewed as SQL: the reads
 * ({@link PostgresTimerReads}) and the changes ({@link PostgresTimerChanges}, a batch's run of adds in
 * {@link BatchAdds}). A timer row reads as {@link TimerRows#COLUMNS}. Parameters are positional ({@code ?}); each
 * constant says them in order where there are several.
 *
 * <p>The indexes they read are in the migrations ({@code db/timeservice}): {@code timers_pkey} (clock, id) for a
 * timer named by its id, {@code timers_seq} for a timer already locked, {@code timers_firing_order} for the front of
 * a clock's timers.
 */
final class TimerSql {

    private TimerSql() {
    }

    // The reads (PostgresTimerReads).

    /**
     * The timer named, with its clock: no row when the clock does not exist, the timer's columns null when it has no
     * such pending timer. Parameters: id, clock.
     */
    static final String GET = "SELECT " + TimerRows.T_COLUMNS
            + " FROM clocks c LEFT JOIN timers t ON t.clock = c.name AND t.id = ? WHERE c.name = ?";

    /** The pending timer named, as the caller's transaction sees it (it is there). Parameters: clock, id. */
    static final String PENDING = "SELECT " + TimerRows.COLUMNS + " FROM timers WHERE clock = ? AND id = ?";

    /**
     * A preview in one statement (one snapshot): the clock's now, its pending count, the first due timers in firing
     * order (their columns null when none is due); no row when the clock does not exist. Parameters: due by, limit,
     * clock twice, due by, limit, clock. The count is a lateral join of the one clock row, counted once: as a
     * subquery in the select list it ran once per timer listed (25 counts of a million rows for a page of 25,
     * console-at-size.sh on PostgreSQL). The timers are found by the bound name, not by {@code c.name}: planned
     * with the name, a clock with few timers is read by index even where one clock holds most of the table (by
     * {@code c.name} the planner took the average clock's count and read all 1,000,000 rows for each clock of a
     * page of clocks: 25 s for {@code GET /clocks} in the same run).
     */
    static final String DUE_BY = """
            SELECT clock_now_ms(c), s.size, """ + TimerRows.T_COLUMNS + """

              FROM clocks c
             CROSS JOIN LATERAL (SELECT count(*) AS size FROM timers WHERE clock = ?) s
              LEFT JOIN LATERAL (SELECT * FROM timers
                                  WHERE clock = ? AND fire_time <= ?
                                  ORDER BY fire_time, priority, seq LIMIT ?) t ON true
             WHERE c.name = ?
             ORDER BY t.fire_time, t.priority, t.seq""";

    /**
     * A page of the firing order in one snapshot, as {@link #DUE_BY} answers: the first timers after a position (in
     * {@link #PAGE_AFTER}: a row comparison the firing-order index {@code timers_firing_order} seeks to) whose id
     * starts with a prefix. Parameters: clock twice, (PAGE_AFTER: fire time, priority, sequence,) prefix twice (null:
     * any), limit, clock.
     */
    static final String PAGE = pageOf("");

    static final String PAGE_AFTER = pageOf(" AND (fire_time, priority, seq) > (?::bigint, ?::integer, ?::bigint)");

    private static String pageOf(String afterPosition) {
        return """
                SELECT clock_now_ms(c), s.size, """ + TimerRows.T_COLUMNS + """

                  FROM clocks c
                 CROSS JOIN LATERAL (SELECT count(*) AS size FROM timers WHERE clock = ?) s
                  LEFT JOIN LATERAL (SELECT * FROM timers
                                      WHERE clock = ?""" + afterPosition
                + " AND (?::text IS NULL OR starts_with(id, ?::text))" + """

                                      ORDER BY fire_time, priority, seq LIMIT ?) t ON true
                 WHERE c.name = ?
                 ORDER BY t.fire_time, t.priority, t.seq""";
    }

    /**
     * The clock at a glance in one snapshot: its now, pending count, next fire time, and its oldest pending timer's
     * creation (the clock's time and the wall clock's); no row when the clock does not exist. Parameters: the clock,
     * three times (bound, not {@code c.name}: see {@link #DUE_BY}).
     */
    static final String STATUS = """
            SELECT clock_now_ms(c), s.size, s.next_fire,
                   o.created_at, o.created_at_wall
              FROM clocks c
             CROSS JOIN LATERAL (SELECT count(*) AS size, min(fire_time) AS next_fire
                                   FROM timers WHERE clock = ?) s
              LEFT JOIN LATERAL (SELECT created_at, created_at_wall FROM timers WHERE clock = ?
                                  ORDER BY created_at, seq LIMIT 1) o ON true
             WHERE c.name = ?""";

    // The changes (PostgresTimerChanges, BatchAdds).

    /**
     * A new pending timer, answering its sequence, or no row for a pending id. The NOT EXISTS keeps a duplicate from
     * drawing a sequence (a refused add uses none, as in memory: the default's nextval runs only for a row the SELECT
     * yields); ON CONFLICT still refuses the duplicate that raced it in, at the cost of one sequence. Parameters:
     * clock, id, fire time, priority, created at, payload, bytes, system clock, trace context, key, then clock and id
     * again.
     */
    static final String INSERT = """
            INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes, system_clock, trace_context,
                                key)
            SELECT ?::text, ?::text, ?::bigint, ?::integer, ?::bigint, ?::text, ?::bigint, ?::boolean, ?::text, ?::text
             WHERE NOT EXISTS (SELECT 1 FROM timers WHERE clock = ?::text AND id = ?::text)
            ON CONFLICT (clock, id) DO NOTHING
            RETURNING seq""";

    /**
     * The adds of a batch's run, in order; a pending id or a second add of one id in the run inserts nothing (ON
     * CONFLICT, by the primary key). Unlike the single add there is no NOT EXISTS to spare a duplicate its sequence:
     * the run's earlier adds drew theirs anyway, and the refused batch rolls back; as a join with {@code timers} it
     * let the generic plan (pgjdbc prepares on the server after five uses) read the clock's timers per batch, which
     * made batches slower as the clock grew. Parameters: clock, created at (the clock's now), system clock, arrays of
     * ids, fire times, priorities, payloads, bytes, trace contexts and keys.
     */
    static final String INSERT_RUN = """
            INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes, system_clock, trace_context,
                                key)
            SELECT ?::text, a.id, a.fire_time, a.priority, ?::bigint, a.payload, a.bytes, ?::boolean, a.trace_context,
                   a.key
              FROM unnest(?::text[], ?::bigint[], ?::integer[], ?::text[], ?::bigint[], ?::text[], ?::text[])
                   WITH ORDINALITY AS a (id, fire_time, priority, payload, bytes, trace_context, key, position)
             ORDER BY a.position
            ON CONFLICT (clock, id) DO NOTHING
            RETURNING id, seq""";

    /** The pending timer named, its row locked for an edit or cancel; no row for none. Parameters: clock, id. */
    static final String LOCK = "SELECT " + TimerRows.COLUMNS + " FROM timers WHERE clock = ? AND id = ? FOR UPDATE";

    /** An edit of a locked timer. Parameters: fire time, priority, version, its sequence. */
    static final String EDIT = "UPDATE timers SET fire_time = ?, priority = ?, version = ? WHERE seq = ?";

    /** A cancel of a locked timer. Parameter: its sequence. */
    static final String CANCEL = "DELETE FROM timers WHERE seq = ?";

    /**
     * A pending timer replaced by an add ({@code onConflict: replace}), its sequence kept. Parameters: fire time,
     * priority, version, payload, bytes, sequence.
     */
    static final String REPLACE = """
            UPDATE timers SET fire_time = ?, priority = ?, version = ?, payload = ?, bytes = ? WHERE seq = ?""";
}
