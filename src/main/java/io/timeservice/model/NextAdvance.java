package io.timeservice.model;

/**
 * What an advance to the next event did: the advance itself, and the event it moved to; {@code event} is null when
 * nothing was pending, and then the clock did not move and nothing fired.
 */
public record NextAdvance(AdvanceResult result, NextEvent event) {
}
