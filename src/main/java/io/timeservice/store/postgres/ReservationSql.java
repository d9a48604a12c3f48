package io.timeservice.store.postgres;

/**
 * The statements on {@code reservations} ({@link PostgresReservations}): the ids a clock with a dedupe window keeps
 * reserved after their timers left. Times are the clock's own. Parameters are positional ({@code ?}); each constant
 * says them in order.
 */
final class ReservationSql {

    private ReservationSql() {
    }

    /** The clock's reservations whose windows ended by a time. Parameters: clock, the clock's now. */
    static final String PURGE = "DELETE FROM reservations WHERE clock = ? AND expires_at <= ?";

    /** One id's live reservation. Parameters: clock, id, the clock's now. */
    static final String FIND = """
            SELECT state, time, seq FROM reservations
             WHERE clock = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)""";

    /** Reservations over every clock, expired ones not purged yet included (the cap's count). */
    static final String COUNT = "SELECT count(*) FROM reservations";

    /**
     * Reserves ids that left (again): one row per element of the arrays. Parameters: clock, then the arrays of
     * ids, states, times, sequences and expiries (null: pinned while the delivery is queued).
     */
    static final String LEAVE = """
            INSERT INTO reservations AS r (clock, id, state, time, seq, expires_at)
            SELECT ?, u.id, u.state, u.time, u.seq, u.expires_at
              FROM unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[])
                   AS u (id, state, time, seq, expires_at)
            ON CONFLICT (clock, id) DO UPDATE
               SET state = EXCLUDED.state, time = EXCLUDED.time, seq = EXCLUDED.seq, expires_at = EXCLUDED.expires_at""";

    /** Releases one id's live reservation, answering it. Parameters: clock, id, the clock's now. */
    static final String RELEASE = """
            DELETE FROM reservations
             WHERE clock = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)
            RETURNING state, time, seq""";

    /** The clock's live reservations, by window start. Parameters: clock, the clock's now. */
    static final String LIST = """
            SELECT id, state, time, seq FROM reservations
             WHERE clock = ? AND (expires_at IS NULL OR expires_at > ?)
             ORDER BY time, seq, id""";

    /** A fork's copy of the source's live reservations. Parameters: the copy, the source, the source's now. */
    static final String COPY = """
            INSERT INTO reservations (clock, id, state, time, seq, expires_at)
            SELECT ?, id, state, time, seq, expires_at FROM reservations
             WHERE clock = ? AND (expires_at IS NULL OR expires_at > ?)""";

    /** Every reservation of a clock (its reset). Parameter: clock. */
    static final String DELETE_ALL = "DELETE FROM reservations WHERE clock = ?";
}
