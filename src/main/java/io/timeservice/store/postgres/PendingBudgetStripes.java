package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pending budget in the table {@code pending_budget}: timers and payload bytes over every clock (pending timers
 * and unacknowledged deliveries), and the unacknowledged deliveries alone ({@code timeservice.deliveries.max}), exact
 * like the memory store's {@code PendingBudget}, but split into {@value #STRIPES} stripes so that concurrent changes
 * from any number of instances rarely wait for one row.
 *
 * <p>Each stripe owns an allowance of each count. A change that fits its (randomly chosen) stripe's allowances
 * updates that one row. One that does not locks every stripe in stripe order, decides exactly against the configured
 * limits, and redistributes what is left over the stripes. Invariant: per stripe {@code timers <= timer_allowance},
 * {@code bytes <= byte_allowance} and {@code deliveries <= delivery_allowance}, and each kind of allowance sums to its
 * limit, so no total exceeds its limit; a refusal happens only on the exact path, so no change is refused while the
 * budget has room. A change is checked only in what it grows (a positive peak): firing, which must never be refused
 * for timers (successors of schedules are not, as in memory), is checked for deliveries only.
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
 * whichever started last). The statements are {@link StoreSql}'s.
 */
final class PendingBudgetStripes {

    static final int STRIPES = 16;
    /** An allowance no change fits: sends every add to the exact path (far from overflow when a count is added). */
    private static final long NO_ALLOWANCE = Long.MIN_VALUE / 4;

    private final long capacity;
    private final long capacityBytes;
    /** {@code timeservice.deliveries.max}; unbounded until {@link #limitDeliveries} (the memory store's default). */
    private volatile long maxDeliveries = Long.MAX_VALUE;

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

