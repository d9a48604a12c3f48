package io.timeservice.store.postgres;

/**
 * The statements over the whole store rather than one clock, kept as SQL to be reviewed as SQL: the pending budget's
 * stripes ({@link PendingBudgetStripes}, table {@code pending_budget}), its reconciliation with the rows
 * ({@link BudgetReconciliation}), the gauges' sample ({@link StoreSample}) and the database's clock for the skew
 * ({@link ClockSkew}). Parameters are positional ({@code ?}); each constant says them in order.
 */
final class StoreSql {

    private StoreSql() {
    }

    // The pending budget's stripes (PendingBudgetStripes).

    /**
     * A change on one stripe within its allowances, behind a savepoint sent in the same round trip: when the stripe
     * does not fit, rolling back to it ({@link #GIVE_UP_STRIPE}) gives up the row lock that the UPDATE may keep
     * although it changed nothing (see {@link PendingBudgetStripes#change}). Parameters: net timers, bytes and
     * deliveries, the stripe, peak timers, bytes and deliveries.
     */
    static final String CHANGE_WITHIN_ALLOWANCE = """
            SAVEPOINT budget_stripe;
            UPDATE pending_budget SET timers = timers + ?, bytes = bytes + ?, deliveries = deliveries + ?
             WHERE stripe = ? AND timers + ? <= timer_allowance AND bytes + ? <= byte_allowance
               AND deliveries + ? <= delivery_allowance""";

    /** Gives up the stripe {@link #CHANGE_WITHIN_ALLOWANCE} could not change, and its row lock. */
    static final String GIVE_UP_STRIPE = "ROLLBACK TO SAVEPOINT budget_stripe";

    /**
     * A change on one stripe without a check (a release, or a change that grows nothing). Parameters: timers, bytes
     * and deliveries to add (negative to give back), the stripe.
     */
    static final String CHANGE_STRIPE = """
            UPDATE pending_budget SET timers = timers + ?, bytes = bytes + ?, deliveries = deliveries + ?
             WHERE stripe = ?""";

    /** Every stripe with its counts and allowances, locked in stripe order: the exact path. */
    static final String LOCK_STRIPES = """
            SELECT stripe, timers, bytes, deliveries, timer_allowance, byte_allowance, delivery_allowance
              FROM pending_budget ORDER BY stripe FOR UPDATE""";

    /**
     * Writes every stripe's counts and allowances back at once. Parameters: arrays of the stripes, timers, bytes,
     * deliveries, timer, byte and delivery allowances.
     */
    static final String REDISTRIBUTE = """
            UPDATE pending_budget p SET timers = v.timers, bytes = v.bytes, deliveries = v.deliveries,
                   timer_allowance = v.timer_allowance, byte_allowance = v.byte_allowance,
                   delivery_allowance = v.delivery_allowance
              FROM unnest(?::smallint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[])
                   AS v (stripe, timers, bytes, deliveries, timer_allowance, byte_allowance, delivery_allowance)
             WHERE p.stripe = v.stripe""";

    /** The timers, bytes and unacknowledged deliveries the stripes count now, read without locking. */
    static final String BUDGET_TOTALS = "SELECT coalesce(sum(timers), 0), coalesce(sum(bytes), 0),"
            + " coalesce(sum(deliveries), 0) FROM pending_budget";

    /**
     * The unacknowledged deliveries of every clock, counted at start-up while every stripe is locked
     * ({@link PendingBudgetStripes#adopt}): read by the partial index {@code deliveries_pending_by_clock}.
     */
    static final String RECOUNT_DELIVERIES = "SELECT count(*) FROM deliveries WHERE state <> 'acked'";

    // What reads every row, off the request path.

