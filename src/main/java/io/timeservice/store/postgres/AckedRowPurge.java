package io.timeservice.store.postgres;

import java.sql.PreparedStatement;

/**
 * The purge of acknowledged deliveries past their retention ({@code timeservice.postgresql.acked-retention}, kept so
 * that a repeated ack still succeeds), run by the firing loop: one round of at most the round size per look when it
 * is due, which is every slow poll, or every retention if that is shorter, but not more often than
 * {@link #MIN_EVERY_MILLIS}; at once again after a full round. Times are the database's clock.
 *
 * <p>Safe across instances: the statement ({@link DeliverySql#PURGE_ACKED}) takes its rows {@code FOR UPDATE SKIP
 * LOCKED}. Not thread-safe: the loop's thread only calls {@link #purgeIfDue}.
 */
final class AckedRowPurge {

    /** The shortest time between two rounds that were not full. */
    static final long MIN_EVERY_MILLIS = 100;

    /** Deletes up to {@code limit} deliveries acknowledged more than {@code olderThanMillis} ago; how many. */
    @FunctionalInterface
    interface Round {
        int purge(long olderThanMillis, int limit);
    }

    private final Round round;
    private final long retentionMillis;
    private final int roundSize;
    private final long everyMillis;
    private long nextPurge = Long.MIN_VALUE;

    AckedRowPurge(Round round, PostgresFiringLoop.Settings settings) {
        this.round = round;
        this.retentionMillis = settings.ackedRetention().toMillis();
        this.roundSize = settings.roundSize();
        this.everyMillis = Math.max(MIN_EVERY_MILLIS, Math.min(settings.slowPoll().toMillis(), retentionMillis));
    }

    /** The purge of the store's acknowledged rows. */
    static AckedRowPurge of(Jdbc jdbc, PostgresFiringLoop.Settings settings) {
        return new AckedRowPurge((olderThanMillis, limit) -> purge(jdbc, olderThanMillis, limit), settings);
    }

    /** Deletes up to {@code limit} deliveries acknowledged more than {@code olderThanMillis} ago; returns how many. */
    static int purge(Jdbc jdbc, long olderThanMillis, int limit) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement purge = connection.prepareStatement(DeliverySql.PURGE_ACKED)) {
                purge.setLong(1, olderThanMillis);
                purge.setInt(2, limit);
                return purge.executeUpdate();
            }
        });
    }

    /**
     * One round when the purge is due at {@code now} (the database's clock); whether the round was full, so that the
     * loop looks again at once.
     */
    boolean purgeIfDue(long now) {
        if (now < nextPurge) {
            return false;
        }
        boolean full = round.purge(retentionMillis, roundSize) >= roundSize;
        nextPurge = full ? now : now + everyMillis;
        return full;
    }

    /** When the next round is due (the database's clock): the loop wakes for it. */
    long nextPurgeMillis() {
        return nextPurge;
    }
}
