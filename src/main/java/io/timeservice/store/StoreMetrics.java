package io.timeservice.store;

import java.util.List;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Timer;

/**
 * What the scheduler reports about itself, so the core needs no metrics library. Called after the scheduler lock
 * is released; implementations must be thread-safe and cheap. Every method has a no-op default.
 */
public interface StoreMetrics {

    StoreMetrics NONE = new StoreMetrics() {
    };

    enum Operation {
        ADD, CANCEL, EDIT, ADVANCE, GET, LIST, PEEK, BATCH, CLAIM, ACK, NACK, EXTEND, DEAD_LETTERS,
        /** A schedule's put, delete, pause, resume or trigger. */
        SCHEDULE,
        /** A schedule's get, list or next. */
        SCHEDULE_READ
    }

    /** What happened to deliveries; the only values of the {@code event} tag. */
    enum DeliveryEvent { CLAIMED, ACKED, NACKED, EXPIRED, REDELIVERED, DEAD, REDRIVEN, DELETED }

    enum Outcome {
        SUCCESS, REJECTED, NOT_FOUND, CONFLICT;

        /** How a call refused with {@code code} is counted, on every store. */
        public static Outcome of(ErrorCode code) {
            return switch (code) {
                case TIMER_NOT_FOUND, QUEUE_EMPTY, SCHEDULE_NOT_FOUND -> NOT_FOUND;
                case DUPLICATE_ID, PRECONDITION_FAILED, VERSION_LIMIT_REACHED, SCHEDULE_OWNED -> CONFLICT;
                default -> REJECTED;
            };
        }
    }

    /** One scheduler call took {@code nanos}, waiting for the lock included. */
    default void operation(Operation operation, Outcome outcome, long nanos) {
    }

    /** A firing step fired {@code fired} and skipped {@code skipped} schedule occurrences (either possibly 0). */
    default void scheduleOccurrences(int fired, int skipped) {
    }

    /**
     * One advance or firing round of {@code clock} fired {@code timers} (not empty), told after any lock is released:
     * a tracer records the firing as a span linked to the trace contexts they carry (issue 46).
     */
    default void fired(String clock, List<Timer> timers) {
    }

    /** One advance fired {@code count} timers (possibly 0). */
    default void advanced(int count) {
    }

    /** One sift moved an entry {@code levels} levels (possibly 0). */
    default void siftLevels(int levels) {
    }

    /** Flow control found {@code count} keys (or the clock) without a rate token at a claim. */
    default void flowTokensDenied(int count) {
    }

    /** {@code count} deliveries had {@code event}. */
    default void deliveries(DeliveryEvent event, int count) {
    }

    /** A delivery of a system clock was claimed {@code millis} after it became due (its fireTime or retry time). */
    default void deliveryLateness(long millis) {
    }

    /** The firing thread fired a system clock's timer {@code millis} after its fireTime. */
    default void fireLag(long millis) {
    }

    /** One request was refused with {@code code}; the web layer calls this once per such problem answer. */
    default void rejected(ErrorCode code) {
    }

    /** An add was refused because the clock keeps its id reserved (a dedupe window's {@code duplicate_id}). */
    default void reservedIdRefused() {
    }
}