    /**
     * The budget's totals against the rows they stand for, in one statement (one snapshot): the budget's timers and
     * bytes, the pending timers and unacknowledged deliveries and their bytes, the budget's deliveries, the
     * unacknowledged deliveries ({@link BudgetReconciliation}).
     */
    static final String BUDGET_AND_ROWS = """
            SELECT (SELECT coalesce(sum(timers), 0) FROM pending_budget),
                   (SELECT coalesce(sum(bytes), 0) FROM pending_budget),
                   (SELECT count(*) FROM timers) + (SELECT count(*) FROM deliveries WHERE state <> 'acked'),
                   (SELECT coalesce(sum(bytes), 0) FROM timers)
                       + (SELECT coalesce(sum(bytes), 0) FROM deliveries WHERE state <> 'acked'),
                   (SELECT coalesce(sum(deliveries), 0) FROM pending_budget),
                   (SELECT count(*) FROM deliveries WHERE state <> 'acked')""";

    /**
     * The gauges' figures over all clocks in one statement (one snapshot): the database's clock, clocks by mode,
     * pending timers, their bytes and ages, deliveries by state and the oldest ready one's age, schedules by state,
     * the clocks held back at the delivery limit, the flow figures and the paused clocks ({@link StoreSample}).
     * Parameter: the delivery limit.
     */
    static final String SAMPLE = """
            SELECT db_now_ms(),
                   (SELECT string_agg(mode || '=' || n, ',') FROM (SELECT mode, count(*) AS n FROM clocks GROUP BY mode) m),
                   t.pending, t.bytes, db_now_ms() - t.oldest_wall, t.oldest_virtual_age,
                   d.ready, d.in_flight, d.waiting, d.dead, db_now_ms() - d.oldest_ready,
                   s.active, s.paused, s.done,
                   CASE WHEN (SELECT coalesce(sum(deliveries), 0) FROM pending_budget) >= ?
                        THEN (SELECT count(*) FROM clocks c WHERE c.mode <> 'virtual' AND EXISTS
                                (SELECT 1 FROM timers t WHERE t.clock = c.name AND t.fire_time <= clock_now_ms(c)))
                        ELSE 0 END,
                   f.held_back, f.keys_at_limit,
                   (SELECT count(*) FROM clocks WHERE (settings ->> 'paused')::boolean)
              FROM (SELECT count(*) AS pending, coalesce(sum(t.bytes), 0) AS bytes,
                           min(t.created_at_wall) AS oldest_wall,
                           max(CASE WHEN c.mode = 'virtual' THEN c.now_ms - t.created_at END) AS oldest_virtual_age
                      FROM timers t JOIN clocks c ON c.name = t.clock) t,
                   (SELECT count(*) FILTER (WHERE d.state = 'ready') AS ready,
                           count(*) FILTER (WHERE d.state = 'in_flight') AS in_flight,
                           count(*) FILTER (WHERE d.state = 'waiting') AS waiting,
                           count(*) FILTER (WHERE d.state = 'dead') AS dead,
                           min(d.ready_at) FILTER (WHERE d.state = 'ready' AND c.mode = 'system') AS oldest_ready
                      FROM deliveries d JOIN clocks c ON c.name = d.clock
                     WHERE d.state <> 'acked') d,
                   (SELECT count(*) FILTER (WHERE pending IS NOT NULL AND NOT paused) AS active,
                           count(*) FILTER (WHERE pending IS NOT NULL AND paused) AS paused,
                           count(*) FILTER (WHERE pending IS NULL) AS done
                      FROM schedules) s,
                   (SELECT coalesce(sum(k.ready), 0) AS held_back, count(*) AS keys_at_limit
                      FROM flow_keys k JOIN clocks c ON c.name = k.clock,
                           LATERAL (SELECT coalesce(c.settings #> ARRAY['flow', 'keys', k.key, 'rate'],
                                                    c.settings #> '{flow,rate}') AS rate) r
                     WHERE k.ready > 0 AND k.key <> '/'
                       AND (k.in_flight >= k.max_in_flight
                            OR r.rate IS NOT NULL AND k.refilled_at IS NOT NULL
                               AND k.units + least(greatest(0, clock_now_ms(c) - k.refilled_at),
                                                   (r.rate ->> 'period')::bigint) * (r.rate ->> 'limit')::bigint
                                   < (r.rate ->> 'period')::bigint)) f""";

    /** The database's clock now, Unix epoch ms, not the transaction's start ({@link ClockSkew}). */
    static final String DATABASE_CLOCK = "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint";
}
