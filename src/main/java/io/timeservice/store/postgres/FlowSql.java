package io.timeservice.store.postgres;

/**
 * The statements of a claim under flow control ({@link FlowClaim}, issue 44; table {@code flow_keys}, V35), kept as
 * SQL to be reviewed as SQL. A flow clock's key rows count their ready and in-flight deliveries (kept by the
 * {@code deliveries} triggers of V35 in the transaction that moves a delivery) and hold their turn and token bucket;
 * the row of key {@value #CLOCK_KEY} holds the clock's own bucket. Parameters are positional ({@code ?}); each
 * constant says them in order.
 *
 * <p>Indexes: {@code flow_keys_ring} (the keys with something ready and room in flight, by turn),
 * {@code flow_keys_in_flight} (the keys with deliveries in flight), {@code deliveries_flow_ready} (one key's ready
 * deliveries in the ready order).
 */
final class FlowSql {

    private FlowSql() {
    }

    /** The key of the row that holds the clock's own bucket: no key of a timer can be it (the id rules). */
    static final String CLOCK_KEY = "/";

    /**
     * The clock's own row, made when missing and locked either way ({@code ON CONFLICT DO UPDATE} locks the row it
     * found): every claim of a clock with a clock-wide limit holds it, so they decide one after the other. Answers its
     * bucket. Parameter: the clock.
     */
    static final String LOCK_CLOCK = """
            INSERT INTO flow_keys AS k (clock, key, max_in_flight, turn) VALUES (?, '/', 0, 0)
            ON CONFLICT (clock, key) DO UPDATE SET turn = 0
            RETURNING k.units, k.refilled_at""";

    /**
     * The clock's deliveries in flight, summed over its keys that have some: read after {@link #LOCK_CLOCK}, in a
     * snapshot that sees every claim committed before. Parameter: the clock.
     */
    static final String CLOCK_IN_FLIGHT = """
            SELECT coalesce(sum(in_flight), 0) FROM flow_keys WHERE clock = ? AND in_flight > 0""";

    /**
     * A page of the ring: the keys that have something ready and room in flight, by turn after a turn, locked,
     * skipping keys another claim (or an ack, nack or firing of theirs) holds. The conditions are checked again on
     * the locked row's latest version, so a key read here is exactly as its row stands until this transaction ends.
     * Parameters: the clock, after this turn, how many.
     */
    static final String RING = """
            SELECT key, ready, in_flight, max_in_flight, units, refilled_at, turn FROM flow_keys
             WHERE clock = ? AND ready > 0 AND in_flight < max_in_flight AND turn > ?
             ORDER BY turn LIMIT ?
               FOR UPDATE SKIP LOCKED""";

    /**
     * Leases the first {@code n} ready deliveries of each picked key (in the ready order), keys and counts as
     * arrays: one index range of {@code deliveries_flow_ready} per key, never more of a key's backlog than it gives.
     * The key rows are held by this transaction, so no other claim takes from these keys meanwhile. Parameters: lease
     * end, keys, counts, clock, and the incarnation the clock's row must be (null: any).
     */
    static final String TAKE = """
            UPDATE deliveries d
               SET state = 'in_flight', claim = gen_random_uuid(), lease_until = ?
             WHERE d.seq = ANY (ARRAY(
                       SELECT r.seq
                         FROM unnest(?::text[], ?::int[]) AS k (key, n)
                        CROSS JOIN LATERAL (SELECT seq FROM deliveries
                                             WHERE clock = ? AND flow_key = k.key AND state = 'ready'
                                             ORDER BY ready_at, fire_time, priority, seq
                                             LIMIT k.n
                                             FOR UPDATE) r))
               AND (?::bigint IS NULL OR EXISTS (SELECT 1 FROM clocks c WHERE c.name = d.clock
                                                  AND c.incarnation = ?::bigint))
            RETURNING d.id, d.fire_time, d.priority, d.seq, d.payload, d.attempt, d.claim, d.lease_until, d.ready_at,
                      d.schedule, d.trace_context, d.key, d.flow_key""";

    /**
     * After a claim: each key it took from goes to the back of the ring, in the order of its last turn (a fresh turn
     * from {@code flow_turns}, numbered within the claim; null: it keeps its turn), and keeps its bucket as the claim
     * left it. The rows are found by the primary key ({@code key = ANY} of an init plan's array: joined to the
     * arrays alone, PostgreSQL scanned the table at 10,000 keys). Parameters: arrays of keys, last turns, bucket
     * units and refill times, then the clock.
     */
    static final String SERVED = """
            WITH base AS MATERIALIZED (SELECT nextval('flow_turns') * 100000 AS turn),
            u AS MATERIALIZED (
                SELECT * FROM unnest(?::text[], ?::int[], ?::bigint[], ?::bigint[]) AS u (key, last, units, refilled_at))
            UPDATE flow_keys k
               SET turn = CASE WHEN u.last IS NULL THEN k.turn ELSE (SELECT turn FROM base) + u.last END,
                   units = u.units, refilled_at = u.refilled_at
              FROM u
             WHERE k.clock = ? AND k.key = ANY (ARRAY(SELECT key FROM u)) AND k.key = u.key""";
}
