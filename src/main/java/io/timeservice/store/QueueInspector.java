package io.timeservice.store;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;

/**
 * The views into a clock's queue that only a store with an in-memory heap has: the invariant report and the first
 * cells of the heap array, for the live heap view. The memory store shows its heaps; the PostgreSQL store keeps no
 * heap and shows each clock's size and time with no cells, and the checks it has.
 */
public interface QueueInspector {

    /**
     * The clock's invariant report (the last one, marked not current, while a large queue's walks are held apart).
     *
     * @param clock the clock's name; null for the default clock
     * @throws io.timeservice.model.ProblemException {@code clock_not_found}
     */
    InvariantReport invariants(String clock);

    /**
     * The first {@code limit} cells of the clock's heap array and the id index's entries for their ids, read under
     * the clock's lock, with the invariant report.
     *
     * @param clock the clock's name; null for the default clock
     * @throws io.timeservice.model.ProblemException {@code clock_not_found}
     */
    HeapView heapView(String clock, int limit);
}
