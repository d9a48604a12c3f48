package io.timeservice.push;

import io.timeservice.model.Delivery;

/**
 * What the pusher reports: each attempt's outcome and duration, and how many requests are in flight. The Micrometer
 * adapter lives in {@code metrics}; {@link #NONE} for tests and embedding.
 */
public interface PushMetrics {

    /** One finished attempt: how it ended, and how long it took from sending to its end. */
    void attempt(PushOutcome.Kind outcome, long nanos);

    /**
     * One attempt to push {@code delivery} of {@code clock} (the clock of that name whose
     * {@link io.timeservice.model.ClockView#incarnation} is {@code incarnation}) to {@code url} starts ({@code last}:
     * its failure kills the delivery); its trace headers go with the request and it is told how the attempt ended.
     */
    default PushAttempt attemptStarted(String clock, long incarnation, Delivery delivery, String url, boolean last) {
        return PushAttempt.untraced(delivery);
    }

    /** The HTTP client was replaced because its I/O reactor was down (an I/O thread died). */
    default void clientRestarted() {
    }

    PushMetrics NONE = (outcome, nanos) -> { };
}
