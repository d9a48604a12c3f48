package io.timeservice.model;



/**
 * The one total order in which timers fire: fireTime, then priority, then sequence, each ascending. Sequences are
 * unique, so no two distinct timers ever compare equal and the order is deterministic whatever the heap's shape.
 * Compared with {@code Long.compare}/{@code Integer.compare}, never by subtraction (which overflows).
 */
public final class FiringOrder {

    private FiringOrder() {
    }

    public static int compare(long fireTimeA, int priorityA, long sequenceA,
                              long fireTimeB, int priorityB, long sequenceB) {
        if (fireTimeA != fireTimeB) {
            return Long.compare(fireTimeA, fireTimeB);
        }
        if (priorityA != priorityB) {
            return Integer.compare(priorityA, priorityB);
        }
        return Long.compare(sequenceA, sequenceB);
    }

    /** Names the key that decided {@link #compare}: for traces that show a person why an entry moved. */
    public static String decidingKey(long fireTimeA, int priorityA, long fireTimeB, int priorityB) {
        if (fireTimeA != fireTimeB) {
            return "fireTime";
        }
        return priorityA != priorityB ? "priority" : "sequence";
    }
}
