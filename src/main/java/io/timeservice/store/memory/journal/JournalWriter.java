package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.store.memory.ClocksState;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.MutationLog;
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
 * <p>Batches. Each write is framed as one or more batch frames ({@value #BATCH_HEADER_BYTES}-byte header: body
 * length, CRC32C, and how far the segment had been forced before this write; body: whole record frames, about
 * {@value #BATCH_TARGET_BYTES} bytes at most unless one record is larger). Recovery checks a batch whole before it
 * replays any of it, and damage followed by no batch written after that damage was forced is a torn, never
 * acknowledged write: it is cut off (see {@link JournalRecovery}).
 *
 * <p>Segments roll when they reach {@code segmentBytes} and at every snapshot; the flusher forces a segment before
 * it starts the next.
 *
 * <p>Failure. If a write or force fails, or the flusher dies of anything else, the journal stops accepting mutations
 * ({@code storage_unavailable}), waiters for positions not yet durable are told so, and the error is logged once.
 * Recovering means a restart, which replays what reached the disk. After {@link #close} mutations are refused the
 * same way; whatever was appended before it is flushed and its waiters answered.
 */
public final class JournalWriter implements MutationLog, AutoCloseable {

    /** The largest payload a journal record holds; the configuration keeps the request limits below it. */
    public static final int MAX_PAYLOAD_BYTES = RecordCodec.MAX_PAYLOAD_BYTES;
    public static final long DEFAULT_SEGMENT_BYTES = 32L * 1024 * 1024;
    public static final long DEFAULT_MAX_UNFLUSHED_BYTES = 64L * 1024 * 1024;

    /** u32 body length, u32 CRC32C of (forcedBefore, body), u64 forcedBefore. */
    static final int BATCH_HEADER_BYTES = 16;
    /** A batch frame takes no more records once its body is this large; bounds what recovery holds at once. */
    static final int BATCH_TARGET_BYTES = 1024 * 1024;
    /** No batch body is larger: a full batch plus one largest record. */
    static final int MAX_BATCH_BODY_BYTES = BATCH_TARGET_BYTES + RecordCodec.FRAME_HEADER_BYTES
            + RecordCodec.MAX_ANY_BODY_BYTES;

    private static final Logger log = LoggerFactory.getLogger(JournalWriter.class);
    static final int INITIAL_BATCH_BYTES = 64 * 1024;
    /**
     * The largest buffer kept for the next batch: a batch frame closes at {@link #BATCH_TARGET_BYTES}, so batches of
     * ordinary records stay below it. A buffer grown past it (by a large record: a loaded clock's, up to twice a
     * snapshot document, or a batch of large payloads; or by a backlog) is replaced by a new one of
     * {@link #INITIAL_BATCH_BYTES} once written, so that no grown buffer outlives the record that grew it.
     */
    static final int MAX_KEPT_BUFFER_BYTES = 2 * BATCH_TARGET_BYTES;

    private final Path dir;
    private final FsyncPolicy fsync;
    private final long fsyncIntervalNanos;
    private final int snapshotMultiple;
    private final long snapshotMinBytes;
    private final long segmentBytes;
    private final long maxUnflushedBytes;
    /** How long the last snapshot held the scheduler lock to copy the state; for operators and benchmarks. */
    private volatile long lastSnapshotPauseNanos;
    private volatile JournalMetrics metrics = JournalMetrics.NONE;

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
    /** Where the open batch frame's header starts in {@link #batch}; -1 when the batch is empty. */
    private int frameStart = -1;
    /** Records up to this position belong to the segment before a requested rotation; 0 when none is pending. */
    private GrowableBuffer sealedBeforeRotation;
    private long sealedPosition;
    private long rotateToSegment;
    private long appended;
    /** Positions handed to the OS, and positions forced to disk. */
    private volatile long written;
    private long forced;
    /** The highest position that {@link #appendForced} waits to see forced. */
    private long forceRequested;
    /** Bytes appended but not yet handed to the OS. */
    private long unflushedBytes;
    private IOException failure;
    /** The failure to report when the flusher died and there was no memory left to describe why. */
    private final IOException flusherDied = new IOException("the journal flusher died");
    /** Set (with {@link #failure} or at the end of {@link #close}) once the flusher has exited. */
    private boolean stopped;
    private volatile boolean failed;
    private boolean closing;
    private boolean snapshotRunning;

    // Written under the scheduler lock only (append, wantsSnapshot, snapshot run there).
    private long bytesSinceSnapshot;
    private long addedRecords;
    private long addedBytes;

    private final Thread flusher;
    // Confined to the flusher thread once it runs.
    private FileChannel segment;
    /** The segment being written; changed by the flusher under the lock, read under the lock. */
    private long segmentNumber;
    /** Bytes in the current segment file, and how many of them are forced. */
    private long segmentPosition = JournalFiles.SEGMENT_HEADER_BYTES;
    private long segmentForced = JournalFiles.SEGMENT_HEADER_BYTES;

    /** Test hook: how many times a waiter in {@link #awaitDurable} came back from parking. */
    final LongAdder parkReturns = new LongAdder();
    /** Test hook: runs on the flusher before every write (may block to hold the flusher still). */
    volatile Runnable beforeWrite = () -> { };

    /** A writer with {@link #DEFAULT_SEGMENT_BYTES} segments and {@link #DEFAULT_MAX_UNFLUSHED_BYTES}. */
    public JournalWriter(Path dir, long firstSegment, FsyncPolicy fsync, Duration fsyncInterval,
                         int snapshotMultiple, long snapshotMinBytes) throws IOException {
        this(dir, firstSegment, fsync, fsyncInterval, snapshotMultiple, snapshotMinBytes, DEFAULT_SEGMENT_BYTES,
                DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    /**
     * Opens a new segment {@code firstSegment} in {@code dir} and starts the flusher.
     *
     * @param snapshotMultiple  a snapshot starts when the journal since the last one is this many times the size a
     *                          snapshot of the live state would have ...
     * @param snapshotMinBytes  ... and at least this many bytes
     * @param segmentBytes      a segment rolls once it holds this many bytes
     * @param maxUnflushedBytes above this many bytes not yet handed to the OS, mutations are refused (503)
     */
    public JournalWriter(Path dir, long firstSegment, FsyncPolicy fsync, Duration fsyncInterval,
                         int snapshotMultiple, long snapshotMinBytes, long segmentBytes, long maxUnflushedBytes)
            throws IOException {
        this.dir = dir;
        this.fsync = fsync;
        this.fsyncIntervalNanos = fsyncInterval.toNanos();
        this.snapshotMultiple = snapshotMultiple;
        this.snapshotMinBytes = snapshotMinBytes;
        this.segmentBytes = segmentBytes;
        this.maxUnflushedBytes = maxUnflushedBytes;
        this.segment = JournalFiles.createSegment(dir, firstSegment);
        this.segmentNumber = firstSegment;
        this.flusher = new Thread(this::runFlusher, "timeservice-journal");
        this.flusher.setDaemon(true);
        this.flusher.start();
    }

    // ---- MutationLog, called by the scheduler ----

    /**
     * Refuses when the journal failed or is closed, and when more than {@code maxUnflushedBytes} wait to be written
     * (a stalled disk): that refusal is temporary and, made before the scheduler changes anything, leaves nothing
     * behind.
     */
    @Override
    public void requireWritable() {
        lock.lock();
        try {
            if (failure != null || closing) {
                throw unavailable();
            }
            if (unflushedBytes > maxUnflushedBytes) {
                throw new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "the journal holds " + unflushedBytes
                        + " bytes not yet written to disk, over timeservice.journal.max-unflushed-bytes ("
                        + maxUnflushedBytes + "); the disk is not keeping up, retry later");
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records the whole mutation, or throws with nothing recorded (closed, failed, or the encoding failed). */
    @Override
    public long append(Mutation mutation) {
        lock.lock();
        try {
            if (failure != null || closing) {
                throw unavailable();
            }
            int before = batch.length();
            int frameBefore = frameStart;
            try {
                if (frameStart < 0 || before - frameStart - BATCH_HEADER_BYTES >= BATCH_TARGET_BYTES) {
                    frameStart = before;
                    batch.skip(BATCH_HEADER_BYTES);
                }
                RecordCodec.encode(mutation, batch);
                batch.putIntAt(frameStart, batch.length() - frameStart - BATCH_HEADER_BYTES);
            } catch (Throwable e) {
                batch.truncate(before);
                frameStart = frameBefore;
                throw e;
            }
            int bytes = batch.length() - before;
            unflushedBytes += bytes;
            bytesSinceSnapshot += bytes;
            if (mutation instanceof Mutation.Added
                    || mutation instanceof Mutation.OnClock on && on.mutation() instanceof Mutation.Added) {
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
    public long lastAppended() {
        lock.lock();
        try {
            return appended;
        } finally {
            lock.unlock();
        }
    }

    /** Appends {@code mutation} and waits, uninterruptibly and without the timer thread, until it is forced. */
    @Override
    public void appendForced(Mutation mutation) {
        long position = append(mutation);
        lock.lock();
        try {
            forceRequested = Math.max(forceRequested, position);
            work.signal();
            while (forced < position) {
                if (stopped || failure != null) {
                    throw unavailable();
                }
                progress.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under {@code fsync=always}, returns once {@code position} is forced to disk; under {@code interval} and
     * {@code never} at once, unless the journal failed before writing it. A position already durable succeeds even
     * after a later failure; one that can no longer become durable gets {@code storage_unavailable}. Never waits
     * without bound: the flusher answers every waiter when it stops, however it stops.
     */
    @Override
    public void awaitDurable(long position) {
        if (position == 0) {
            return;
        }
        if (fsync != FsyncPolicy.ALWAYS) {
            if (failed && written < position) {
                throw unavailable(); // the documented loss window of interval and never, but never a lost write
            }
            return;
        }
        DurableWaiter waiter;
        lock.lock();
        try {
            if (forced >= position) {
                return;
            }
            if (failure != null || stopped) {
                throw unavailable();
            }
            waiter = new DurableWaiter(position, Thread.currentThread());
            durableWaiters.add(waiter);
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
        while (!waiter.released) {
            LockSupport.park(this);
            parkReturns.increment();
            // park returns at once while the interrupt flag is set: clear it (and restore it below), never spin
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (waiter.failed) {
            throw unavailable();
        }
    }

    /** Wakes the waiters whose records are forced now, or all of them once the flusher stopped. Hold the lock. */
    private void releaseDurableWaiters() {
        for (DurableWaiter next; (next = durableWaiters.peek()) != null
                && (next.position() <= forced || failure != null || stopped); ) {
            durableWaiters.poll();
            next.failed = next.position() > forced;
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
     * after them, and writes {@code state} as that segment's snapshot on another thread. Never throws: a snapshot
     * that cannot start or fails is logged, the journal keeps every record, and the next one is tried when the
     * journal has grown again.
     */
    @Override
    public void snapshot(ClocksState state) {
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
            frameStart = -1;
            bytesSinceSnapshot = 0;
            work.signal();
        } finally {
            lock.unlock();
        }
        try {
            Thread writer = new Thread(() -> writeSnapshot(nextSegment, state), "timeservice-snapshot");
            writer.setDaemon(true);
            writer.start();
        } catch (Throwable e) {
            log.warn("snapshot {} could not start; the journal keeps every record, so nothing is lost", nextSegment,
                    e);
            snapshotDone();
        }
    }

    /** No snapshot is being written and no rotation is pending. Call only while holding the lock. */
    private boolean snapshotIdle() {
        return !snapshotRunning && sealedBeforeRotation == null && rotateToSegment == 0 && failure == null
                && !closing;
    }

    // ---- flushing ----

    /** The flusher: whatever ends it (close, an I/O error, any other throwable) answers every waiter. */
    private void runFlusher() {
        boolean closed = false;
        try {
            flushLoop();
            closed = true;
        } catch (Throwable e) {
            fail(e);
        } finally {
            lock.lock();
            try {
                if (!closed && failure == null) {
                    markFailed(flusherDied); // fail() itself failed, e.g. out of memory again
                }
                stopped = true;
                releaseDurableWaiters();
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void flushLoop() throws IOException {
        long lastForce = System.nanoTime();
        boolean dirty = false; // written to the file but not yet forced
        while (true) {
            GrowableBuffer toWrite = null;
            long upTo;
            long rotation = 0;
            boolean forceRequestedNow;
            boolean stop;
            lock.lock();
            try {
                while (batch.length() == 0 && sealedBeforeRotation == null && !closing && forceRequested <= forced) {
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
                upTo = written;
                if (sealedBeforeRotation != null) {
                    toWrite = sealedBeforeRotation;
                    upTo = sealedPosition;
                    rotation = rotateToSegment;
                    sealedBeforeRotation = null;
                } else if (batch.length() > 0) {
                    toWrite = batch;
                    upTo = appended;
                    batch = takeSpare();
                    frameStart = -1;
                    if (rotateToSegment == 0 && segmentPosition + toWrite.length() >= segmentBytes) {
                        rotation = segmentNumber + 1;
                        rotateToSegment = rotation; // holds snapshots off until the new segment exists
                    }
                }
                forceRequestedNow = forceRequested > forced;
                stop = closing && toWrite == null;
            } finally {
                lock.unlock();
            }
            boolean force = fsync == FsyncPolicy.ALWAYS || rotation != 0 || stop || forceRequestedNow
                    || fsync == FsyncPolicy.INTERVAL && System.nanoTime() - lastForce >= fsyncIntervalNanos;
            if (toWrite != null) {
                if (forceRequestedNow && dirty) {
                    // so that this batch's header can say everything before it is on disk (JournalRecovery)
                    force();
                }
                beforeWrite.run();
                write(toWrite);
                metrics.batchWritten(upTo - written, toWrite.length());
                dirty = true;
            }
            force &= dirty;
            if (force) {
                force();
                lastForce = System.nanoTime();
                dirty = false;
            }
            // published before the roll: a failure creating the next segment must not refuse records on disk
            markWritten(toWrite, upTo, force || !dirty, 0);
            if (rotation != 0) {
                segment.close();
                segment = JournalFiles.createSegment(dir, rotation);
                segmentPosition = JournalFiles.SEGMENT_HEADER_BYTES;
                segmentForced = segmentPosition;
                markWritten(null, 0, false, rotation);
            }
            if (stop) {
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

    /** Forces the segment's written bytes to disk, timing the fsync. Call only on the flusher. */
    private void force() throws IOException {
        long start = System.nanoTime();
        segment.force(false);
        metrics.forced(System.nanoTime() - start);
        segmentForced = segmentPosition;
    }

    /** Test hook: the capacities of the batch buffer and of the spare one (0 while the flusher holds it). */
    int[] bufferCapacities() {
        lock.lock();
        try {
            return new int[] {batch.array().length, spare == null ? 0 : spare.array().length};
        } finally {
            lock.unlock();
        }
    }

    /** A cleared buffer for the next batch. Call only while holding the lock. */
    private GrowableBuffer takeSpare() {
        GrowableBuffer next = spare != null ? spare : new GrowableBuffer(INITIAL_BATCH_BYTES);
        spare = null;
        return next;
    }

    /** Completes each batch frame's header (what is forced so far, the checksum) and writes the buffer. */
    private void write(GrowableBuffer buffer) throws IOException {
        byte[] bytes = buffer.array();
        for (int frame = 0; frame < buffer.length(); ) {
            int bodyLength = buffer.getIntAt(frame);
            buffer.putLongAt(frame + 8, segmentForced);
            buffer.putIntAt(frame + 4, RecordCodec.crc32c(bytes, frame + 8, 8 + bodyLength));
            frame += BATCH_HEADER_BYTES + bodyLength;
        }
        ByteBuffer out = ByteBuffer.wrap(bytes, 0, buffer.length());
        while (out.hasRemaining()) {
            segment.write(out);
        }
        segmentPosition += buffer.length();
    }

    /**
     * Publishes the flusher's progress: positions up to {@code upTo} written ({@code written} null: none new), all
     * of them forced when {@code forcedNow}, and the rotation to {@code rotated} (0: none) done.
     */
    private void markWritten(GrowableBuffer writtenBuffer, long upTo, boolean forcedNow, long rotated) {
        lock.lock();
        try {
            if (writtenBuffer != null) {
                unflushedBytes -= writtenBuffer.length();
                writtenBuffer.clear();
                spare = writtenBuffer.array().length > MAX_KEPT_BUFFER_BYTES
                        ? new GrowableBuffer(INITIAL_BATCH_BYTES) : writtenBuffer;
                written = Math.max(written, upTo);
            }
            if (rotated != 0) {
                segmentNumber = rotated;
                rotateToSegment = 0;
            }
            if (forcedNow) {
                forced = Math.max(forced, written);
                releaseDurableWaiters();
            }
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Fails the journal first, allocating nothing (the flusher may have died of an OutOfMemoryError), and only then
     * describes and logs {@code e}, which may fail in turn without undoing the failure.
     */
    private void fail(Throwable e) {
        // Described before anyone is told, so a woken waiter or a health probe sees the cause; if even the
        // description cannot be built (out of memory), the exception made in advance stands in for it.
        IOException cause = flusherDied;
        try {
            cause = e instanceof IOException io ? io : new IOException("the journal flusher died: " + e, e);
        } catch (Throwable noDescription) {
            // the journal fails all the same, below
        }
        lock.lock();
        try {
            markFailed(cause);
        } finally {
            lock.unlock();
        }
        try {
            log.error("journal write failed; refusing further mutations until restart", e);
        } catch (Throwable reportFailed) {
            // the journal has failed all the same
        }
    }

    /** Refuses every mutation from now on and answers every waiter. Call only while holding the lock. */
    private void markFailed(IOException cause) {
        if (failure == null) {
            failure = cause;
        }
        failed = true;
        releaseDurableWaiters();
        progress.signalAll();
    }

    // ---- snapshots ----

    private void writeSnapshot(long segmentForSnapshot, ClocksState state) {
        long start = System.nanoTime();
        try {
            long bytes = SnapshotFile.write(dir, segmentForSnapshot, state);
            deleteBefore(segmentForSnapshot);
            lastSnapshotPauseNanos = state.copyNanos();
            metrics.snapshotWritten(System.nanoTime() - start, state.copyNanos());
            log.info("snapshot {} written: {} timers, {} bytes in {} ms; the scheduler lock was held {} ms to copy"
                            + " the state", segmentForSnapshot, state.size(), bytes,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                    String.format("%.2f", state.copyNanos() / 1e6));
        } catch (Throwable e) {
            metrics.snapshotFailed();
            log.warn("snapshot {} failed; the journal keeps every record, so nothing is lost", segmentForSnapshot, e);
        } finally {
            snapshotDone();
        }
    }

    private void snapshotDone() {
        lock.lock();
        try {
            snapshotRunning = false;
            progress.signalAll();
        } finally {
            lock.unlock();
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
        return failed; // volatile: asked under the scheduler lock on every call, without taking this lock
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

    /** Reports batches, fsyncs and snapshots to {@code metrics} from now on. */
    public void reportTo(JournalMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** Waits until everything appended so far is handed to the OS, or the journal stopped (tests). */
    void awaitWritten() {
        lock.lock();
        try {
            while (written < appended && failure == null && !stopped) {
                progress.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
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

    /**
     * Flushes and forces everything appended, then stops. Mutations after this are refused with
     * {@code storage_unavailable}; waiters for what was appended before are answered when it is on disk.
     */
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
        // uninterruptibly: returning early would close the segment under the flusher and release the directory
        boolean interrupted = false;
        while (true) {
            try {
                flusher.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        try {
            if (segment.isOpen()) {
                segment.force(true);
                segment.close();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt(); // only now: a FileChannel closes itself on an interrupted thread
            }
        }
    }

    private static ProblemException unavailable() {
        return new ProblemException(ErrorCode.STORAGE_UNAVAILABLE,
                "the journal cannot record changes; the service refuses them until it is restarted");
    }
}
