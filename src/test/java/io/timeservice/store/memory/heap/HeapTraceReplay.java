package io.timeservice.store.memory.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.TraceStep;

/**
 * Replays a recorded heap trace strictly, as {@link TraceStep} documents it (a move or place fills a hole, a remove
 * or lift empties the slot its id is in), on the array of ids it started from.
 */
public final class HeapTraceReplay {

    private HeapTraceReplay() {
    }

    /** Applies the steps to a copy of {@code before}, checking each step's precondition. */
    public static List<String> replay(List<String> before, List<TraceStep> trace, String context) {
        List<String> cells = new ArrayList<>(before);
        for (TraceStep step : trace) {
            switch (step.op()) {
                case "remove", "lift" -> {
                    assertEquals(step.id(), cells.get(step.from()), context + ": " + step);
                    cells.set(step.from(), null);
                }
                case "move" -> {
                    assertEquals(step.id(), cells.get(step.from()), context + ": " + step);
                    grow(cells, step.to());
                    assertNull(cells.get(step.to()), context + ": move into a slot that is not a hole: " + step);
                    cells.set(step.from(), null);
                    cells.set(step.to(), step.id());
                }
                case "place" -> {
                    grow(cells, step.to());
                    assertNull(cells.get(step.to()), context + ": place into a slot that is not a hole: " + step);
                    cells.set(step.to(), step.id());
                }
                case "compare" -> {
                    assertNull(step.from() < cells.size() ? cells.get(step.from()) : null,
                            context + ": the sifting timer's slot is a hole: " + step);
                    assertEquals(step.otherId(), cells.get(step.to()), context + ": " + step);
                }
                default -> throw new AssertionError(context + ": unknown op " + step);
            }
        }
        while (!cells.isEmpty() && cells.get(cells.size() - 1) == null) {
            cells.remove(cells.size() - 1);
        }
        return cells;
    }

    private static void grow(List<String> cells, int slot) {
        while (cells.size() <= slot) {
            cells.add(null);
        }
    }
}
