package io.timeservice.core;

import java.util.List;

/** A {@link HeapListener} that records each step of one heap as a {@link TraceStep}, ids read at that moment. */
final class TraceRecorder implements HeapListener {

    private final IndexedTimerHeap heap;
    private final List<TraceStep> steps;

    TraceRecorder(IndexedTimerHeap heap, List<TraceStep> steps) {
        this.heap = heap;
        this.steps = steps;
    }

    @Override
    public void removed(int handle, int slot) {
        steps.add(TraceStep.remove(heap.idOf(handle), slot));
    }

    @Override
    public void lifted(int handle, int slot) {
        steps.add(TraceStep.lift(heap.idOf(handle), slot));
    }

    @Override
    public void compared(int handle, int hole, long fireTime, int priority, int otherSlot, boolean precedes) {
        steps.add(TraceStep.compare(heap.idOf(handle), hole, heap.idOf(heap.handleAt(otherSlot)), otherSlot,
                precedes, FiringOrder.decidingKey(fireTime, priority, heap.fireTimeAt(otherSlot),
                        heap.priorityAt(otherSlot))));
    }

    @Override
    public void writing(int handle, int slot) {
        int from = heap.slotOf(handle);
        String id = heap.idOf(handle);
        steps.add(from == IndexedTimerHeap.NONE ? TraceStep.place(id, slot) : TraceStep.move(id, from, slot));
    }
}
