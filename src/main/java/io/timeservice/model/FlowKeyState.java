package io.timeservice.model;

/**
 * One key of a clock under flow control as {@code GET /clocks/{clock}/flow/keys?busiest=N} shows it: its deliveries
 * and the limits that apply to it now (its override's, else the clock's).
 *
 * @param key         the key ({@code ""} for the timers without one)
 * @param ready       its ready deliveries, held back ones included
 * @param inFlight    its deliveries claimed or being pushed
 * @param heldBack    its ready deliveries held back by its concurrency or rate
 * @param concurrency its concurrency limit, or null for none
 * @param rate        its rate, or null for none
 * @param tokens      the whole tokens in its bucket now, or null without a rate
 * @param override    its override, or null when the clock's limits apply
 */
public record FlowKeyState(String key, int ready, int inFlight, int heldBack, Integer concurrency, FlowRate rate,
                           Long tokens, FlowOverride override) {

    /** What the busiest keys are ordered by, most first: the deliveries the key holds, ready and in flight. */
    public long load() {
        return (long) ready + inFlight;
    }
}
