package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pending budget in the table {@code pending_budget}: timers and payload bytes over every clock (pending timers
 * and unacknowledged deliveries), exact like the memory store's {@code PendingBudget}, but split into
 * {@value #STRIPES} stripes so that concurrent changes from any number of instances rarely wait for one row.
 *
 * <p>Each stripe owns an allowance. A change that fits its (randomly chosen) stripe's allowance updates that one
 * row. One that does not locks every stripe in stripe order, decides exactly against the configured capacity, and
 * redistributes what is left over the stripes. Invariant: per stripe {@code timers <= timer_allowance} and
 * {@code bytes <= byte_allowance}, and the allowances sum to the capacity, so the total never exceeds it; a refusal
 * happens only on the exact path, so no add is refused while the budget has room.
 *
 * <p>Deadlock-free: a transaction enters the exact path holding no stripe, and takes them all in stripe order; one
 * holding a stripe waits for nothing but its commit. Two rules make it so:
 * <ul>
 *   <li>every caller changes the budget at most once per transaction, as its last statement;</li>
 *   <li>the stripe path runs behind a savepoint and rolls back to it when the stripe has no room. In READ
 *       COMMITTED an UPDATE that waited for a row another transaction changed locks the new version before it
 *       re-checks its WHERE, and keeps that lock when the check fails: without the savepoint such a transaction
 *       entered the exact path holding one stripe out of order, waiting for lower stripes that an exact-path holder
 *       had while that one waited for its stripe (the {@code deadlock detected} of
 *       {@code PendingBudgetStripesTest}).</li>
 * </ul>
 * One savepoint per change, so no transaction nears the 64 subtransactions after which PostgreSQL's snapshots
 * overflow to pg_subtrans. Every instance must be configured with the same capacity (the allowances follow
 * whichever started last).
 */
final class PendingBudgetStripes {

    static final int STRIPES = 16;
    /** An allowance no change fits: sends every add to the exact path (far from overflow when a count is added). */
    private static final long NO_ALLOWANCE = Long.MIN_VALUE / 4;

    /**
     * The stripe path, behind a savepoint sent in the same round trip: when the stripe does not fit, rolling back to
     * it gives up the row lock that the UPDATE may keep although it changed nothing (see {@link #change}).
     */
    private static final String CHANGE_WITHIN_ALLOWANCE = """
            SAVEPOINT budget_stripe;
            UPDATE pending_budget SET timers = timers + ?, bytes = bytes + ?
             WHERE stripe = ? AND timers + ? <= timer_allowance AND bytes + ? <= byte_allowance""";
    private static final String GIVE_UP_STRIPE = "ROLLBACK TO SAVEPOINT budget_stripe";
    private static final String RELEASE = """
            UPDATE pending_budget SET timers = timers + ?, bytes = bytes + ? WHERE stripe = ?""";
    private static final String LOCK_ALL = """
            SELECT stripe, timers, bytes, timer_allowance, byte_allowance FROM pending_budget
             ORDER BY stripe FOR UPDATE""";
    private static final String REDISTRIBUTE = """
            UPDATE pending_budget p SET timers = v.timers, bytes = v.bytes,
                   timer_allowance = v.timer_allowance, byte_allowance = v.byte_allowance
              FROM unnest(?::smallint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[])
                   AS v (stripe, timers, bytes, timer_allowance, byte_allowance)
             WHERE p.stripe = v.stripe""";

    private final long capacity;
    private final long capacityBytes;

    /**
     * @param capacity      the most pending timers over all clocks ({@code timeservice.capacity})
     * @param capacityBytes the most id and payload characters they may hold ({@code timeservice.capacity-bytes})
     */
    PendingBudgetStripes(long capacity, long capacityBytes) {
        if (capacity < 1 || capacityBytes < 1) {
            throw new IllegalArgumentException("capacity and capacityBytes must be >= 1: " + capacity + ", "
                    + capacityBytes);
        }
        this.capacity = capacity;
        this.capacityBytes = capacityBytes;
    }

    long capacity() {
        return capacity;
    }

    long capacityBytes() {
        return capacityBytes;
    }

    /** The budget is short: what was available (capacity minus the total) when that was decided exactly. */
    static final class Exceeded extends Exception {
        final long availableTimers;
        final long availableBytes;
        final long pendingBytes;

        Exceeded(long availableTimers, long availableBytes, long pendingBytes) {
            super(null, null, false, false);
            this.availableTimers = availableTimers;
            this.availableBytes = availableBytes;
            this.pendingBytes = pendingBytes;
        }
    }

    /** Makes the allowances sum to this instance's capacity; call at start-up. */
    void adopt(Connection connection) throws SQLException {
        Stripes stripes = lockAll(connection);
        if (stripes.timerAllowance != capacity || stripes.byteAllowance != capacityBytes) {
            redistribute(connection, stripes, 0);
        }
    }

    /**
     * Changes the totals by {@code netTimers} and {@code netBytes} if they stay within the capacity at the change's
     * peak ({@code peakTimers}, {@code peakBytes}: the most its running total needs at any point, at least the net
     * change and 0). The last statement of the caller's transaction (see the class comment).
     *
     * @throws Exceeded having changed nothing, when the peak does not fit
     */
    void change(Connection connection, long peakTimers, long peakBytes, long netTimers, long netBytes)
            throws SQLException, Exceeded {
        int stripe = ThreadLocalRandom.current().nextInt(STRIPES);
        if (peakTimers <= 0 && peakBytes <= 0) {
            update(connection, RELEASE, netTimers, netBytes, stripe);
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(CHANGE_WITHIN_ALLOWANCE)) {
            statement.setLong(1, netTimers);
            statement.setLong(2, netBytes);
            statement.setInt(3, stripe);
            statement.setLong(4, peakTimers);
            statement.setLong(5, peakBytes);
            statement.execute(); // first result: the SAVEPOINT's
            statement.getMoreResults();
            if (statement.getUpdateCount() == 1) {
                return;
            }
        }
        try (Statement giveUp = connection.createStatement()) {
            giveUp.execute(GIVE_UP_STRIPE);
        }
        Stripes stripes = lockAll(connection);
        long availableTimers = capacity - stripes.timers;
        long availableBytes = capacityBytes - stripes.bytes;
        if (peakTimers > availableTimers || peakBytes > availableBytes) {
            throw new Exceeded(availableTimers, availableBytes, stripes.bytes);
        }
        stripes.timersOf[stripe] += netTimers;
        stripes.bytesOf[stripe] += netBytes;
        stripes.timers += netTimers;
        stripes.bytes += netBytes;
        redistribute(connection, stripes, stripe);
    }

    /** Gives back {@code timers} and {@code bytes}; the last statement of the caller's transaction. */
    void release(Connection connection, long timers, long bytes) throws SQLException {
        if (timers != 0 || bytes != 0) {
            update(connection, RELEASE, -timers, -bytes, ThreadLocalRandom.current().nextInt(STRIPES));
        }
    }

    /** The timers and bytes counted now over every clock, read without locking. */
    long[] totals(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT coalesce(sum(timers), 0), coalesce(sum(bytes), 0) FROM pending_budget");
             ResultSet row = statement.executeQuery()) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }

    private static void update(Connection connection, String sql, long timers, long bytes, int stripe)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, timers);
            statement.setLong(2, bytes);
            statement.setInt(3, stripe);
            statement.executeUpdate();
        }
    }

    /** Every stripe, locked in stripe order, with the totals. */
    private static Stripes lockAll(Connection connection) throws SQLException {
        Stripes stripes = new Stripes();
        try (PreparedStatement statement = connection.prepareStatement(LOCK_ALL);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                int stripe = rows.getInt(1);
                stripes.timersOf[stripe] = rows.getLong(2);
                stripes.bytesOf[stripe] = rows.getLong(3);
                stripes.timers += rows.getLong(2);
                stripes.bytes += rows.getLong(3);
                stripes.timerAllowance += rows.getLong(4);
                stripes.byteAllowance += rows.getLong(5);
            }
        }
        return stripes;
    }

    /**
     * Writes the stripes' counts back with allowances that sum to the capacity: each stripe its count plus an even
     * share of what is left, the remainder to {@code favoured} (the stripe that just needed room). With more pending
     * than the capacity (it was lowered between starts), that dimension's allowances are {@link #NO_ALLOWANCE}: every
     * add takes the exact path, which refuses until enough is released and then redistributes.
     */
    private void redistribute(Connection connection, Stripes stripes, int favoured) throws SQLException {
        long spareTimers = capacity - stripes.timers;
        long spareBytes = capacityBytes - stripes.bytes;
        Short[] ids = new Short[STRIPES];
        Long[] timers = new Long[STRIPES];
        Long[] bytes = new Long[STRIPES];
        Long[] timerAllowances = new Long[STRIPES];
        Long[] byteAllowances = new Long[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            ids[i] = (short) i;
            timers[i] = stripes.timersOf[i];
            bytes[i] = stripes.bytesOf[i];
            timerAllowances[i] = allowance(stripes.timersOf[i], spareTimers, i == favoured);
            byteAllowances[i] = allowance(stripes.bytesOf[i], spareBytes, i == favoured);
        }
        try (PreparedStatement statement = connection.prepareStatement(REDISTRIBUTE)) {
            statement.setArray(1, connection.createArrayOf("int2", ids));
            statement.setArray(2, connection.createArrayOf("int8", timers));
            statement.setArray(3, connection.createArrayOf("int8", bytes));
            statement.setArray(4, connection.createArrayOf("int8", timerAllowances));
            statement.setArray(5, connection.createArrayOf("int8", byteAllowances));
            statement.executeUpdate();
        }
    }

    private static long allowance(long count, long spare, boolean favoured) {
        return spare < 0 ? NO_ALLOWANCE : count + spare / STRIPES + (favoured ? spare % STRIPES : 0);
    }

    /** The stripes as read under lock. */
    private static final class Stripes {
        final long[] timersOf = new long[STRIPES];
        final long[] bytesOf = new long[STRIPES];
        long timers;
        long bytes;
        long timerAllowance;
        long byteAllowance;
    }
}
