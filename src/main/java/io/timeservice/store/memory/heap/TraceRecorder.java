package io.timeservice.store.memory.heap;

import java.util.function.Consumer;

import io.timeservice.model.FiringOrder;
import io.timeservice.model.TraceStep;

/** A {@link HeapListener} that records each step of one heap as a {@link TraceStep}, ids read at that moment. */
public final class TraceRecorder implements HeapListener {

    private final IndexedTimerHeap heap;
    private final Consumer<TraceStep> steps;

    public TraceRecorder(IndexedTimerHeap heap, Consumer<TraceStep> steps) {
        this.heap = heap;
        this.steps = steps;
    }

    @Override
    public void removed(int handle, int slot) {
        steps.accept(TraceStep.remove(heap.idOf(handle), slot));
    }

    @Override
    public void lifted(int handle, int slot) {
        steps.accept(TraceStep.lift(heap.idOf(handle), slot));
    }

    @Override
    public void compared(int handle, int hole, long fireTime, int priority, int otherSlot, boolean precedes) {
        steps.accept(TraceStep.compare(heap.idOf(handle), hole, heap.idOf(heap.handleAt(otherSlot)), otherSlot,
                precedes, FiringOrder.decidingKey(fireTime, priority, heap.fireTimeAt(otherSlot),
                        heap.priorityAt(otherSlot))));
    }

    @Override
    public void writing(int handle, int slot) {
        int from = heap.slotOf(handle);
        String id = heap.idOf(handle);
        steps.accept(from == IndexedTimerHeap.NONE ? TraceStep.place(id, slot) : TraceStep.move(id, from, slot));
    }
}
