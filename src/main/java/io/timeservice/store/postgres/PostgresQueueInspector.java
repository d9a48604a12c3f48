package io.timeservice.store.postgres;

import java.util.List;
import java.util.Map;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.QueueStatus;
import io.timeservice.store.QueueInspector;

/**
 * The heap views on the PostgreSQL store, which keeps no heap: the clock's size and time with no array cells, and an
 * invariant report of the one check this store has, over every clock: the pending budget matches the rows it counts
 * ({@link BudgetReconciliation}). A clock that does not exist is {@code clock_not_found}, as on the memory store.
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
        store.timers().status(PostgresTimerStore.named(clock)); // clock_not_found first
        return report(store);
    }

    @Override
    public HeapView heapView(String clock, int limit) {
        QueueStatus status = store.timers().status(PostgresTimerStore.named(clock));
        // no reconciliation here: the live view polls, and the check reads every pending row
        return new HeapView(arity, status.size(), status.now(), List.of(), Map.of(),
                new InvariantReport(List.of()).checkedAt(System.currentTimeMillis()));
    }

    private static InvariantReport report(PostgresStore store) {
        return new InvariantReport(List.of(store.budgetMatchesRows())).checkedAt(System.currentTimeMillis());
    }
}
