package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.timeservice.model.Trace;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the journal reports to {@link JournalMetrics}: each write once with its records and bytes (several records
 * share one write while the flusher is busy: the group commit), every fsync, and every snapshot with its pause.
 * {@code @Timeout} only guards against a hang; nothing here waits on time.
 */
@Timeout(60)
class JournalMetricsTest {

    @TempDir
    Path dir;

    private final Recording recording = new Recording();

    @Test
    void recordsAppendedWhileTheFlusherIsBusy_goOutInOneWrite_andEveryWriteIsForcedAndTimed() throws Exception {
        CountDownLatch flusherHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (JournalWriter writer = new JournalWriter(dir, 1, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 4,
                Long.MAX_VALUE)) {
            writer.reportTo(recording);
            writer.beforeWrite = () -> {
                if (flusherHeld.getCount() > 0) {
                    flusherHeld.countDown();
                    awaitUninterruptibly(release);
                }
            };
            writer.append(new Mutation.Advanced(1));
            flusherHeld.await();                        // the flusher holds the first record, about to write it
            writer.append(new Mutation.Advanced(2));
            writer.append(new Mutation.Advanced(3));
            long last = writer.append(new Mutation.Advanced(4));
            release.countDown();
            writer.awaitDurable(last);
        }

        assertThat(recording.batchRecords()).containsExactly(1L, 3L);
        assertThat(recording.batchBytes()).hasSize(2).allMatch(bytes -> bytes > JournalWriter.BATCH_HEADER_BYTES);
        assertThat(recording.forces()).as("fsync=always forces after every write").isGreaterThanOrEqualTo(2);
    }

    @Test
    void snapshot_reportsItsDurationAndTheLockPause() throws IOException {
        MemoryClock scheduler = MemoryClock.withVirtualClock(4, 1_000);
        try (JournalStore store = JournalStore.open(dir, scheduler, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 1, 1)) {
            store.writer().reportTo(recording);
            for (int i = 0; i < 50; i++) {
                scheduler.add("s" + i, 10 + i, 0, null, Trace.NONE);
            }
            store.writer().awaitSnapshotIdle();
        }

        assertThat(recording.snapshots()).isNotEmpty()
                .allSatisfy(snapshot -> {
                    assertThat(snapshot[0]).as("time to write the snapshot").isPositive();
                    assertThat(snapshot[1]).as("time the lock was held to copy the state").isNotNegative();
                });
        assertThat(recording.snapshotFailures()).isZero();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Keeps every report; the flusher and snapshot threads call it, the test reads it after they are done. */
    private static final class Recording implements JournalMetrics {

        private final List<Long> batchRecords = new ArrayList<>();
        private final List<Long> batchBytes = new ArrayList<>();
        private final List<long[]> snapshots = new ArrayList<>();
        private int forces;
        private int snapshotFailures;

        @Override
        public synchronized void batchWritten(long records, long bytes) {
            batchRecords.add(records);
            batchBytes.add(bytes);
        }

        @Override
        public synchronized void forced(long nanos) {
            assertThat(nanos).isNotNegative();
            forces++;
        }

        @Override
        public synchronized void snapshotWritten(long nanos, long pauseNanos) {
            snapshots.add(new long[] {nanos, pauseNanos});
        }

        @Override
        public synchronized void snapshotFailed() {
            snapshotFailures++;
        }

        synchronized List<Long> batchRecords() {
            return List.copyOf(batchRecords);
        }

        synchronized List<Long> batchBytes() {
            return List.copyOf(batchBytes);
        }

        synchronized List<long[]> snapshots() {
            return List.copyOf(snapshots);
        }

        synchronized int forces() {
            return forces;
        }

        synchronized int snapshotFailures() {
            return snapshotFailures;
        }
    }
}
