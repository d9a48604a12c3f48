package io.timeservice.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replays a trace exactly as {@code TraceStep} documents it, on a copy of the backing array as it was before the
 * operation, and refuses any step that the documented meaning does not allow (a move into a cell that is not the
 * hole, a compare against a slot that does not hold {@code otherId}, ...). Keys are tracked per id so that every
 * compare's {@code precedes} and {@code decidedBy} can be recomputed from the firing order.
 */
final class TraceReplay {

    /** fireTime, priority, sequence: the three keys of the firing order. */
    record Keys(long fireTime, int priority, long sequence) {

        int compareTo(Keys other) {
            if (fireTime != other.fireTime) {
                return Long.compare(fireTime, other.fireTime);
            }
            if (priority != other.priority) {
                return Integer.compare(priority, other.priority);
            }
            return Long.compare(sequence, other.sequence);
        }

        String decidingKey(Keys other) {
            if (fireTime != other.fireTime) {
                return "fireTime";
            }
            return priority != other.priority ? "priority" : "sequence";
        }
    }

    /** By slot; {@code null} is the hole (or, past the end, a slot that is gone). */
    private final List<String> cells;
    private final Map<String, Keys> keys;
    private final List<String> removed = new ArrayList<>();
    private String inHand;

    TraceReplay(List<String> cells, Map<String, Keys> keys) {
        this.cells = new ArrayList<>(cells);
        this.keys = new HashMap<>(keys);
    }

    /** Gives {@code id} the keys it has after the operation (an added or edited timer). */
    void know(String id, Keys newKeys) {
        keys.put(id, newKeys);
    }

    List<String> removed() {
        return removed;
    }

    void apply(Map<String, Object> step) {
        String op = (String) step.get("op");
        String id = (String) step.get("id");
        String where = "step " + step + " on " + cells + " (in hand: " + inHand + ")";
        switch (op) {
            case "remove" -> {
                int from = slot(step, "from");
                assertThat(cells.get(from)).as("remove takes the id in its slot: " + where).isEqualTo(id);
                cells.set(from, null);
                removed.add(id);
            }
            case "lift" -> {
                int from = slot(step, "from");
                assertThat(inHand).as("nothing may be in hand before a lift: " + where).isNull();
                assertThat(cells.get(from)).as("lift takes the id in its slot: " + where).isEqualTo(id);
                cells.set(from, null);
                inHand = id;
            }
            case "compare" -> {
                int hole = slot(step, "from");
                int other = slot(step, "to");
                takeNewTimerIntoHand(id, hole, where);
                assertThat(inHand).as("only the sifting id is compared: " + where).isEqualTo(id);
                assertThat(cells.get(hole)).as("the sifting id sits over the hole: " + where).isNull();
                String otherId = (String) step.get("otherId");
                assertThat(cells.get(other)).as("compare names the id in slot `to`: " + where).isEqualTo(otherId);
                assertThat(Math.abs(other - hole)).as("compared slots differ: " + where).isPositive();
                Keys mine = keys.get(id);
                Keys theirs = keys.get(otherId);
                assertThat(step.get("precedes")).as("precedes follows the firing order: " + where)
                        .isEqualTo(mine.compareTo(theirs) < 0);
                assertThat(step.get("decidedBy")).as("decidedBy names the first differing key: " + where)
                        .isEqualTo(mine.decidingKey(theirs));
            }
            case "move" -> {
                int from = slot(step, "from");
                int to = slot(step, "to");
                assertThat(cells.get(from)).as("move takes the id in slot `from`: " + where).isEqualTo(id);
                assertThat(cells.get(to)).as("move goes into the hole: " + where).isNull();
                cells.set(to, id);
                cells.set(from, null);
            }
            case "place" -> {
                int to = slot(step, "to");
                takeNewTimerIntoHand(id, to, where);
                assertThat(inHand).as("place writes the id in hand: " + where).isEqualTo(id);
                assertThat(cells.get(to)).as("place fills the hole: " + where).isNull();
                cells.set(to, id);
                inHand = null;
            }
            default -> throw new AssertionError("unknown op in " + where);
        }
    }

    /** The array after the trace: every slot below the new size filled, the gone slots dropped. */
    List<String> result() {
        assertThat(inHand).as("the trace ends with nothing in hand").isNull();
        List<String> after = new ArrayList<>(cells);
        while (!after.isEmpty() && after.get(after.size() - 1) == null) {
            after.remove(after.size() - 1);
        }
        assertThat(after).as("no hole is left inside the array").doesNotContainNull();
        return after;
    }

    /** An insert starts with no lift: its first step names the new slot at the end of the array. */
    private void takeNewTimerIntoHand(String id, int slot, String where) {
        if (inHand == null && !cells.contains(id)) {
            assertThat(slot).as("a new timer starts in the slot after the last: " + where).isEqualTo(cells.size());
            cells.add(null);
            inHand = id;
        }
    }

    private static int slot(Map<String, Object> step, String name) {
        Object value = step.get(name);
        assertThat(value).as(name + " of " + step).isInstanceOf(Integer.class);
        return (Integer) value;
    }
}
