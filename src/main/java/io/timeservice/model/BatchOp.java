package io.timeservice.model;



/**
 * One operation of an atomic batch: the arguments of a single add,
 * edit or cancel, checked and applied as those calls would be.
 */
public sealed interface BatchOp {

    /** The timer's id, which every operation names. */
    String id();

    /** Adds a timer; {@code payload} is compact JSON text or {@code null}; {@code key} its flow-control key or null. */
    record Add(String id, Due due, int priority, String payload, String key) implements BatchOp {

        /** Adds a timer without a flow-control key. */
        public Add(String id, Due due, int priority, String payload) {
            this(id, due, priority, payload, null);
        }

        /** Adds a timer due {@code delay} ms from now. */
        public Add(String id, long delay, int priority, String payload) {
            this(id, Due.after(delay), priority, payload);
        }
    }

    /** Edits a timer: a {@code null} due time or priority keeps it; at least one of them is given. */
    record Edit(String id, Due due, Integer priority, Precondition precondition) implements BatchOp {

        public Edit {
            precondition = precondition == null ? Precondition.NONE : precondition;
        }
    }

    /** Cancels a timer. */
    record Cancel(String id, Precondition precondition) implements BatchOp {

        public Cancel {
            precondition = precondition == null ? Precondition.NONE : precondition;
        }
    }
}
