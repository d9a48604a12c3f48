package io.timeservice.store.postgres;

import io.timeservice.model.Limits;

/**
 * The statements of the deliveries (table {@code deliveries}): {@link PostgresDeliveries} (claim, ack, nack, extend,
 * counts), {@link LeaseReleaser} (expired leases, due retries, purge of acked rows) and {@link PostgresDeadLetters},
 * gathered here so that they can be reviewed as SQL, each with what it relies on (the firing of due timers into the
 * ready queue is {@link FiringSql#FIRE_DUE}).
 * Parameters are positional ({@code ?}); each constant says them in order where there are several.
 *
 * <p>The indexes they read are in the migrations ({@code db/timeservice}): {@code deliveries_ready} (claims),
 * {@code deliveries_leases}, {@code deliveries_waiting} (the retry step), {@code deliveries_dead},
 * {@code deliveries_claim} (ack, nack, extend), {@code deliveries_acked} (the purge) and
 * {@code deliveries_by_clock} (a clock's counts and its deletion).
 */
final class DeliverySql {

    private DeliverySql() {
    }

    /** A delivery as the API shows it ({@link io.timeservice.model.Delivery}), from the row {@code d}: 15 columns. */
    static final String VIEW = "d.id, d.fire_time, d.priority, d.seq, d.payload, d.attempt, d.state, d.claim,"
            + " d.lease_until, d.retry_at, d.ready_at, d.dead_reason, d.schedule, d.trace_context, d.key";

    /**
     * Claims up to {@code max} ready deliveries of one clock, longest-ready first. The inner SELECT is the fence: it
     * reads the front of the partial index {@code deliveries_ready} and locks what it returns, skipping rows another
     * claim holds; the UPDATE then marks exactly those rows, found by primary key. The picked sequences are an array
     * ({@code = ANY (ARRAY(...))}: an init plan, run once per statement). Written as a subquery in FROM, PostgreSQL
     * could plan it as the inner side of a nested loop under a sequential scan of the table (it did when the table's
     * statistics were taken while it held no live row) and ran it again for every row: each run skipped the rows
     * this statement had already updated and its LIMIT took the next ones, so a claim of 1 leased every ready
     * delivery of the clock ({@code PostgresDeliveriesTest.claim_leasesAtMostMax_whicheverPlanTheStatisticsGive}).
     * Parameters: lease end, clock, max.
     */
    static final String CLAIM = claim("");

    /**
     * {@link #CLAIM} of the pusher: only while the clock's row is the incarnation it read the settings of, judged in
     * the statement's own snapshot (a clock deleted and made again since, and its deliveries fired, between the
     * transaction's read of the clock and this statement, yields nothing). Parameters: lease end, clock, incarnation,
     * max.
     */
    static final String CLAIM_OF = claim(" AND EXISTS (SELECT 1 FROM clocks c WHERE c.name = deliveries.clock"
            + " AND c.incarnation = ?)");

    private static String claim(String condition) {
        return """
            UPDATE deliveries d
               SET state = 'in_flight', claim = gen_random_uuid(), lease_until = ?
             WHERE d.seq = ANY (ARRAY(SELECT seq FROM deliveries
                                       WHERE clock = ? AND state = 'ready'%s
                                       ORDER BY ready_at, fire_time, priority, seq
                                       LIMIT ?
                                       FOR UPDATE SKIP LOCKED))
            RETURNING d.id, d.fire_time, d.priority, d.seq, d.payload, d.attempt, d.claim, d.lease_until, d.ready_at,
                      d.schedule, d.trace_context, d.key""".formatted(condition);
    }

    /**
     * A delivery in flight under this claim whose lease has not ended by the clock's now: the only one ack, nack or
     * extend touch. Parameters: clock, id, claim, the clock's now.
     */
    static final String HELD =
            " WHERE d.clock = ? AND d.id = ? AND d.claim = ? AND d.state = 'in_flight' AND d.lease_until > ?";

