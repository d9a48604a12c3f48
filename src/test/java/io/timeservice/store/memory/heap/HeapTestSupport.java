package io.timeservice.store.memory.heap;

import java.lang.reflect.Array;
import java.lang.reflect.Field;

/**
 * Reads a private field of the heap's classes by reflection, so production code carries no hooks: to see arrays
 * grow and shrink, and to break the heap on purpose ({@link HeapCorruption}); and the heap's capacities, which only
 * tests read.
 */
public final class HeapTestSupport {

    private HeapTestSupport() {
    }

    /** Length of a private array field of {@code owner}, to see growth and release. */
    public static int arrayLength(Object owner, String fieldName) {
        return Array.getLength(field(owner, fieldName));
    }

    /** Slots the heap's key arrays hold before they must grow. */
    public static int slotCapacity(IndexedTimerHeap heap) {
        return heap.slotCapacity();
    }

    /** Handles the heap's record arrays hold before they must grow. */
    public static int handleCapacity(IndexedTimerHeap heap) {
        return heap.records().capacity();
    }

    public static Object field(Object owner, String fieldName) {
        try {
            Field field = owner.getClass().getDeclaredField(fieldName);
            field.setAccessible(true);
            return field.get(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(owner.getClass().getSimpleName() + " has no field " + fieldName, e);
        }
    }
}
