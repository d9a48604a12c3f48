package io.timeservice.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first cells of the backing array in heap-array order (not firing order), the id index's entries for those
 * timers (id → the slot the index leads to, null when it lacks the id), both read under one lock, and the invariant
 * report (of the same instant unless it is marked not {@link InvariantReport#current()}): what the live heap view
 * draws.
 */
public record HeapView(int arity, int size, long now, List<Cell> slots, Map<String, Integer> index,
                       InvariantReport invariants) {

    public HeapView {
        slots = List.copyOf(slots);
        index = Collections.unmodifiableMap(new LinkedHashMap<>(index));
    }

    public record Cell(int index, String id, long fireTime, int priority, long sequence) {
    }

    /**
     * The first {@code limit} cells of {@code heap} and the slot the id index leads to for each of their ids: its
     * handle in the index, then the slot recorded for that handle. What the index says, not where the id sits, so a
     * broken index shows. Call holding the heap owner's lock.
     */
    static HeapView sample(IndexedTimerHeap heap, int limit, long now, InvariantReport report) {
        int count = Math.min(limit, heap.size());
        List<Cell> cells = new ArrayList<>(count);
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int slot = 0; slot < count; slot++) {
            Cell cell = heap.cell(slot);
            cells.add(cell);
            int handle = heap.find(cell.id());
            index.put(cell.id(), handle == IndexedTimerHeap.NONE ? null : heap.slotOf(handle));
        }
        return new HeapView(heap.arity(), heap.size(), now, cells, index, report);
    }
}
