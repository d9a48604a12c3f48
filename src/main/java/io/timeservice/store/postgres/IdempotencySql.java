package io.timeservice.store.postgres;

/**
 * The statements on {@code idempotency_keys} ({@link PostgresIdempotencyStore}), kept as SQL to be reviewed as SQL.
 * Parameters are positional ({@code ?}); each constant says them in order.
 */
final class IdempotencySql {

    private IdempotencySql() {
    }

    /**
     * A running request's row, unless the cap is reached or a live row has the key. Parameters: clock, caller, key,
     * fingerprint, owner, expiry, now, the cap, now.
     */
    static final String BEGIN = """
            INSERT INTO idempotency_keys AS k (clock, caller, key, fingerprint, state, owner, expires_at)
            SELECT ?, ?, ?, ?, 'running', ?, ?
             WHERE (SELECT count(*) FROM idempotency_keys WHERE expires_at > ?) < ?
            ON CONFLICT (clock, caller, key) DO UPDATE
               SET fingerprint = EXCLUDED.fingerprint, state = 'running', owner = EXCLUDED.owner, status = NULL,
                   headers = NULL, body = NULL, expires_at = EXCLUDED.expires_at
             WHERE k.expires_at <= ?
            RETURNING owner""";
    /** A live row of one key. Parameters: clock, caller, key, now. */
    static final String READ = """
            SELECT fingerprint, state, status, headers, body FROM idempotency_keys
             WHERE clock = ? AND caller = ? AND key = ? AND expires_at > ?""";
    /**
     * Keeps the answer of the running request that owns the row. Parameters: status, headers, body, expiry, clock,
     * caller, key, owner.
     */
    static final String KEEP = """
            UPDATE idempotency_keys SET state = 'kept', status = ?, headers = ?, body = ?, expires_at = ?
             WHERE clock = ? AND caller = ? AND key = ? AND owner = ? AND state = 'running'""";
    /** Gives up the running request's row, whose answer is not kept. Parameters: clock, caller, key, owner. */
    static final String RELEASE = """
            DELETE FROM idempotency_keys
             WHERE clock = ? AND caller = ? AND key = ? AND owner = ? AND state = 'running'""";
    /** The expired rows. Parameter: now. */
    static final String PURGE = "DELETE FROM idempotency_keys WHERE expires_at <= ?";
    /** The live keys per clock, for the gauge. Parameter: now. */
    static final String HELD = """
            SELECT clock, count(*) FROM idempotency_keys WHERE expires_at > ? GROUP BY clock""";
}
