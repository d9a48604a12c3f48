/**
 * The memory store's write-ahead journal: records encoded by {@code RecordCodec}, appended by {@code JournalWriter}
 * (group commit, fsync policy, back-pressure), cut by snapshots, and replayed by {@code JournalRecovery} at start-up.
 * Imports {@code model}, {@code store} and the memory store it records.
 */
package io.timeservice.store.memory.journal;
