package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.IntFunction;

/**
 * Firing within {@code timeservice.deliveries.max}: a firing transaction fires first and counts what it fired in its
 * budget change, the last statement, as every budget change is ({@link PendingBudgetStripes}); when the limit has
 * no room for all of it, the change is refused, the whole transaction rolls back ({@link Full}) and
 * {@link #withinRoom} runs it again, told how much room there was. So the count is exact under any concurrency (the
 * stripes decide), a firing that fits costs no more than the budget statement it ends with, and only a firing at the
 * limit is done twice.
 *
 * <p>Each retry is told less room than the attempt before it fired; after {@value #MAX_ATTEMPTS} attempts (room
 * taken by concurrent firings each time, or a schedule's catch-up firing more than the room allows) it is told none,
 * and an attempt told none fires nothing, so it cannot be refused: the loop ends.
 */
final class DeliveryRoom {

    /** Attempts with some room before one is told none. */
    static final int MAX_ATTEMPTS = 4;
    /** What an attempt is told on its first run: no bound from the delivery limit. */
    static final int UNBOUNDED = Integer.MAX_VALUE;

    private DeliveryRoom() {
    }

    /** A firing made more deliveries than the limit had room for; thrown to roll its transaction back. */
    static final class Full extends RuntimeException {
        final long wanted;
        final long room;

        Full(long wanted, long room) {
            super(null, null, false, false);
            this.wanted = wanted;
            this.room = room;
        }
    }

    /**
     * Runs {@code attempt} (one whole transaction) with the room it may fill: {@link #UNBOUNDED} first, then, each
     * time it throws {@link Full}, the room the limit had, and 0 at the end (fire nothing: held back).
     */
    static <T> T withinRoom(IntFunction<T> attempt) {
        int room = UNBOUNDED;
        for (int attempts = 1; ; attempts++) {
            try {
                return attempt.apply(room);
            } catch (Full full) {
                if (room == 0) {
                    throw new IllegalStateException("a firing told no room made " + full.wanted + " deliveries");
                }
                room = attempts >= MAX_ATTEMPTS ? 0 : (int) Math.max(0, Math.min(full.wanted - 1, full.room));
            }
        }
    }

    /**
     * Counts a firing's {@code deliveries} with the change of timers and bytes it made besides them (a schedule's
     * successors and skipped occurrences, never refused, as in memory): the last statement of the transaction.
     *
     * @throws Full when the delivery limit has no room for them, having changed nothing
     */
    static void count(Connection connection, PendingBudgetStripes budget, long netTimers, long netBytes,
                      long deliveries) throws SQLException {
        if (netTimers == 0 && netBytes == 0 && deliveries == 0) {
            return;
        }
        try {
            budget.change(connection, 0, 0, netTimers, netBytes, deliveries, deliveries);
        } catch (PendingBudgetStripes.Exceeded exceeded) {
            throw new Full(deliveries, exceeded.availableDeliveries);
        }
    }
}
