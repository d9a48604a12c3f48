package io.timeservice.model;


/** What a conditional change requires of the timer's current revision (HTTP If-Match); {@link #NONE} accepts any. */
@FunctionalInterface
public interface Precondition {

    Precondition NONE = current -> true;

    boolean accepts(Revision current);

    /** Accepts exactly {@code expected}; {@link #NONE} when {@code expected} is null (unconditional). */
    static Precondition ifMatch(Revision expected) {
        return expected == null ? NONE : expected::equals;
    }
}
