package io.timeservice.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first cells of the backing array in heap-array order (not firing order), the id → slot index for those
 * timers, and the invariant report, all read under one lock: what the live heap view draws.
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
