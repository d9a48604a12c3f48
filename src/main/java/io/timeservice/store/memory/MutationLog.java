package io.timeservice.store.memory;

import io.timeservice.model.ProblemException;

/**
 * Where the scheduler records accepted mutations so that they survive a restart (a write-ahead journal).
 *
 * <p>The scheduler calls {@link #append} while holding its lock, after it has decided that a mutation is accepted
 * and before it applies it, so the log's order is the order in which mutations are applied; then it releases the
 * lock and calls {@link #awaitDurable} before returning to its caller. Appending must therefore be cheap (buffer in
 * memory); waiting for the disk happens outside the lock, where concurrent callers can share one flush (group
 * commit).
 */
public interface MutationLog {

    /** The log of a scheduler that keeps nothing. */
    MutationLog NONE = new MutationLog() {
        @Override
        public long append(Mutation mutation) {
            return 0;
        }

        @Override
        public void awaitDurable(long position) {
        }
    };

    /**
     * Refuses mutations up front when the log can no longer record them (for example after a disk failure), so that
     * nothing is applied that could not be made durable. Called under the scheduler lock before a mutation.
     *
     * @throws ProblemException {@code storage_unavailable}
     */
    default void requireWritable() {
    }

    /**
     * Records {@code mutation} and returns its position. Called under the scheduler lock, before the mutation is
     * applied. All or nothing: either the mutation is recorded, or this throws and nothing of it is recorded (the
     * scheduler then leaves its state untouched).
     */
    long append(Mutation mutation);

    /**
     * Records {@code mutation} and returns once it is forced to disk, whatever the log's fsync policy. Called under
     * the scheduler lock, rarely (sequence reservations), so waiting there is acceptable.
     *
     * @throws ProblemException {@code storage_unavailable} if it cannot be forced (it may still reach the disk)
     */
    default void appendForced(Mutation mutation) {
        awaitDurable(append(mutation));
    }

    /**
     * Whether the log has stopped recording for good (a write or fsync failed): records it accepted may be lost, so
     * the state in memory may differ from what recovery would rebuild, and the scheduler stops serving. Called
     * under the scheduler lock on every call, so it must be cheap.
     */
    default boolean failed() {
        return false;
    }

    /**
     * The position of the last mutation appended so far (0: none). A call that answers "done before" without a change
     * of its own (a repeated ack) waits for it, so that it never confirms a change that is not yet durable. Called
     * under the scheduler lock.
     */
    default long lastAppended() {
        return 0;
    }

    /**
     * Returns once the mutation at {@code position} is as durable as this log promises. Called without the lock.
     *
     * @throws ProblemException {@code storage_unavailable} if it cannot be made durable
     */
    void awaitDurable(long position);

    /**
     * Whether the log has grown enough, relative to a live state of {@code size} timers, that a snapshot should
     * replace it. Called under the scheduler lock after a mutation.
     */
    default boolean wantsSnapshot(int size) {
        return false;
    }

    /**
     * Starts a snapshot of {@code state}, the scheduler's state right after the last appended mutation. Called under
     * the scheduler lock: implementations must start a new log segment here and do the writing elsewhere.
     */
    default void snapshot(SchedulerState state) {
        snapshot(ClocksState.of(state));
    }

    /**
     * Starts a snapshot of every clock at one cut ({@link Clocks} holds every clock's lock meanwhile): as
     * {@link #snapshot(SchedulerState)}, for several clocks.
     */
    default void snapshot(ClocksState state) {
    }
}
