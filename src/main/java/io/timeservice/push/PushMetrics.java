package io.timeservice.push;

/**
 * What the pusher reports: each attempt's outcome and duration, and how many requests are in flight. The Micrometer
 * adapter lives in {@code metrics}; {@link #NONE} for tests and embedding.
 */
public interface PushMetrics {

    /** One finished attempt: how it ended, and how long it took from sending to its end. */
    void attempt(PushOutcome.Kind outcome, long nanos);

    /** The HTTP client was replaced because its I/O reactor was down (an I/O thread died). */
    default void clientRestarted() {
    }

    PushMetrics NONE = (outcome, nanos) -> { };
}