    /**
     * Acknowledges the held delivery; answers its bytes (the budget share to give back). done_at is the database's
     * clock on every clock: acked rows are purged by age, and repeated acks read them.
     */
    static final String ACK = "UPDATE deliveries d SET state = 'acked', done_at = db_now_ms(), lease_until = NULL"
            + HELD + " RETURNING d.bytes, d.seq";

    /** Whether the delivery was acknowledged before with this claim (a repeated ack succeeds). */
    static final String ALREADY_ACKED = """
            SELECT 1 FROM deliveries WHERE clock = ? AND id = ? AND claim = ? AND state = 'acked'""";

    /**
     * {@link #ACK} for many (id, claim) pairs. {@code found}: the pairs' rows of the clock, read unlocked and found by
     * their claims only (index {@code deliveries_claim}; {@code OFFSET 0} keeps the other conditions out of the scan:
     * planned on the clock and state instead, PostgreSQL read the clock's whole in-flight range,
     * {@code deliveries_leases}, per call). {@code held}: those rows locked once, by primary key in sequence order (so
     * two overlapping calls wait for each other instead of deadlocking), then kept where the locked version is still
     * in flight under the same claim with its lease not ended: checked outside the locking subquery, whose
     * {@code OFFSET 0} keeps them from being pushed into it (where they were planned on {@code deliveries_leases}
     * again). Then acknowledged. Written before as one {@code FOR UPDATE OF} a subquery, PostgreSQL locked every row
     * twice, first in heap order inside the subquery, then in sequence order.
     * Parameters: claims, ids, claims again, clock, the clock's now.
     */
    static final String ACK_ALL = """
            WITH found AS (
                SELECT DISTINCT d.seq, d.claim
                  FROM (SELECT seq, id, claim, clock FROM deliveries WHERE claim = ANY (?::uuid[]) OFFSET 0) d
                  JOIN unnest(?::text[], ?::uuid[]) AS a(id, claim) ON d.id = a.id AND d.claim = a.claim
                 WHERE d.clock = ?),
            held AS (
                SELECT l.seq
                  FROM (SELECT seq, claim, state, lease_until FROM deliveries
                         WHERE seq = ANY (ARRAY(SELECT seq FROM found))
                         ORDER BY seq OFFSET 0
                           FOR UPDATE) l
                  JOIN found f ON f.seq = l.seq AND f.claim = l.claim
                 WHERE l.state = 'in_flight' AND l.lease_until > ?)
            UPDATE deliveries d SET state = 'acked', done_at = db_now_ms(), lease_until = NULL
              FROM held h
             WHERE d.seq = h.seq
            RETURNING d.id, d.claim, d.bytes, d.seq""";

    /**
     * Which of the (id, claim) pairs were acknowledged before with that claim, found by their claims as in
     * {@link #ACK_ALL}. Parameters: claims, ids, claims again, clock.
     */
    static final String ACKED_BEFORE = """
            SELECT d.id, d.claim FROM (SELECT * FROM deliveries WHERE claim = ANY (?::uuid[]) OFFSET 0) d
              JOIN unnest(?::text[], ?::uuid[]) AS a(id, claim) ON d.id = a.id AND d.claim = a.claim
             WHERE d.clock = ? AND d.state = 'acked'""";

    /** Moves the held delivery's lease end (first parameter) and answers it. */
    static final String EXTEND = "UPDATE deliveries d SET lease_until = ?" + HELD + " RETURNING " + VIEW;

    /** The held delivery a nack gives back, locked while Java decides what it becomes ({@link FailedAttempt}). */
    static final String NACKED = "SELECT d.seq, d.attempt, d.lease_until, d.fire_time FROM deliveries d" + HELD
            + " FOR UPDATE OF d";

