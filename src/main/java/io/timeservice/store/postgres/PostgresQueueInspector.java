package io.timeservice.store.postgres;

import java.util.List;
import java.util.Map;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.QueueStatus;
import io.timeservice.store.QueueInspector;

/**
 * The heap views on the PostgreSQL store, which keeps no heap: the clock's size and time with no array cells, and an
 * invariant report of the checks this store keeps (the heap's four make no sense without a heap): {@code no-overdue}
 * for the clock (one index probe), and, in the invariants view only, {@code pending-count-matches-rows} (the clock's
 * kept pending count against its timers, V45), {@code flow-keys-match-rows} for a clock with
 * flow control (its flow keys' counts against its ready and in-flight rows, issue 44) and {@code budget-matches-rows} over every clock
 * ({@link BudgetReconciliation}, which reads every pending row). A clock that does not exist is
 * {@code clock_not_found}, as on the memory store.
 */
public final class PostgresQueueInspector implements QueueInspector {

    private final PostgresStore store;
    private final int arity;

    /** @param arity the configured heap arity, shown as the memory store would show it */
    public PostgresQueueInspector(PostgresStore store, int arity) {
        this.store = store;
        this.arity = arity;
    }

    @Override
    public InvariantReport invariants(String clock) {
        String name = PostgresTimerStore.named(clock);
        store.timerReads().status(name); // clock_not_found first
        List<InvariantReport.Check> checks = new java.util.ArrayList<>(List.of(noOverdue(name),
                pendingCountMatchesRows(name)));
        InvariantReport.Check flowKeys = flowKeysMatchRows(name);
        if (flowKeys != null) {
            checks.add(flowKeys);
        }
        checks.add(store.budgetMatchesRows());
        return new InvariantReport(checks)
                .checkedAt(System.currentTimeMillis());
    }

    @Override
    public HeapView heapView(String clock, int limit) {
        String name = PostgresTimerStore.named(clock);
        QueueStatus status = store.timerReads().status(name);
        // no reconciliation here: the live view polls, and that check reads every pending row
        return new HeapView(arity, status.size(), status.now(), List.of(), Map.of(),
                new InvariantReport(List.of(noOverdue(name))).checkedAt(System.currentTimeMillis()));
    }

    /**
     * {@code flow-keys-match-rows}: each flow key's counts are its deliveries' (issue 44), the key rows and the rows
     * counted in one snapshot; null on a clock without flow control. Names the first key (in key order) that differs.
     */
    private InvariantReport.Check flowKeysMatchRows(String clock) {
        return store.jdbc().inRepeatableRead(connection -> {
            if (ClockRows.require(connection, clock, "").flow() == null) {
                return null;
            }
            java.util.TreeMap<String, long[]> counts = new java.util.TreeMap<>(); // key rows' then rows' counts
            countInto(connection, FlowSql.KEY_COUNTS, clock, counts, 0);
            countInto(connection, FlowSql.ROW_COUNTS, clock, counts, 2);
            for (java.util.Map.Entry<String, long[]> key : counts.entrySet()) {
                long[] c = key.getValue();
                if (c[0] != c[2] || c[1] != c[3]) {
                    return InvariantReport.Check.failed("flow-keys-match-rows", "key \"" + key.getKey() + "\" counts "
                            + c[0] + " ready and " + c[1] + " in flight, its rows " + c[2] + " and " + c[3]);
                }
            }
            return InvariantReport.Check.passed("flow-keys-match-rows");
        });
    }

    /** Reads (key, ready, in flight) rows of {@code sql} into {@code counts} at {@code at} and {@code at + 1}. */
    private static void countInto(java.sql.Connection connection, String sql, String clock,
                                  java.util.Map<String, long[]> counts, int at) throws java.sql.SQLException {
        try (java.sql.PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, clock);
            try (java.sql.ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    long[] c = counts.computeIfAbsent(row.getString(1), k -> new long[4]);
                    c[at] = row.getLong(2);
                    c[at + 1] = row.getLong(3);
                }
            }
        }
    }

    /**
     * {@code pending-count-matches-rows}: the clock's pending count, which V45's triggers keep in
     * {@code timer_counts}, is the number of its timers, both read in one statement (one snapshot); counts them all.
     */
    private InvariantReport.Check pendingCountMatchesRows(String clock) {
        return store.jdbc().autocommit(connection -> Jdbc.queryOne(connection, TimerSql.COUNT_AND_ROWS, select -> {
            select.setString(1, clock);
            select.setString(2, clock);
        }, row -> row.getLong(1) == row.getLong(2) ? InvariantReport.Check.passed("pending-count-matches-rows")
                : InvariantReport.Check.failed("pending-count-matches-rows", "the pending count is " + row.getLong(1)
                        + ", the clock has " + row.getLong(2) + " pending timers")));
    }

    /** {@code no-overdue}: a virtual clock's advance left no timer due before the time it has fired through. */
    private InvariantReport.Check noOverdue(String clock) {
        return store.jdbc().autocommit(connection -> {
            InvariantReport.Check failed = Jdbc.queryFirst(connection, FiringSql.OVERDUE,
                    select -> select.setString(1, clock), row -> InvariantReport.Check.failed("no-overdue", "timer "
                            + row.getString(1) + " is due at " + row.getLong(2) + ", before the time the clock has"
                            + " fired through, " + row.getLong(3)));
            return failed != null ? failed : InvariantReport.Check.passed("no-overdue");
        });
    }
}
