package io.timeservice.store.memory;

import java.util.function.Supplier;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics.Operation;

/**
 * What {@link ClockDeliveries} and {@link ClockFiring} use of their {@link MemoryClock}: its call shapes, its
 * journal-first commit and the state it guards. The first three take the scheduler's lock; call every other method
 * only while holding it.
 */
interface ClockKernel {

    /**
     * Runs {@code validate} outside the lock, then {@code underLock} as a counted mutation: under the lock after the
     * fail-stop check, then waits until the log has it.
     */
    <T> T mutate(Operation operation, Runnable validate, Supplier<Applied<T>> underLock);

    /** As {@link #mutate(Operation, Runnable, Supplier)}, with nothing to check before the lock. */
    default <T> T mutate(Operation operation, Supplier<Applied<T>> underLock) {
        return mutate(operation, () -> { }, underLock);
    }

    /** Runs {@code underLock} as a counted read under the lock. */
    <T> T read(Operation operation, Supplier<T> underLock);

    /** Runs {@code underLock} under the lock after the fail-stop check, uncounted. */
    <T> T serving(Supplier<T> underLock);

    /** Records {@code mutation}, then applies it with its heap steps told to {@code trace}: the scheduler's commit. */
    <T> Applied<T> commit(Mutation mutation, Trace trace, Supplier<T> apply);

    /** As {@link #commit(Mutation, Trace, Supplier)}, untraced. */
    default <T> Applied<T> commit(Mutation mutation, Supplier<T> apply) {
        return commit(mutation, Trace.NONE, apply);
    }

    TimeSource clock();

    ClockSettings settings();

    MutationLog log();

    /** Tells the firing thread about a sooner deadline of a system clock. */
    void tellNextDeadline();
}
