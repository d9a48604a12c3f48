package io.timeservice.core;

/**
 * What the scheduler reports about itself, so the core needs no metrics library. Called after the scheduler lock
 * is released; implementations must be thread-safe and cheap. Every method has a no-op default.
 */
public interface SchedulerMetrics {

    SchedulerMetrics NONE = new SchedulerMetrics() {
    };

    enum Operation { ADD, CANCEL, EDIT, ADVANCE, GET, LIST, PEEK, BATCH }

    enum Outcome { SUCCESS, REJECTED, NOT_FOUND, CONFLICT }

    /** One scheduler call took {@code nanos}, waiting for the lock included. */
    default void operation(Operation operation, Outcome outcome, long nanos) {
    }

    /** One advance fired {@code count} timers (possibly 0). */
    default void advanced(int count) {
    }

    /** One sift moved an entry {@code levels} levels (possibly 0). */
    default void siftLevels(int levels) {
    }

    /** One request was refused with {@code code}; the web layer calls this once per such problem answer. */
    default void rejected(ErrorCode code) {
    }
}
