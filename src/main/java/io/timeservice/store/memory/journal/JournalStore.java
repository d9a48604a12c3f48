package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.InvariantReport;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns a data directory for one process: holds its lock file, recovers the scheduler from it, then journals every
 * mutation into it until {@link #close}.
 */
public final class JournalStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JournalStore.class);

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final JournalWriter writer;

    private JournalStore(Path dir, FileChannel lockChannel, FileLock lock, JournalWriter writer) {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.writer = writer;
    }

    /** As {@link #open(Path, MemoryClock, FsyncPolicy, Duration, int, long, long, long)} with default sizes. */
    public static JournalStore open(Path dir, MemoryClock scheduler, FsyncPolicy fsync, Duration fsyncInterval,
                                    int snapshotMultiple, long snapshotMinBytes) throws IOException {
        return open(dir, scheduler, fsync, fsyncInterval, snapshotMultiple, snapshotMinBytes,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    /**
     * Locks {@code dir} (creating it), recovers {@code scheduler} — which must be fresh — from the snapshot and
     * journal in it, checks the four invariants, and attaches a journal writer.
     *
     * @param segmentBytes      a segment rolls once it holds this many bytes
     * @param maxUnflushedBytes above this many bytes not yet written, changes are refused with 503
     * @throws IllegalStateException      when another process (or this one) already owns the directory
     * @throws JournalCorruptedException  when the directory holds damage that recovery must not guess about
     */
    public static JournalStore open(Path dir, MemoryClock scheduler, FsyncPolicy fsync, Duration fsyncInterval,
                                    int snapshotMultiple, long snapshotMinBytes, long segmentBytes,
                                    long maxUnflushedBytes) throws IOException {
        return open(dir, new Owner() {
            @Override
            public void recover(JournalRecovery.Plan plan) {
                scheduler.recover(plan.snapshot(), plan);
                requireInvariants(scheduler, "recovered state");
            }

            @Override
            public void attach(JournalWriter writer) {
                scheduler.attachLog(writer);
            }

            @Override
            public String summary() {
                return scheduler.status().size() + " pending timers at now=" + scheduler.now();
            }
        }, fsync, fsyncInterval, snapshotMultiple, snapshotMinBytes, segmentBytes, maxUnflushedBytes);
    }

    /**
     * As {@link #open(Path, MemoryClock, FsyncPolicy, Duration, int, long, long, long)} for every clock of
     * {@code clocks} (fresh): recovers each from the one journal, checks each clock's invariants, and attaches the
     * writer to all of them.
     */
    public static JournalStore open(Path dir, ClockRegistry clocks, FsyncPolicy fsync, Duration fsyncInterval,
                                    int snapshotMultiple, long snapshotMinBytes, long segmentBytes,
                                    long maxUnflushedBytes) throws IOException {
        return open(dir, new Owner() {
            @Override
            public void recover(JournalRecovery.Plan plan) {
                clocks.recover(plan.clocksSnapshot(), plan);
                for (ClockRegistry.Clock clock : clocks.list(Integer.MAX_VALUE, null)) {
                    requireInvariants(clock.scheduler(), "recovered clock " + clock.name());
                }
            }

            @Override
            public void attach(JournalWriter writer) {
                clocks.attachLog(writer);
            }

            @Override
            public String summary() {
                return clocks.count() + " clocks with " + clocks.budget().timers() + " pending timers";
            }
        }, fsync, fsyncInterval, snapshotMultiple, snapshotMinBytes, segmentBytes, maxUnflushedBytes);
    }

    /** What a journal is opened for: one scheduler, or every clock of a registry. */
    private interface Owner {

        /** Rebuilds the state {@code plan} describes and checks it. */
        void recover(JournalRecovery.Plan plan);

        void attach(JournalWriter writer);

        /** What was recovered, for the start-up log line. */
        String summary();
    }

    /** Locks {@code dir}, recovers {@code owner} from it and attaches a writer; releases the lock on failure. */
    private static JournalStore open(Path dir, Owner owner, FsyncPolicy fsync, Duration fsyncInterval,
                                     int snapshotMultiple, long snapshotMinBytes, long segmentBytes,
                                     long maxUnflushedBytes) throws IOException {
        DirectoryLock owned = lockDirectory(dir);
        long start = System.nanoTime();
        try (JournalRecovery.Plan recovered = JournalRecovery.plan(dir, log::warn)) {
            owner.recover(recovered);
            JournalWriter writer = new JournalWriter(dir, recovered.nextSegment(), fsync, fsyncInterval,
                    snapshotMultiple, snapshotMinBytes, segmentBytes, maxUnflushedBytes);
            owner.attach(writer);
            log.info("recovered {} from {} ({}, {} journal records in {} segments) in {} ms; journaling to segment {}"
                            + " with fsync={}",
                    owner.summary(), dir.toAbsolutePath(),
                    recovered.snapshot() == null ? "no snapshot" : "snapshot " + recovered.snapshotSegment(),
                    recovered.recordsRead(), recovered.segmentCount(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), recovered.nextSegment(),
                    fsync.name().toLowerCase(Locale.ROOT));
            return new JournalStore(dir, owned.channel(), owned.lock(), writer);
        } catch (IOException | RuntimeException e) {
            owned.lock().release();
            owned.channel().close();
            throw e;
        }
    }

    private static void requireInvariants(MemoryClock scheduler, String what) {
        InvariantReport invariants = scheduler.checkInvariants();
        if (!invariants.ok()) {
            throw new JournalCorruptedException(what + " breaks " + invariants.firstFailure().name() + ": "
                    + invariants.firstFailure().detail());
        }
    }

    /** Opens {@code dir}'s lock file and takes its lock, or throws when another owner holds it. */
    private static DirectoryLock lockDirectory(Path dir) throws IOException {
        Files.createDirectories(dir);
        FileChannel lockChannel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = null;
        try {
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            // held by this JVM
        }
        if (lock == null) {
            lockChannel.close();
            throw new IllegalStateException("data directory " + dir.toAbsolutePath() + " is in use by another "
                    + "TimeService process (it holds " + dir.resolve("lock").toAbsolutePath()
                    + "); give each instance its own timeservice.data-dir");
        }
        return new DirectoryLock(lockChannel, lock);
    }

    private record DirectoryLock(FileChannel channel, FileLock lock) {
    }

    public JournalWriter writer() {
        return writer;
    }

    public Path directory() {
        return dir;
    }

    /** Flushes and forces the journal, then releases the directory. */
    @Override
    public void close() throws IOException {
        try {
            writer.close();
        } finally {
            lock.release();
            lockChannel.close();
        }
    }
}
