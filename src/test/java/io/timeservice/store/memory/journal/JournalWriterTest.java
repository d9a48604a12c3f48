package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's promises to the scheduler: every waiter is answered (flusher death, close), a durable record is never
 * refused, an interrupted waiter parks, and unwritten bytes are bounded. {@code @Timeout} only guards against the
 * hangs these tests exist to rule out; nothing here waits on time.
 */
@Timeout(60)
class JournalWriterTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;

    @TempDir
    Path dir;

    private JournalWriter writer;
    private final CountDownLatch releaseFlusher = new CountDownLatch(1);

    @AfterEach
    void closeWriter() throws IOException {
        releaseFlusher.countDown();
        if (writer != null) {
            writer.close();
        }
    }

    @Test
    void flusherDeathByAnyThrowable_failsTheJournal_andAnswersEveryWaiter() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, 1 << 20);
        writer.beforeWrite = () -> {
            throw new OutOfMemoryError("simulated: the batch could not grow");
        };
        long position = writer.append(advanced(1));

        assertUnavailable(() -> writer.awaitDurable(position));
        assertThat(writer.failure()).isNotNull().hasMessageContaining("flusher died")
                .hasCauseInstanceOf(OutOfMemoryError.class); // what JournalHealthIndicator reports as DOWN
        assertUnavailable(writer::requireWritable);
        assertUnavailable(() -> writer.append(advanced(2)));
    }

    @Test
    void lastAppended_isThePositionOfTheLatestRecord_soWaitingForItCoversEveryEarlierOne() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, 1 << 20);
        assertThat(writer.lastAppended()).isZero();
        long first = writer.append(advanced(1));
        long second = writer.append(advanced(2));

        assertThat(second).isGreaterThan(first);
        assertThat(writer.lastAppended()).isEqualTo(second);
    }

    @Test
    void recordAlreadyOnDisk_isNeverRefused_afterALaterFailure() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, 1 << 20);
        long durable = writer.append(advanced(1));
        writer.awaitDurable(durable);
        writer.beforeWrite = () -> {
            throw new IllegalStateException("simulated flusher bug");
        };
        long lost = writer.append(advanced(2));
        assertUnavailable(() -> writer.awaitDurable(lost));

        writer.awaitDurable(durable); // its caller may ask again: it was on disk, so it succeeded
    }

    @Test
    void appendAfterClose_isRefusedWithNothingRecorded_andWaitersForEarlierRecordsReturn() throws IOException {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(4, 100);
        JournalStore store = JournalStore.open(dir, scheduler, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 4,
                NO_SNAPSHOTS);
        JournalWriter closed = store.writer();
        long before = closed.append(advanced(5));
        store.close();

        closed.awaitDurable(before);
        assertUnavailable(() -> closed.append(advanced(6)));
        assertUnavailable(() -> closed.appendForced(new Mutation.SequencesReserved(10)));
        JournalRecovery.Result recovered = JournalRecovery.recover(dir, warning -> { });
        assertThat(recovered.mutations()).containsExactly(advanced(5));
    }

    @Test
    void interruptedWaiter_parksInsteadOfSpinning_andKeepsItsInterrupt() throws Exception {
        writer = writer(FsyncPolicy.ALWAYS, 1 << 20);
        writer.beforeWrite = this::holdFlusher;
        long position = writer.append(advanced(1));
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                writer.awaitDurable(position);
            } catch (Throwable e) {
                error.set(e);
            }
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        // A spinning waiter never reaches WAITING, and returns from park thousands of times.
        await("the waiter parked, or spun").atMost(Duration.ofSeconds(50)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> waiter.getState() == Thread.State.WAITING || writer.parkReturns.sum() >= 10_000);
        long parkReturnsWhileWaiting = writer.parkReturns.sum();
        releaseFlusher.countDown();
        waiter.join();

        assertThat(error.get()).isNull();
        assertThat(parkReturnsWhileWaiting).as("park returns before the record was durable").isLessThan(10);
        assertThat(interruptedAfter).isTrue();
    }

    @Test
    void unwrittenBytesOverTheLimit_refuseChangesBeforeTheyApply_untilTheDiskCatchesUp() throws IOException {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(4, 10_000);
        JournalStore store = JournalStore.open(dir, scheduler, FsyncPolicy.NEVER, Duration.ofSeconds(1), 4,
                NO_SNAPSHOTS, JournalWriter.DEFAULT_SEGMENT_BYTES, 4096);
        try {
            // reserves sequences (a forced write) while the disk still works
            scheduler.add("first", 10, 0, null, Trace.NONE);
            store.writer().beforeWrite = this::holdFlusher; // the disk stalls
            String payload = "\"" + "p".repeat(500) + "\"";
            int accepted = 1;
            ProblemException refused = null;
            while (refused == null) {
                try {
                    scheduler.add("t" + accepted, 10, 0, payload, Trace.NONE);
                    accepted++;
                } catch (ProblemException e) {
                    refused = e;
                }
                assertThat(accepted).as("adds accepted while the disk stalls").isLessThan(100);
            }
            assertThat(refused.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
            assertThat(refused.getMessage()).contains("max-unflushed-bytes (4096)");
            assertThat(scheduler.status().size()).as("the refused add left nothing behind").isEqualTo(accepted);

            releaseFlusher.countDown();
            store.writer().awaitWritten();
            scheduler.add("after", 10, 0, payload, Trace.NONE);
            assertThat(scheduler.status().size()).isEqualTo(accepted + 1);
        } finally {
            releaseFlusher.countDown();
            store.close();
        }
        TimerScheduler after = TimerScheduler.withVirtualClock(4, 10_000);
        try (JournalStore reopened = JournalStore.open(dir, after, FsyncPolicy.NEVER, Duration.ofSeconds(1), 4,
                NO_SNAPSHOTS)) {
            assertThat(after.status().size()).isEqualTo(scheduler.status().size());
        }
    }

    @Test
    void appendWhoseEncodingFails_recordsNothing() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, 1 << 30);
        writer.awaitDurable(writer.append(advanced(1)));
        Mutation tooLarge = new Mutation.Added(new Timer("big", 1, 0, 1, 1, 0,
                "x".repeat(RecordCodec.MAX_BODY_BYTES)), 0);
        assertThatThrownBy(() -> writer.append(tooLarge)).isInstanceOf(IllegalArgumentException.class);
        writer.awaitDurable(writer.append(advanced(2)));
        writer.close();
        writer = null;

        assertThat(JournalRecovery.recover(dir, warning -> { }).mutations())
                .containsExactly(advanced(1), advanced(2));
    }

    @Test
    void buffersGrownByALargeRecord_areBackToTheDefaultSize_onceItIsWritten() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, 1 << 30);
        writer.awaitDurable(writer.append(advanced(1)));
        assertThat(writer.bufferCapacities()).containsExactly(JournalWriter.INITIAL_BATCH_BYTES,
                JournalWriter.INITIAL_BATCH_BYTES);
        // a record larger than any batch of ordinary records (4 MiB), as a loaded clock's is
        Mutation large = new Mutation.Added(new Timer("big", 1, 0, 1, 1, 0, "x".repeat(4 << 20)), 0);
        writer.awaitDurable(writer.append(large));

        assertThat(writer.bufferCapacities()).containsExactly(JournalWriter.INITIAL_BATCH_BYTES,
                JournalWriter.INITIAL_BATCH_BYTES);
        writer.awaitDurable(writer.append(advanced(2)));
        writer.close();
        writer = null;
        assertThat(JournalRecovery.recover(dir, warning -> { }).mutations())
                .containsExactly(advanced(1), large, advanced(2));
    }

    private JournalWriter writer(FsyncPolicy fsync, long maxUnflushedBytes) throws IOException {
        return new JournalWriter(dir, 1, fsync, Duration.ofSeconds(1), 4, NO_SNAPSHOTS,
                JournalWriter.DEFAULT_SEGMENT_BYTES, maxUnflushedBytes);
    }

    private void holdFlusher() {
        try {
            releaseFlusher.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Mutation advanced(long now) {
        return new Mutation.Advanced(now);
    }

    private static void assertUnavailable(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(ProblemException.class)
                .extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
    }
}
