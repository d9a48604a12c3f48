package io.timeservice.model;



/**
 * One operation of an atomic batch: the arguments of a single add,
 * edit or cancel, checked and applied as those calls would be.
 */
public sealed interface BatchOp {

    /** The timer's id, which every operation names. */
    String id();

    /**
     * Adds a timer; {@code payload} is compact JSON text or {@code null}; {@code traceContext} the request's trace
     * context or null; {@code key} its flow-control key or null; {@code onConflict} what it does when the id is
     * pending or reserved, as a single add with it ({@link OnConflict}; null: {@link OnConflict#ERROR}).
     */
    record Add(String id, Due due, int priority, String payload, String traceContext, String key,
               OnConflict onConflict) implements BatchOp {

        public Add {
            onConflict = onConflict == null ? OnConflict.ERROR : onConflict;
        }

        /** Adds a timer refused {@code duplicate_id} when its id is pending or reserved. */
        public Add(String id, Due due, int priority, String payload, String traceContext, String key) {
            this(id, due, priority, payload, traceContext, key, OnConflict.ERROR);
        }

        /** Adds a timer without a trace context or a flow-control key. */
        public Add(String id, Due due, int priority, String payload) {
            this(id, due, priority, payload, null, null);
        }

        /** Adds a timer with the trace context {@code traceContext} (null: none) and no flow-control key. */
        public Add(String id, Due due, int priority, String payload, String traceContext) {
            this(id, due, priority, payload, traceContext, null);
        }

        /** Adds a timer without a trace context under the flow-control key {@code key} (null: none). */
        public static Add keyed(String id, Due due, int priority, String payload, String key) {
            return new Add(id, due, priority, payload, null, key);
        }

        /** Adds a timer due {@code delay} ms from now. */
        public Add(String id, long delay, int priority, String payload) {
            this(id, Due.after(delay), priority, payload);
        }

        /** This add keeping the batch request's trace context ({@link TraceContext}, null: none). */
        public Add withTraceContext(String context) {
            return new Add(id, due, priority, payload, context, key, onConflict);
        }

        /** This add deciding by {@code decision} when its id is pending or reserved. */
        public Add withOnConflict(OnConflict decision) {
            return new Add(id, due, priority, payload, traceContext, key, decision);
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
