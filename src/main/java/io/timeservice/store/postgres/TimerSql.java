package io.timeservice.store.postgres;

/**
 * The statements of the pending timers (table {@code timers}), kept as SQL to be reviewed as SQL: the reads
 * ({@link PostgresTimerReads}) and the changes ({@link PostgresTimerChanges}, a batch's run of adds in
 * {@link BatchAdds}). A timer row reads as {@link TimerRows#COLUMNS}. Parameters are positional ({@code ?}); each
 * constant says them in order where there are several.
 *
 * <p>The indexes they read are in the migrations ({@code db/timeservice}): {@code timers_pkey} (clock, id) for a
 * timer named by its id, {@code timers_seq} for a timer already locked, {@code timers_firing_order} for the front of
 * a clock's timers, {@code timers_id_prefix} (V46) for those whose id starts with a text. A clock's pending count is
 * {@link #PENDING_COUNT}: the rows of {@code timer_counts} that V45's triggers keep, not a count of its timers.
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
     * The clock's pending count in a lateral join: the sum of its few rows in {@code timer_counts} (V45), which the
     * triggers on {@code timers} keep in the transaction of every change, so one snapshot sees the count and the rows
     * alike. A count of the clock's timers took 0.7-1.6 s at 1,000,000 (console-at-size.sh on PostgreSQL). Parameter:
     * the clock.
     */
    private static final String PENDING_COUNT =
            "(SELECT coalesce(sum(pending), 0) AS size FROM timer_counts WHERE clock = ?) s";

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
             CROSS JOIN LATERAL """ + PENDING_COUNT + """
              LEFT JOIN LATERAL (SELECT * FROM timers
                                  WHERE clock = ? AND fire_time <= ?
                                  ORDER BY fire_time, priority, seq LIMIT ?) t ON true
             WHERE c.name = ?
             ORDER BY t.fire_time, t.priority, t.seq""";

    /**
     * A page of the firing order in one snapshot, as {@link #DUE_BY} answers: the first timers after a position (in
     * the {@code _AFTER} forms: a row comparison the firing-order index {@code timers_firing_order} seeks to), in the
     * {@code PREFIX} forms only those whose id starts with a prefix. Parameters: clock twice, (AFTER: fire time,
     * priority, sequence,) (PREFIX: the prefix, and the prefix followed by U+007F,) limit, clock.
     */
    static final String PAGE = pageOf("", "");

    static final String PAGE_AFTER = pageOf(" AND (fire_time, priority, seq) > (?::bigint, ?::integer, ?::bigint)", "");

    /**
     * The prefix as a range of ids, bytewise ({@code ~>=~}, {@code ~<~}: the operators of {@code text_pattern_ops}),
     * which the index {@code timers_id_prefix} (V46) bounds in a custom plan and a generic one alike (starts_with or
     * LIKE bound an index only with the prefix known when planning). From the prefix to the prefix followed by U+007F:
     * exactly the ids that start with it, because an id's characters are ASCII below U+007F (the id rules). The
     * planner weighs it against the firing order with the range as a filter, which a prefix most timers match wins.
     */
    private static final String ID_RANGE = " AND id ~>=~ ?::text AND id ~<~ ?::text";

    static final String PAGE_PREFIX = pageOf("", ID_RANGE);

    static final String PAGE_PREFIX_AFTER =
            pageOf(" AND (fire_time, priority, seq) > (?::bigint, ?::integer, ?::bigint)", ID_RANGE);

    private static String pageOf(String afterPosition, String idRange) {
        return """
                SELECT clock_now_ms(c), s.size, """ + TimerRows.T_COLUMNS + """

                  FROM clocks c
                 CROSS JOIN LATERAL """ + PENDING_COUNT + """

                  LEFT JOIN LATERAL (SELECT * FROM timers
                                      WHERE clock = ?""" + afterPosition + idRange + """

                                      ORDER BY fire_time, priority, seq LIMIT ?) t ON true
                 WHERE c.name = ?
                 ORDER BY t.fire_time, t.priority, t.seq""";
    }

    /**
     * The clock at a glance in one snapshot: its now, pending count, next fire time (the front of
     * {@code timers_firing_order}), and its oldest pending timer's creation (the clock's time and the wall clock's); no
     * row when the clock does not exist. Parameters: the clock, four times (bound, not {@code c.name}: see
     * {@link #DUE_BY}).
     */
    static final String STATUS = """
            SELECT clock_now_ms(c), s.size, (SELECT min(fire_time) FROM timers WHERE clock = ?),
                   o.created_at, o.created_at_wall
              FROM clocks c
             CROSS JOIN LATERAL """ + PENDING_COUNT + """

              LEFT JOIN LATERAL (SELECT created_at, created_at_wall FROM timers WHERE clock = ?
                                  ORDER BY created_at, seq LIMIT 1) o ON true
             WHERE c.name = ?""";

    /**
     * The invariant {@code pending-count-matches-rows} ({@link PostgresQueueInspector}): the clock's kept pending count
     * and the count of its timers, in one snapshot; reads all of them. Parameters: the clock, twice.
     */
    static final String COUNT_AND_ROWS = """
            SELECT (SELECT coalesce(sum(pending), 0) FROM timer_counts WHERE clock = ?),
                   (SELECT count(*) FROM timers WHERE clock = ?)""";

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
