package io.timeservice.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.timeservice.core.ErrorCode;
import io.timeservice.core.Mutation;
import io.timeservice.core.MutationLog;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.SchedulerState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead journal: a {@link MutationLog} that appends record frames to numbered segment files.
 *
 * <p>Threads. {@link #append} runs on request threads under the scheduler lock and only encodes into an in-memory
 * batch. One flusher thread takes the whole batch, writes it, and (with {@link FsyncPolicy#ALWAYS}) forces it to
 * disk before it marks those positions durable; callers wait in {@link #awaitDurable} outside the scheduler lock.
 * Whatever accumulates while one force runs goes to disk in the next: concurrent requests share an fsync (group
 * commit). One snapshot thread writes snapshots from a copy of the state taken under the scheduler lock.
 *
 * <p>Failure. If a write or force fails, the journal stops accepting mutations ({@code storage_unavailable}),
 * waiters for positions not yet durable are told so, and the error is logged once. Recovering means a restart,
 * which replays what reached the disk.
 */
public final class JournalWriter implements MutationLog, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JournalWriter.class);
    private static final int INITIAL_BATCH_BYTES = 64 * 1024;

    private final Path dir;
    private final FsyncPolicy fsync;
    private final long fsyncIntervalNanos;
    private final int snapshotMultiple;
    private final long snapshotMinBytes;
    /** How long the last snapshot held the scheduler lock to copy the state; for operators and benchmarks. */
    private volatile long lastSnapshotPauseNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition progress = lock.newCondition();
    /**
     * Threads waiting in {@link #awaitDurable}, earliest position first; guarded by the lock. Each is woken once, when
     * its own record is on disk, instead of all of them at every commit (which, with dozens of waiters, cost more
     * CPU than the commits; docs/BENCHMARKS.md).
     */
    private final PriorityQueue<DurableWaiter> durableWaiters =
            new PriorityQueue<>(Comparator.comparingLong(DurableWaiter::position));

    // Guarded by lock.
    private GrowableBuffer batch = new GrowableBuffer(INITIAL_BATCH_BYTES);
    private GrowableBuffer spare = new GrowableBuffer(INITIAL_BATCH_BYTES);
    /** Records up to this position belong to the segment before a requested rotation; 0 when none is pending. */
    private GrowableBuffer sealedBeforeRotation;
    private long sealedPosition;
    private long rotateToSegment;
    private long appended;
    private long durable;
    private IOException failure;
    private boolean closing;
    private boolean snapshotRunning;

    // Written under the scheduler lock only (append, wantsSnapshot, snapshot run there).
    private long bytesSinceSnapshot;
    private long addedRecords;
    private long addedBytes;

    private final Thread flusher;
    private FileChannel segment;
    private long segmentNumber;

    /**
     * Opens a new segment {@code firstSegment} in {@code dir} and starts the flusher.
     *
     * @param snapshotMultiple a snapshot starts when the journal since the last one is this many times the size a
     *                         snapshot of the live state would have ...
     * @param snapshotMinBytes ... and at least this many bytes
     */
    public JournalWriter(Path dir, long firstSegment, FsyncPolicy fsync, Duration fsyncInterval,
                         int snapshotMultiple, long snapshotMinBytes)
            throws IOException {
        this.dir = dir;
        this.fsync = fsync;
        this.fsyncIntervalNanos = fsyncInterval.toNanos();
        this.snapshotMultiple = snapshotMultiple;
        this.snapshotMinBytes = snapshotMinBytes;
        this.segment = JournalFiles.createSegment(dir, firstSegment);
        this.segmentNumber = firstSegment;
        this.flusher = new Thread(this::flushLoop, "timeservice-journal");
        this.flusher.setDaemon(true);
        this.flusher.start();
    }

    // ---- MutationLog, called by the scheduler ----

    @Override
    public void requireWritable() {
        lock.lock();
        try {
            if (failure != null || closing) {
                throw unavailable();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long append(Mutation mutation) {
        lock.lock();
        try {
            int before = batch.length();
            try {
                RecordCodec.encode(mutation, batch);
            } catch (RuntimeException | Error e) {
                batch.truncate(before); // all or nothing (MutationLog#append): no half-encoded frame stays behind
                throw e;
            }
            int bytes = batch.length() - before;
            bytesSinceSnapshot += bytes;
            if (mutation instanceof Mutation.Added) {
                addedRecords++;
                addedBytes += bytes;
            }
            appended++;
            work.signal();
            return appended;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void awaitDurable(long position) {
        if (fsync != FsyncPolicy.ALWAYS || position == 0) {
            return; // the documented loss window of interval and never: acknowledged before the disk has it
        }
        DurableWaiter waiter;
        lock.lock();
        try {
            if (failure != null) {
                throw unavailable();
            }
            if (durable >= position) {
                return;
            }
            waiter = new DurableWaiter(position, Thread.currentThread());
            durableWaiters.add(waiter);
        } finally {
            lock.unlock();
        }
        while (!waiter.released) {
            LockSupport.park(this);
        }
        if (waiter.failed) {
            throw unavailable();
        }
    }

    /** Wakes the waiters whose records are durable now, or all of them after a failure. Call holding the lock. */
    private void releaseDurableWaiters() {
        for (DurableWaiter next; (next = durableWaiters.peek()) != null
                && (next.position() <= durable || failure != null); ) {
            durableWaiters.poll();
            next.failed = failure != null && next.position() > durable;
            next.released = true;
            LockSupport.unpark(next.thread());
        }
    }

    private static final class DurableWaiter {

        private final long position;
        private final Thread thread;
        /** Written before {@link #released}, read after it. */
        boolean failed;
        volatile boolean released;

        DurableWaiter(long position, Thread thread) {
            this.position = position;
            this.thread = thread;
        }

        long position() {
            return position;
        }

        Thread thread() {
            return thread;
        }
    }

    @Override
    public boolean wantsSnapshot(int size) {
        long averageTimerBytes = addedRecords == 0 ? 64 : addedBytes / addedRecords;
        long liveBytes = (long) size * averageTimerBytes;
        if (bytesSinceSnapshot < Math.max(snapshotMinBytes, snapshotMultiple * liveBytes)) {
            return false;
        }
        lock.lock();
        try {
            return snapshotIdle();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Seals the records appended so far into the current segment, asks the flusher to start the next segment
     * after them, and writes {@code state} as that segment's snapshot on another thread.
     */
    @Override
    public void snapshot(SchedulerState state) {
        long nextSegment;
        lock.lock();
        try {
            if (!snapshotIdle()) {
                return;
            }
            snapshotRunning = true;
            nextSegment = segmentNumber + 1;
            sealedBeforeRotation = batch;
            sealedPosition = appended;
            rotateToSegment = nextSegment;
            batch = takeSpare();
            bytesSinceSnapshot = 0;
            work.signal();
        } finally {
            lock.unlock();
        }
        Thread writer = new Thread(() -> writeSnapshot(nextSegment, state), "timeservice-snapshot");
        writer.setDaemon(true);
        writer.start();
    }

    /** No snapshot is being written and no rotation is pending. Call only while holding the lock. */
    private boolean snapshotIdle() {
        return !snapshotRunning && sealedBeforeRotation == null && rotateToSegment == 0 && failure == null
                && !closing;
    }

    // ---- flushing ----

    private void flushLoop() {
        long lastForce = System.nanoTime();
        boolean dirty = false; // written to the file but not yet forced
        while (true) {
            GrowableBuffer toWrite = null;
            long upTo = 0;
            long rotation = 0;
            boolean stop;
            lock.lock();
            try {
                while (batch.length() == 0 && sealedBeforeRotation == null && !closing) {
                    if (dirty && fsync == FsyncPolicy.INTERVAL) {
                        long wait = fsyncIntervalNanos - (System.nanoTime() - lastForce);
                        if (wait <= 0) {
                            break;
                        }
                        awaitWork(wait);
                    } else {
                        work.awaitUninterruptibly();
                    }
                }
                if (sealedBeforeRotation != null) {
                    toWrite = sealedBeforeRotation;
                    upTo = sealedPosition;
                    rotation = rotateToSegment;
                    sealedBeforeRotation = null;
                } else if (batch.length() > 0) {
                    toWrite = batch;
                    upTo = appended;
                    batch = takeSpare();
                }
                stop = closing && toWrite == null;
            } finally {
                lock.unlock();
            }
            try {
                if (toWrite != null) {
                    write(toWrite);
                    dirty = true;
                }
                boolean force = dirty && (fsync == FsyncPolicy.ALWAYS || rotation != 0 || stop
                        || System.nanoTime() - lastForce >= fsyncIntervalNanos && fsync == FsyncPolicy.INTERVAL);
                if (force) {
                    segment.force(false);
                    lastForce = System.nanoTime();
                    dirty = false;
                }
                if (rotation != 0) {
                    segment.close();
                    segment = JournalFiles.createSegment(dir, rotation);
                    segmentNumber = rotation;
                }
                if (toWrite != null) {
                    markWritten(toWrite, upTo, force || fsync != FsyncPolicy.ALWAYS, rotation != 0);
                }
                if (stop) {
                    return;
                }
            } catch (IOException e) {
                fail(e);
                return;
            }
        }
    }

    private void awaitWork(long nanos) {
        try {
            work.awaitNanos(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A cleared buffer for the next batch. Call only while holding the lock. */
    private GrowableBuffer takeSpare() {
        GrowableBuffer next = spare != null ? spare : new GrowableBuffer(INITIAL_BATCH_BYTES);
        spare = null;
        return next;
    }

    private void write(GrowableBuffer buffer) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(buffer.array(), 0, buffer.length());
        while (bytes.hasRemaining()) {
            segment.write(bytes);
        }
    }

    private void markWritten(GrowableBuffer written, long upTo, boolean durableNow, boolean rotated) {
        lock.lock();
        try {
            written.clear();
            spare = written;
            if (rotated) {
                rotateToSegment = 0;
            }
            if (durableNow) {
                durable = Math.max(durable, upTo);
                releaseDurableWaiters();
            }
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void fail(IOException e) {
        log.error("journal write failed; refusing further mutations until restart", e);
        lock.lock();
        try {
            failure = e;
            releaseDurableWaiters();
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- snapshots ----

    private void writeSnapshot(long segmentForSnapshot, SchedulerState state) {
        long start = System.nanoTime();
        try {
            long bytes = SnapshotFile.write(dir, segmentForSnapshot, state);
            deleteBefore(segmentForSnapshot);
            lastSnapshotPauseNanos = state.copyNanos();
            log.info("snapshot {} written: {} timers, {} bytes in {} ms; the scheduler lock was held {} ms to copy"
                            + " the state", segmentForSnapshot, state.size(), bytes,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                    String.format("%.2f", state.copyNanos() / 1e6));
        } catch (IOException | RuntimeException e) {
            log.warn("snapshot {} failed; the journal keeps every record, so nothing is lost", segmentForSnapshot, e);
        } finally {
            lock.lock();
            try {
                snapshotRunning = false;
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Deletes the segments and snapshots that snapshot {@code segment} makes redundant. */
    private void deleteBefore(long segment) throws IOException {
        for (long number : JournalFiles.segmentNumbers(dir)) {
            if (number < segment) {
                Files.deleteIfExists(JournalFiles.segment(dir, number));
            }
        }
        for (long number : JournalFiles.snapshotNumbers(dir)) {
            if (number < segment) {
                Files.deleteIfExists(JournalFiles.snapshot(dir, number));
            }
        }
    }

    @Override
    public boolean failed() {
        return failure() != null;
    }

    /** The write or fsync failure that stopped the journal, or {@code null} while it works. */
    public IOException failure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }

    public FsyncPolicy fsyncPolicy() {
        return fsync;
    }

    public long lastSnapshotPauseNanos() {
        return lastSnapshotPauseNanos;
    }

    /** Waits until no snapshot is being written (for tests and shutdown). */
    public void awaitSnapshotIdle() {
        lock.lock();
        try {
            while (snapshotRunning) {
                progress.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Flushes and forces everything appended, then stops. Mutations after this are refused. */
    @Override
    public void close() throws IOException {
        awaitSnapshotIdle();
        lock.lock();
        try {
            closing = true;
            work.signal();
        } finally {
            lock.unlock();
        }
        try {
            flusher.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (segment.isOpen()) {
            segment.force(true);
            segment.close();
        }
    }

    private static SchedulerException unavailable() {
        return new SchedulerException(ErrorCode.STORAGE_UNAVAILABLE,
                "the journal cannot record changes; the service refuses them until it is restarted");
    }
}
