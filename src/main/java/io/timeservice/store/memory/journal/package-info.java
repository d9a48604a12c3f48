/**
 * The memory store's write-ahead journal: records framed by {@code RecordCodec} and encoded by the codec of their
 * family ({@code RecordTag} lists every tag), appended by {@code JournalWriter} (group commit, fsync policy,
 * back-pressure), cut by snapshots, and replayed by {@code JournalRecovery} at start-up.
 * Imports {@code model}, {@code store} and the memory store it records.
 */
package io.timeservice.store.memory.journal;
