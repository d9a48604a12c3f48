package io.timeservice.push;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the last failed attempt of a delivery ended, kept in memory for its next attempt's
 * {@code X-CloudTasks-TaskPreviousResponse} (issue 47): at most {@code capacity} entries, the oldest dropped first, and
 * each taken once. Thread-safe (one lock; a put and a take are O(1)).
 */
final class PreviousAttempts {

    private final Map<String, PushOutcome> outcomes;

    PreviousAttempts(int capacity) {
        this.outcomes = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PushOutcome> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized void put(long sequence, int attempt, PushOutcome outcome) {
        outcomes.put(sequence + "/" + attempt, outcome);
    }

    /** The outcome of attempt {@code attempt} of the delivery {@code sequence}, or null when not kept. */
    synchronized PushOutcome take(long sequence, int attempt) {
        return outcomes.remove(sequence + "/" + attempt);
    }
}
