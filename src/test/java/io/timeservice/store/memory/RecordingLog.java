package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link MutationLog} in memory whose failures a test switches on: an append that throws, a log that has failed,
 * a snapshot trigger that throws, something that happens while a caller waits for durability. What it recorded can
 * be replayed into a fresh scheduler, as a restart would.
 */
public final class RecordingLog implements MutationLog {

    private final List<Mutation> records = new ArrayList<>();
    private final List<Long> awaited = new ArrayList<>();
    private volatile boolean failed;
    private Throwable nextAppendFailure;
    private boolean snapshotThrows;
    private volatile Error snapshotError;
    private Runnable whileAwaitingDurable = () -> { };

    @Override
    public synchronized long append(Mutation mutation) {
        Throwable failure = nextAppendFailure;
        if (failure != null) {
            nextAppendFailure = null;
            throwUnchecked(failure);
        }
        records.add(mutation);
        return records.size();
    }

    @Override
    public void awaitDurable(long position) {
        synchronized (this) {
            awaited.add(position);
        }
        whileAwaitingDurable.run();
    }

    @Override
    public synchronized long lastAppended() {
        return records.size();
    }

    /** The positions callers waited for, in order. */
    public synchronized List<Long> awaited() {
        return List.copyOf(awaited);
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public synchronized boolean wantsSnapshot(int size) {
        return snapshotThrows;
    }

    @Override
    public void snapshot(ClockImage state) {
        Error error = snapshotError;
        if (error != null) {
            throw error;
        }
        // Not an OutOfMemoryError, which JUnit would treat as fatal to the whole run if it escaped.
        throw new IllegalStateException("test: cannot start the snapshot writer");
    }

    /** The next append throws {@code failure} and records nothing. */
    public synchronized void failNextAppend(Throwable failure) {
        nextAppendFailure = failure;
    }

    /** From now on the log reports that it failed, as a journal does after a write or fsync error. */
    public void fail() {
        failed = true;
    }

    /** From now on every mutation asks for a snapshot, and starting it throws. */
    public synchronized void failSnapshots() {
        snapshotThrows = true;
    }

    /** From now on every mutation asks for a snapshot, and starting it throws {@code error}. */
    public synchronized void failSnapshots(Error error) {
        snapshotError = error;
        snapshotThrows = true;
    }

    /** Runs {@code action} whenever a caller waits for its record to be durable (outside the scheduler lock). */
    public void whileAwaitingDurable(Runnable action) {
        whileAwaitingDurable = action;
    }

    public synchronized List<Mutation> records() {
        return List.copyOf(records);
    }

    /** A fresh scheduler rebuilt from what this log recorded: what a restart would serve. */
    public MemoryClock recover(int arity) {
        MemoryClock recovered = MemoryClock.withVirtualClock(arity, CoreTestSupport.LARGE_CAPACITY);
        recovered.recover(null, records());
        return recovered;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable failure) throws T {
        throw (T) failure;
    }
}
