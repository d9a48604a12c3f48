package io.timeservice.core;

import java.util.List;

/** Where a change records the heap's steps; {@link #NONE} records nothing. */
public final class Trace {

    public static final Trace NONE = new Trace(null);

    private final List<TraceStep> steps;

    private Trace(List<TraceStep> steps) {
        this.steps = steps;
    }

    /** Records into {@code steps}; {@link #NONE} when {@code steps} is null. */
    public static Trace into(List<TraceStep> steps) {
        return steps == null ? NONE : new Trace(steps);
    }

    boolean isRecording() {
        return steps != null;
    }

    /** A listener that records into this trace's steps; call only when {@link #isRecording}. */
    HeapListener recorderFor(IndexedTimerHeap heap) {
        return new TraceRecorder(heap, steps);
    }
}
