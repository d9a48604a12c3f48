package io.timeservice.store;

import java.util.List;

/**
 * The last push attempts of each clock as this instance saw them, newest first, for the operator console's push
 * section ({@code GET /clocks/{c}/push/recent}); the pusher keeps them (push's {@code RecentPushes}). Never a header,
 * a URL or a body.
 */
public interface PushHistory {

    /** Attempts kept per clock. */
    int PER_CLOCK = 20;

    /**
     * One ended attempt.
     *
     * @param at         when it ended, wall-clock epoch milliseconds
     * @param id         the delivery's id
     * @param sequence   the delivery's sequence
     * @param attempt    its attempt number
     * @param outcome    the outcome's kind ({@code success}, {@code http_5xx}, {@code timeout}, ...)
     * @param status     the HTTP status, 0 without an answer
     * @param detail     why, in words
     * @param millis     how long it took
     */
    record Recent(long at, String id, long sequence, int attempt, String outcome, int status, String detail,
                  long millis) {
    }

    /**
     * The last attempts of the clock {@code clock} whose {@link io.timeservice.model.ClockView#incarnation} is
     * {@code incarnation}, newest first (empty when none): never those of a clock deleted before it under the name.
     */
    List<Recent> of(String clock, long incarnation);

    /** Forgets the attempts of the clock {@code clock} (it was deleted). */
    void forget(String clock);
}
