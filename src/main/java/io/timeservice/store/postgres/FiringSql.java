package io.timeservice.store.postgres;

/**
 * The statements of firing ({@link PostgresClockFiring}), kept as SQL to be reviewed as SQL: a firing round of a
 * clock that fires by itself ({@link #FIRE_DUE}); a virtual clock's advance, in the transaction that holds its row
 * {@code FOR UPDATE}: how many timers are due, firing the first of them (into the answer, or into the ready queue of
 * a queueing clock), the clock's next event, moving its time; and the check that an advance left nothing behind
 * ({@link PostgresQueueInspector}). The firing of schedules' occurrences is {@link ScheduleSql}'s, the firing loop's
 * look {@link FiringLookSql}'s.
 */
final class FiringSql {

    private FiringSql() {
    }

    /**
     * A fired timer's flow key in its delivery ({@link StoredClock#flowKeyOf}): its key, '' for none, on a clock with
     * flow control; null otherwise. Read from the clock's row once per statement (an init plan), of the CTE
     * {@code fired}, whose rows are all of one clock.
     */
    static final String FLOW_KEY = "CASE WHEN (SELECT settings -> 'flow' IS NOT NULL FROM clocks"
            + " WHERE name = (SELECT clock FROM fired LIMIT 1)) THEN coalesce(key, '') END";

    /**
     * How many timers of the clock are due by a time, counted up to a bound (the limit + 1 tells whether more are
     * due than the limit fires), from the front of {@code timers_firing_order}. Parameters: clock, due by, bound.
     */
    static final String COUNT_DUE = """
            SELECT count(*) FROM (SELECT 1 FROM timers WHERE clock = ? AND fire_time <= ? LIMIT ?) due""";

    /**
     * Fires the first due timers in firing order: deletes them, queues them as ready deliveries on a queueing clock,
     * answers them in firing order. Parameters: clock, due by, limit, whether the clock queues.
     */
    static final String FIRE = """
            WITH picked AS (
                SELECT seq FROM timers WHERE clock = ? AND fire_time <= ?
                 ORDER BY fire_time, priority, seq LIMIT ?),
            fired AS (
                DELETE FROM timers t USING picked WHERE t.seq = picked.seq RETURNING t.*),
            queued AS (
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                        ready_at, schedule, system_clock, trace_context, key, flow_key)
                SELECT seq, clock, id, fire_time, priority, version, created_at, payload, bytes, 'ready', fire_time,
                       schedule, system_clock, trace_context, key, """ + FLOW_KEY + """
                  FROM fired WHERE ?)
            SELECT""" + " " + TimerRows.COLUMNS + " FROM fired ORDER BY " + TimerRows.FIRING_ORDER;

    /**
     * Moves the due timers of a clock that fires by itself (its now decides: the database's clock, or a scaled
     * clock's function of it) into its ready queue, in firing order; a first attempt is ready from its fire time on,
     * as in memory; answers each one's fire time, the database's now, its id and sequence. Parameters: clock, the
     * clock's now, limit.
     */
    static final String FIRE_DUE = """
            WITH picked AS (
                SELECT seq FROM timers t
                 WHERE clock = ? AND fire_time <= ?
                   AND (schedule IS NULL
                        OR NOT EXISTS (SELECT 1 FROM schedules s WHERE s.clock = t.clock AND s.id = t.schedule))
                 ORDER BY fire_time, priority, seq
                 LIMIT ?
                 FOR UPDATE SKIP LOCKED),
            fired AS (
                DELETE FROM timers t USING picked WHERE t.seq = picked.seq RETURNING t.*)
            INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                    ready_at, schedule, system_clock, trace_context, key, flow_key)
            SELECT seq, clock, id, fire_time, priority, version, created_at, payload, bytes, 'ready', fire_time,
                   schedule, system_clock, trace_context, key, """ + FLOW_KEY + """
              FROM fired
            RETURNING fire_time, db_now_ms(), id, seq, priority, trace_context""";

    /**
     * A clock's earliest pending timer, lease end and retry (null for none of a kind), read by their indexes.
     * Parameters: the clock, three times.
     */
    static final String NEXT_EVENT = """
            SELECT (SELECT min(fire_time) FROM timers WHERE clock = ?),
                   (SELECT min(lease_until) FROM deliveries WHERE clock = ? AND state = 'in_flight'),
                   (SELECT min(retry_at) FROM deliveries WHERE clock = ? AND state = 'waiting')""";

    /**
     * Moves the clock's time to where the advance stopped. When it was held back (the time moves without firing),
     * {@code fired_through} keeps where firing stopped, as in memory; otherwise it is cleared (the clock has fired
     * through its now). Parameters: the new now, whether held back, the clock.
     */
    static final String MOVE = """
            UPDATE clocks SET now_ms = ?,
                   fired_through = CASE WHEN ? THEN COALESCE(fired_through, now_ms) END
             WHERE name = ?""";

    /**
     * A virtual clock's first timer due before the time it has fired through (its now, or earlier when its
     * deliveries held firing back or a loaded document held due timers: {@code fired_through}, as the memory store's
     * {@code firedThrough}): an advance left one behind. One index probe, the front of {@code timers_firing_order}
     * (without the ORDER BY PostgreSQL read the clock's timers by id). Parameter: the clock.
     */
    static final String OVERDUE = """
            SELECT t.id, t.fire_time, c.through
              FROM (SELECT name, COALESCE(fired_through, now_ms) AS through FROM clocks
                     WHERE name = ? AND mode = 'virtual') c
             CROSS JOIN LATERAL (SELECT id, fire_time FROM timers
                                  WHERE clock = c.name AND fire_time < c.through
                                  ORDER BY fire_time LIMIT 1) t""";
}