    /**
     * Failed attempts (nacked or expired), each decided in Java ({@link FailedAttempt}): one statement for all of
     * them. Parameters: arrays of sequence, state, attempt, retry time, ready time (null: unchanged), dead reason.
     */
    static final String FAILED = """
            UPDATE deliveries d
               SET state = f.state, attempt = f.attempt, claim = NULL, lease_until = NULL, retry_at = f.retry_at,
                   ready_at = coalesce(f.ready_at, d.ready_at), dead_reason = f.reason,
                   done_at = CASE WHEN f.state = 'dead' THEN db_now_ms() END
              FROM unnest(?::bigint[], ?::text[], ?::int[], ?::bigint[], ?::bigint[], ?::text[])
                   AS f (seq, state, attempt, retry_at, ready_at, reason)
             WHERE d.seq = f.seq
            RETURNING""" + " " + VIEW;

    /**
     * In-flight deliveries whose lease ended by the clock's now, in the memory store's order (lease end, sequence),
     * locked; {@code %s} is {@code " SKIP LOCKED"} or empty. Parameters: clock, now, limit.
     */
    static final String EXPIRED = """
            SELECT seq, attempt, lease_until, fire_time FROM deliveries
             WHERE clock = ? AND state = 'in_flight' AND lease_until <= ?
             ORDER BY lease_until, seq LIMIT ? FOR UPDATE%s""";

    /**
     * Waiting deliveries whose retry time has come become ready at that time (as in memory); {@code %s} as in
     * {@link #EXPIRED}. Parameters: clock, now, limit.
     */
    static final String RETRY = """
            UPDATE deliveries SET state = 'ready', ready_at = retry_at, retry_at = NULL
             WHERE seq = ANY (ARRAY(SELECT seq FROM deliveries
                                     WHERE clock = ? AND state = 'waiting' AND retry_at <= ?
                                     ORDER BY retry_at, seq LIMIT ? FOR UPDATE%s))""";

    /**
     * Deletes acknowledged deliveries older than the retention, at most a round of them, skipping rows a repeated ack
     * holds. Parameters: retention in ms, limit.
     *
     * <p>The picked sequences are an array ({@code = ANY (ARRAY(...))}), found by the primary key: written
     * {@code seq IN (SELECT ...)}, PostgreSQL joined the subquery to a sequential scan of the whole table at a
     * million rows ({@code StatementPlansTest}). {@link #RETRY} likewise.
     */
    static final String PURGE_ACKED = """
            DELETE FROM deliveries
             WHERE seq = ANY (ARRAY(SELECT seq FROM deliveries WHERE state = 'acked' AND done_at <= db_now_ms() - ?
                                     LIMIT ? FOR UPDATE SKIP LOCKED))""";

    /** A page of a clock's dead deliveries in sequence order, after a sequence. Parameters: clock, after, limit. */
    static final String LIST_DEAD = "SELECT " + VIEW + """

             FROM deliveries d
             WHERE d.clock = ? AND d.state = 'dead' AND d.seq > ?
             ORDER BY d.seq LIMIT ?""";

    /**
     * The dead deliveries of an id (or the one with that sequence), at most {@link Limits#MAX_DEAD_LETTERS_PER_CALL}
     * of them, the lowest sequences first: what one redrive or delete takes, as on the memory store. Parameters:
     * clock, id, sequence or null, the same sequence again.
     */
    static final String DEAD_OF_ID = " WHERE d.state = 'dead' AND d.seq IN (SELECT seq FROM deliveries"
            + " WHERE clock = ? AND id = ? AND state = 'dead' AND (?::bigint IS NULL OR seq = ?::bigint)"
            + " ORDER BY seq LIMIT " + Limits.MAX_DEAD_LETTERS_PER_CALL + ")";

    /**
     * Dead deliveries become ready again at the clock's now (the first parameter) with a fresh set of attempts;
     * returns them so.
     */
    static final String REDRIVE = "UPDATE deliveries d SET state = 'ready', attempt = 1, done_at = NULL,"
            + " dead_reason = NULL, ready_at = ?" + DEAD_OF_ID + " RETURNING " + VIEW;

    /** Deletes dead deliveries; returns them as they were, and each one's bytes (its budget share). */
    static final String DELETE_DEAD = "DELETE FROM deliveries d" + DEAD_OF_ID + " RETURNING " + VIEW + ", d.bytes";