    /**
     * Bounds the unacknowledged deliveries over every clock; {@link #adopt} then spreads the limit over the stripes.
     * Every instance must be configured with the same limit, as with the capacity.
     */
    void limitDeliveries(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("the delivery limit must be >= 1: " + max);
        }
        maxDeliveries = max;
    }

    long maxDeliveries() {
        return maxDeliveries;
    }

    /** The budget is short: what was available (capacity minus the total) when that was decided exactly. */
    static final class Exceeded extends Exception {
        final long availableTimers;
        final long availableBytes;
        final long pendingBytes;
        final long availableDeliveries;

        Exceeded(long availableTimers, long availableBytes, long pendingBytes, long availableDeliveries) {
            super(null, null, false, false);
            this.availableTimers = availableTimers;
            this.availableBytes = availableBytes;
            this.pendingBytes = pendingBytes;
            this.availableDeliveries = availableDeliveries;
        }

        /**
         * Whether the change's timers and bytes fit and its deliveries did not: the memory store checks the capacity
         * first, so a change short of both is refused for the capacity.
         */
        boolean ofDeliveriesOnly(long peakTimers, long peakBytes, long peakDeliveries) {
            return peakTimers <= availableTimers && peakBytes <= availableBytes && peakDeliveries > availableDeliveries;
        }
    }

    /**
     * Makes the allowances sum to this instance's capacity and delivery limit, and recounts the unacknowledged
     * deliveries while holding every stripe; call at start-up. The recount is exact: a transaction that changed rows
     * and has not yet changed its stripe is invisible to it and changes the stripe afterwards; one that changed its
     * stripe holds that row until it commits, so the count, read after every lock is held, sees its rows. It mends
     * what instances older than the count (V23) fired and acknowledged uncounted during a rolling upgrade.
     */
    void adopt(Connection connection) throws SQLException {
        Stripes stripes = lockAll(connection);
        long counted = Jdbc.queryOne(connection, StoreSql.RECOUNT_DELIVERIES, count -> { }, row -> row.getLong(1));
        boolean recounted = counted != stripes.deliveries;
        if (recounted) {
            stripes.deliveriesOf[0] += counted - stripes.deliveries;
            stripes.deliveries = counted;
        }
        if (recounted || stripes.timerAllowance != capacity || stripes.byteAllowance != capacityBytes
                || stripes.deliveryAllowance != maxDeliveries) {
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
        change(connection, peakTimers, peakBytes, netTimers, netBytes, 0, 0);
    }

    /**
     * As {@link #change(Connection, long, long, long, long)}, also changing the unacknowledged deliveries by
     * {@code netDeliveries}, if they stay within the delivery limit at {@code peakDeliveries}.
     *
     * @throws Exceeded having changed nothing, when a peak does not fit ({@link Exceeded#ofDeliveriesOnly}: the
     *                  deliveries' alone)
     */
    void change(Connection connection, long peakTimers, long peakBytes, long netTimers, long netBytes,
                long peakDeliveries, long netDeliveries) throws SQLException, Exceeded {
        int stripe = ThreadLocalRandom.current().nextInt(STRIPES);
        if (peakTimers <= 0 && peakBytes <= 0 && peakDeliveries <= 0) {
            update(connection, netTimers, netBytes, netDeliveries, stripe);
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(StoreSql.CHANGE_WITHIN_ALLOWANCE)) {
            statement.setLong(1, netTimers);
            statement.setLong(2, netBytes);
            statement.setLong(3, netDeliveries);
            statement.setInt(4, stripe);
            statement.setLong(5, peakTimers);
            statement.setLong(6, peakBytes);
            statement.setLong(7, peakDeliveries);
            statement.execute(); // first result: the SAVEPOINT's
            statement.getMoreResults();
            if (statement.getUpdateCount() == 1) {
                return;
            }
        }
        try (Statement giveUp = connection.createStatement()) {
            giveUp.execute(StoreSql.GIVE_UP_STRIPE);
        }
        Stripes stripes = lockAll(connection);
        long availableTimers = capacity - stripes.timers;
        long availableBytes = capacityBytes - stripes.bytes;
        long availableDeliveries = maxDeliveries - stripes.deliveries;
        if (peakTimers > 0 && peakTimers > availableTimers || peakBytes > 0 && peakBytes > availableBytes
                || peakDeliveries > 0 && peakDeliveries > availableDeliveries) {
            throw new Exceeded(availableTimers, availableBytes, stripes.bytes, availableDeliveries);
        }
        stripes.timersOf[stripe] += netTimers;
        stripes.bytesOf[stripe] += netBytes;
        stripes.deliveriesOf[stripe] += netDeliveries;
        stripes.timers += netTimers;
        stripes.bytes += netBytes;
        stripes.deliveries += netDeliveries;
        redistribute(connection, stripes, stripe);
    }

    /** Gives back {@code timers} and {@code bytes}; the last statement of the caller's transaction. */
    void release(Connection connection, long timers, long bytes) throws SQLException {
        release(connection, timers, bytes, 0);
    }

    /**
     * Gives back {@code timers} and {@code bytes}, of which {@code deliveries} were unacknowledged deliveries, in one
     * statement; the last statement of the caller's transaction.
     */
    void release(Connection connection, long timers, long bytes, long deliveries) throws SQLException {
        if (timers != 0 || bytes != 0 || deliveries != 0) {
            update(connection, -timers, -bytes, -deliveries, ThreadLocalRandom.current().nextInt(STRIPES));
        }
    }

    /** The timers, bytes and unacknowledged deliveries counted now over every clock, read without locking. */
    long[] totals(Connection connection) throws SQLException {
        return Jdbc.queryOne(connection, StoreSql.BUDGET_TOTALS, select -> { },
                row -> new long[] {row.getLong(1), row.getLong(2), row.getLong(3)});
    }

    private static void update(Connection connection, long timers, long bytes, long deliveries, int stripe)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(StoreSql.CHANGE_STRIPE)) {
            statement.setLong(1, timers);
            statement.setLong(2, bytes);
            statement.setLong(3, deliveries);
            statement.setInt(4, stripe);
            statement.executeUpdate();
        }
    }

    /** Every stripe, locked in stripe order, with the totals. */
    private static Stripes lockAll(Connection connection) throws SQLException {
        Stripes stripes = new Stripes();
        try (PreparedStatement statement = connection.prepareStatement(StoreSql.LOCK_STRIPES);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                int stripe = rows.getInt(1);
                stripes.timersOf[stripe] = rows.getLong(2);
                stripes.bytesOf[stripe] = rows.getLong(3);
                stripes.deliveriesOf[stripe] = rows.getLong(4);
                stripes.timers += rows.getLong(2);
                stripes.bytes += rows.getLong(3);
                stripes.deliveries += rows.getLong(4);
                stripes.timerAllowance += rows.getLong(5);
                stripes.byteAllowance += rows.getLong(6);
                stripes.deliveryAllowance += rows.getLong(7);
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
        long spareDeliveries = maxDeliveries - stripes.deliveries;
        Short[] ids = new Short[STRIPES];
        Long[][] columns = new Long[6][STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            ids[i] = (short) i;
            columns[0][i] = stripes.timersOf[i];
            columns[1][i] = stripes.bytesOf[i];
            columns[2][i] = stripes.deliveriesOf[i];
            columns[3][i] = allowance(stripes.timersOf[i], spareTimers, i == favoured);
            columns[4][i] = allowance(stripes.bytesOf[i], spareBytes, i == favoured);
            columns[5][i] = allowance(stripes.deliveriesOf[i], spareDeliveries, i == favoured);
        }
        try (PreparedStatement statement = connection.prepareStatement(StoreSql.REDISTRIBUTE)) {
            statement.setArray(1, connection.createArrayOf("int2", ids));
            for (int column = 0; column < columns.length; column++) {
                statement.setArray(column + 2, connection.createArrayOf("int8", columns[column]));
            }
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
        final long[] deliveriesOf = new long[STRIPES];
        long timers;
        long bytes;
        long deliveries;
        long timerAllowance;
        long byteAllowance;
        long deliveryAllowance;
    }
}
