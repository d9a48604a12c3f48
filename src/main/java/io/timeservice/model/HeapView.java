package io.timeservice.model;

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
}
