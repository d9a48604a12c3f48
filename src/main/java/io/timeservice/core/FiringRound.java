package io.timeservice.core;

/**
 * What one firing round of a system clock did.
 *
 * @param fired        timers fired into the ready queue
 * @param nextDeadline when the clock next needs a round (wall-clock epoch milliseconds), or {@link Long#MAX_VALUE}
 * @param heldBack     whether due timers stayed pending because the deliveries hold their limit
 */
public record FiringRound(int fired, long nextDeadline, boolean heldBack) {
}
