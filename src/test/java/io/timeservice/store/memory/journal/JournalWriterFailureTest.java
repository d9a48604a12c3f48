package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.store.memory.Mutation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures on the writer's edges: a flusher death whose own report fails, a segment roll that fails after its
 * batch was forced, a close whose caller is interrupted. {@code @Timeout} only guards against hangs.
 */
@Timeout(60)
class JournalWriterFailureTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;

    @TempDir
    Path dir;

    private JournalWriter writer;

    @AfterEach
    void closeWriter() throws IOException {
        if (writer != null) {
            writer.close();
        }
    }

    @Test
    void flusherDeath_whoseReportFailsToo_stillFailsTheJournal() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, JournalWriter.DEFAULT_SEGMENT_BYTES);
        // Describing the error allocates; after an OutOfMemoryError that allocation can fail as well.
        writer.beforeWrite = () -> {
            throw new Error("simulated flusher death") {
                @Override
                public String toString() {
                    throw new OutOfMemoryError("simulated: no memory left to describe the failure");
                }
            };
        };
        long lost = writer.append(advanced(1));
        assertUnavailable(() -> writer.awaitDurable(lost));

        assertThat(writer.failed()).as("failed(), which stops the scheduler").isTrue();
        assertThat(writer.failure()).as("failure(), which health reports as DOWN").isNotNull();
        assertUnavailable(writer::requireWritable);
        assertUnavailable(() -> writer.append(advanced(2)));
    }

    @Test
    void segmentRollThatFails_afterItsBatchWasForced_neverRefusesThatBatch() throws IOException {
        writer = writer(FsyncPolicy.ALWAYS, 50);
        Files.createDirectory(JournalFiles.segmentTemp(dir, 2)); // creating segment 2 fails
        long position = writer.append(new Mutation.Reset());
        long rolling = writer.append(advanced(1_000_000)); // takes the segment past 50 bytes: it rolls after this

        writer.awaitDurable(rolling); // forced into segment 1 before the roll failed: on disk, so no 503
        writer.awaitDurable(position);
        assertUnavailable(() -> writer.awaitDurable(writer.append(advanced(2_000_000)))); // the roll failed
        assertThat(writer.failure()).as("the failed roll fails the journal").isNotNull();
        writer.close();
        writer = null;
        assertThat(JournalRecovery.recover(dir, warning -> { }).mutations())
                .containsExactly(new Mutation.Reset(), advanced(1_000_000));
    }

    @Test
    void interruptedClose_stillWaitsForTheFlusher_andLosesNothing() throws Exception {
        writer = writer(FsyncPolicy.NEVER, JournalWriter.DEFAULT_SEGMENT_BYTES);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        writer.beforeWrite = () -> {
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        long position = writer.append(advanced(7));
        held.await(); // the flusher holds the record and has not written it yet
        AtomicReference<Throwable> closeError = new AtomicReference<>();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            Thread.currentThread().interrupt(); // e.g. a shutdown that interrupts its threads
            try {
                writer.close();
            } catch (Throwable e) {
                closeError.set(e);
            }
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        closer.start();
        // close() must wait for the flusher (WAITING in join); the defect returned at once (TERMINATED)
        await("close() waiting or returned").atMost(Duration.ofSeconds(50)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1)).until(() -> closer.getState() == Thread.State.WAITING
                        || closer.getState() == Thread.State.TERMINATED);
        Thread.State whileFlusherHeld = closer.getState();
        release.countDown();
        closer.join();
        JournalWriter closed = writer;
        writer = null;

        assertThat(whileFlusherHeld).as("close() while the flusher still writes").isEqualTo(Thread.State.WAITING);
        assertThat(closeError.get()).isNull();
        assertThat(interruptKept).as("close() gives its caller the interrupt back").isTrue();
        assertThat(closed.failure()).isNull();
        closed.awaitDurable(position);
        assertThat(JournalRecovery.recover(dir, warning -> { }).mutations()).containsExactly(advanced(7));
    }

    private JournalWriter writer(FsyncPolicy fsync, long segmentBytes) throws IOException {
        return new JournalWriter(dir, 1, fsync, Duration.ofSeconds(1), 4, NO_SNAPSHOTS, segmentBytes,
                JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    private static Mutation advanced(long now) {
        return new Mutation.Advanced(now);
    }

    private static void assertUnavailable(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(ProblemException.class)
                .extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
    }
}
