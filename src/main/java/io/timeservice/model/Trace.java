package io.timeservice.model;

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

    public boolean isRecording() {
        return steps != null;
    }

    /** Appends one step; call only when {@link #isRecording}. */
    public void record(TraceStep step) {
        steps.add(step);
    }
}