    /**
     * A delivery filter's four conditions on the row {@code d} ({@link io.timeservice.model.DeliveryFilter}): id
     * prefix, lowest attempt, text of the dead reason, earliest time of death (a dead row's ready_at), each bound
     * twice (null: no condition).
     */
    private static final String FILTER = " AND (?::text IS NULL OR starts_with(d.id, ?::text))"
            + " AND (?::integer IS NULL OR d.attempt >= ?::integer)"
            + " AND (?::text IS NULL OR strpos(d.dead_reason, ?::text) > 0)"
            + " AND (?::bigint IS NULL OR d.ready_at >= ?::bigint)";

    /**
     * A page of a clock's deliveries in one state that a filter takes, by sequence after a sequence. It reads
     * {@code deliveries_dead} for dead ones, {@code deliveries_by_state} for the others. Parameters: clock, state,
     * after, the filter's eight, limit.
     */
    static final String LIST = "SELECT " + VIEW + " FROM deliveries d WHERE d.clock = ? AND d.state = ? AND d.seq > ?"
            + FILTER + " ORDER BY d.seq LIMIT ?";

    /** How many of a clock's deliveries in one state a filter takes. Parameters: clock, state, the filter's eight. */
    static final String COUNT_MATCHING = "SELECT count(*) FROM deliveries d WHERE d.clock = ? AND d.state = ?"
            + FILTER;

    /**
     * The sequences of a chunk of dead deliveries a filter takes, locked, skipping those another call holds: the
     * fence of {@link #REDRIVE_CHUNK} and {@link #DELETE_CHUNK}. Parameters: clock, after, the filter's eight, max.
     */
    private static final String CHUNK_OF_DEAD = " WHERE d.state = 'dead' AND d.seq = ANY (ARRAY(SELECT d.seq"
            + " FROM deliveries d WHERE d.clock = ? AND d.state = 'dead' AND d.seq > ?" + FILTER
            + " ORDER BY d.seq LIMIT ? FOR UPDATE SKIP LOCKED))";

    /**
     * A chunk of a bulk redrive: ready again at the clock's now (the first parameter), from attempt 1; returns their
     * sequences. Then {@link #CHUNK_OF_DEAD}'s parameters.
     */
    static final String REDRIVE_CHUNK = "UPDATE deliveries d SET state = 'ready', attempt = 1, done_at = NULL,"
            + " dead_reason = NULL, ready_at = ?" + CHUNK_OF_DEAD + " RETURNING d.seq";

    /** A chunk of a bulk deletion; returns each one's sequence and bytes. {@link #CHUNK_OF_DEAD}'s parameters. */
    static final String DELETE_CHUNK = "DELETE FROM deliveries d" + CHUNK_OF_DEAD + " RETURNING d.seq, d.bytes";

    /**
     * A clock's unacknowledged deliveries by state and its longest-ready time, in one statement that reads only that
     * clock's unacknowledged rows, and the unacknowledged deliveries of every clock as the budget counts them (the
     * delivery limit's figure: 16 rows).
     */
    static final String COUNTS = """
            SELECT count(*) FILTER (WHERE state = 'ready'), count(*) FILTER (WHERE state = 'in_flight'),
                   count(*) FILTER (WHERE state = 'waiting'), count(*) FILTER (WHERE state = 'dead'),
                   min(ready_at) FILTER (WHERE state = 'ready'),
                   (SELECT coalesce(sum(deliveries), 0) FROM pending_budget)
              FROM deliveries WHERE clock = ? AND state <> 'acked'""";

    /**
     * Whether a timer of the clock is due by its now: at the delivery limit, its firing is held back. One probe of
     * the firing order's front. Parameters: clock, the clock's now.
     */
    static final String ANY_DUE = "SELECT EXISTS (SELECT 1 FROM timers WHERE clock = ? AND fire_time <= ?)";

    /** How many of a clock's deliveries are in one state. Parameters: clock, state. */
    static final String COUNT_IN_STATE = "SELECT count(*) FROM deliveries WHERE clock = ? AND state = ?";
}
