package io.timeservice.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.timeservice.core.ErrorCode;
import io.timeservice.core.Mutation;
import io.timeservice.core.SchedulerException;
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

    private JournalWriter writer(FsyncPolicy fsync, long segmentBytes) throws IOException {
        return new JournalWriter(dir, 1, fsync, Duration.ofSeconds(1), 4, NO_SNAPSHOTS, segmentBytes,
                JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    private static Mutation advanced(long now) {
        return new Mutation.Advanced(now);
    }

    private static void assertUnavailable(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(SchedulerException.class)
                .extracting(e -> ((SchedulerException) e).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
    }
}
