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
 * for the clock (one index probe), and, in the invariants view only, {@code budget-matches-rows} over every clock
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
        return new InvariantReport(List.of(noOverdue(name), store.budgetMatchesRows()))
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
