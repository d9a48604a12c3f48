package io.timeservice.store.postgres;

/**
 * The statements of the firing loop's look ({@link PostgresFiringLoop}), kept as SQL to be reviewed as SQL: the look
 * itself ({@link #LOOK}, its window written in by {@link #look}) and what comes next on the clocks a look worked on
 * ({@link #NEXT_ON}). Both answer rows of the same columns: the database's now, how many passed times were read, then
 * per clock with something due or coming its name, earliest fire time, lease end and retry time, and a scaled clock's
 * rate, anchor and now (null for a system clock), which turn its times into the database's clock.
 */
final class FiringLookSql {

    private FiringLookSql() {
    }

    /**
     * Per clock: the earliest pending timer, lease end and retry time of each clock that {@code clocks} (a condition
     * on the row {@code c}) selects, each the front of an index range ({@code timers_firing_order},
     * {@code deliveries_leases}, {@code deliveries_waiting}): one index probe per value, with a scaled clock's rate
     * and anchor, which turn its times into the database's clock. Columns: name, rate, anchor, now, fire time, lease
     * end, retry time.
     */
    private static String perClock(String clocks) {
        return """
            SELECT c.name, c.rate_millionths, c.anchor_wall, c.now_ms,
                   (SELECT min(fire_time) FROM timers WHERE clock = c.name) AS fire_time,
                   (SELECT min(lease_until) FROM deliveries WHERE clock = c.name AND state = 'in_flight') AS lease_until,
                   (SELECT min(retry_at) FROM deliveries WHERE clock = c.name AND state = 'waiting') AS retry_at
              FROM clocks c
             WHERE\s""" + clocks;
    }

    /**
     * One kind of time of the system clocks' {@code rows} (kind 0: timers, 1: lease ends, 2: retry times), from its
     * global index: the passed ones, at most the window ({@code %1$d} left in the text, {@link #look}), and the first
     * to come. The look's now is a subquery's on purpose: the planner cannot read it, so it takes a third of the rows
     * as passed, and on a large table (100,000 rows and up, measured) it reads the front in index order, which stops
     * at the window however large a backlog grows; on a small one, a bitmap scan of the index and a sort. With
     * {@code db_now_ms()} here it would estimate from the backlog at the time it plans, and the cached plan
     * ({@link #LOOK}) could read a whole later backlog: a bitmap scan and a sort at 100,000 rows with none passed.
     */
    private static String front(int kind, String time, String rows) {
        return """
                (SELECT clock, %2$s AS at, %1$d AS kind, true AS passed FROM %3$s
                    AND %2$s <= (SELECT ms FROM now) ORDER BY %2$s LIMIT %%1$d)
                UNION ALL
                (SELECT clock, %2$s, %1$d, false FROM %3$s
                    AND %2$s > (SELECT ms FROM now) ORDER BY %2$s LIMIT 1)""".formatted(kind, time, rows);
    }

    /**
     * A look: the database's now, how many passed times it read, and the clocks with something due or coming. System
     * clocks' times are the database's clock, so each kind is read over all of them from one global index of their
     * rows only ({@code timers_system_due}, {@code deliveries_system_leases}, {@code deliveries_system_retries},
     * V18–V21): at most the window's passed times of each kind (the front of the index up to now) and the first time
     * after now, so the look costs what is due, whatever the number of clocks and rows. Scaled clocks' times are in their own
     * frame: they are read per clock ({@link #perClock}, found by {@code clocks_scaled}); virtual clocks' never come
     * by themselves. A clock's row is the minimum of each kind over what was read of it. {@code OFFSET 0} keeps the
     * scaled subquery from being pulled up, which would run each probe again in the outer WHERE.
     *
     * <p>The window, the most passed times read per kind, is {@code %1$d} in this text, written in by {@link #look}
     * when the loop is built: with no parameter, PostgreSQL plans the statement once per connection (pgjdbc prepares
     * it on the server from its fifth execution) and runs that plan until an {@code ANALYZE} of a table it reads
     * replaces it. With the window a parameter, the generic plan assumed a tenth of the index read, which at
     * 10,000,000 rows cost more than a plan for the bound value: PostgreSQL planned every look again (about 1 ms,
     * against 0.2 ms of execution), and at 10,000 rows it did not.
     */
    static final String LOOK = """
            WITH now AS MATERIALIZED (SELECT db_now_ms() AS ms),
            fronts AS (
            """ + front(0, "fire_time", "timers WHERE system_clock") + """
                UNION ALL
            """ + front(1, "lease_until", "deliveries WHERE system_clock AND state = 'in_flight'") + """
                UNION ALL
            """ + front(2, "retry_at", "deliveries WHERE system_clock AND state = 'waiting'") + """
            )
            SELECT now.ms, (SELECT count(*) FROM fronts WHERE passed), due.name, due.fire_time, due.lease_until,
                   due.retry_at, due.rate_millionths, due.anchor_wall, due.now_ms
              FROM now
              LEFT JOIN (
                SELECT clock AS name, NULL::bigint AS rate_millionths, NULL::bigint AS anchor_wall,
                       NULL::bigint AS now_ms, min(at) FILTER (WHERE kind = 0) AS fire_time,
                       min(at) FILTER (WHERE kind = 1) AS lease_until, min(at) FILTER (WHERE kind = 2) AS retry_at
                  FROM fronts GROUP BY clock
                UNION ALL
                SELECT * FROM (""" + perClock("c.mode = 'scaled' OFFSET 0") + """
            ) scaled
                 WHERE fire_time IS NOT NULL OR lease_until IS NOT NULL OR retry_at IS NOT NULL) due ON true""";

    /** {@link #LOOK} with its window, the most passed times read per kind, in the text: no parameter. */
    static String look(int window) {
        return LOOK.formatted(window);
    }

    /**
     * What comes next on the clocks named (system or scaled), read per clock ({@link #perClock}) after a look's
     * rounds: the clocks it worked on, so O(due) as well. The database's now on the first column, 0 on the second,
     * then as {@link #LOOK}. Parameter: the clocks' names.
     */
    static final String NEXT_ON = """
            SELECT now.ms, 0, due.name, due.fire_time, due.lease_until, due.retry_at, due.rate_millionths,
                   due.anchor_wall, due.now_ms
              FROM (SELECT db_now_ms() AS ms) now
              LEFT JOIN (
                SELECT * FROM (""" + perClock("c.name = ANY (?::text[]) AND c.mode <> 'virtual' OFFSET 0")
            + """
            ) per_clock
                 WHERE fire_time IS NOT NULL OR lease_until IS NOT NULL OR retry_at IS NOT NULL) due ON true""";
}
