package io.timeservice.store.memory.journal;


/**
 * What the journal reports about its disk work, so the journal needs no metrics library (the Micrometer adapter is
 * {@code metrics/MicrometerJournalMetrics}). Called on the flusher and snapshot threads, outside the journal's lock;
 * implementations must be thread-safe and cheap. Every method has a no-op default.
 */
public interface JournalMetrics {

    JournalMetrics NONE = new JournalMetrics() {
    };

    /** One write handed {@code records} records in {@code bytes} bytes (batch headers included) to the OS. */
    default void batchWritten(long records, long bytes) {
    }

    /** One fsync of a journal segment took {@code nanos}. */
    default void forced(long nanos) {
    }

    /** A snapshot took {@code nanos} to write; the scheduler lock was held {@code pauseNanos} to copy the state. */
    default void snapshotWritten(long nanos, long pauseNanos) {
    }

    /** A snapshot failed (the journal keeps every record; the next one is tried later). */
    default void snapshotFailed() {
    }
}
