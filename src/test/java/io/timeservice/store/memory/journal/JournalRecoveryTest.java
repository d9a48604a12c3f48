package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Segment rolling, crashes while creating a segment, batch framing, sequence reservations, the old format. */
@Timeout(120)
class JournalRecoveryTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void segmentsRollAtTheConfiguredSize_andRecoveryReadsSeveralAfterASnapshotInOrder() throws IOException {
        TimerScheduler before = fresh();
        String payload = "\"" + "p".repeat(300) + "\"";
        try (JournalStore store = open(before, FsyncPolicy.ALWAYS, 10_000, 4096)) {
            for (int i = 0; i < 40; i++) {
                before.add("s" + i, 1000 + i, 0, payload, Trace.NONE);
            }
            // one snapshot at 10,000 bytes; adds alone never outgrow the state again
            store.writer().awaitSnapshotIdle();
            for (int i = 0; i < 40; i++) {
                before.add("t" + i, 100 + i, i % 3, payload, Trace.NONE);
                if (i % 4 == 0) {
                    before.edit("s" + i, 50L + i, 1, Precondition.NONE, Trace.NONE);
                }
            }
            before.advance(10, Trace.NONE); // fires nothing: the state only grows, so no second snapshot
        }
        List<Long> snapshots = JournalFiles.snapshotNumbers(dir);
        assertThat(snapshots).hasSize(1);
        List<Long> segments = JournalFiles.segmentNumbers(dir);
        assertThat(segments).as("segments after the snapshot").hasSizeGreaterThan(3)
                .allMatch(segment -> segment >= snapshots.get(0));
        for (long segment : segments) {
            assertThat(Files.size(JournalFiles.segment(dir, segment))).isLessThan(4096 + 2_000);
        }
        TimerScheduler after = fresh();
        try (JournalStore store = open(after, FsyncPolicy.ALWAYS, NO_SNAPSHOTS, 4096)) {
            assertThat(after.firstN(1000)).isEqualTo(before.firstN(1000));
            assertThat(after.now()).isEqualTo(10);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void crashWhileCreatingASegment_atEveryHeaderLength_neverStopsALaterStart(boolean underTemporaryName)
            throws IOException {
        byte[] header = JournalFiles.segmentHeader(2).array();
        for (int length = 0; length <= header.length; length++) {
            Path data = Files.createDirectory(dir.resolve((underTemporaryName ? "tmp-" : "cut-") + length));
            TimerScheduler first = fresh();
            try (JournalStore store = open(data, first, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
                first.add("a", 5, 0, null, Trace.NONE);
            }
            byte[] torn = length == header.length && !underTemporaryName ? new byte[length] // zeroed, not written
                    : Arrays.copyOf(header, length);
            Files.write(underTemporaryName ? JournalFiles.segmentTemp(data, 2) : JournalFiles.segment(data, 2), torn);

            for (int start = 1; start <= 3; start++) {
                TimerScheduler restarted = fresh();
                try (JournalStore store = open(data, restarted, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
                    assertThat(restarted.status().size()).as("header cut at %d, start %d", length, start)
                            .isEqualTo(start);
                    restarted.add("after-start-" + start, 5, 0, null, Trace.NONE);
                }
            }
            assertThat(Files.exists(JournalFiles.segmentTemp(data, 2))).isFalse();
        }
    }

    @Test
    void emptySegmentLeftByThePreviousRelease_beforeANewerOne_neverStopsAStart() throws IOException {
        // The previous release truncated a segment with a torn header to 0 bytes and wrote the next one; its
        // second start then refused the directory (issue 13 item 2). The empty segment holds no record.
        Files.write(segment(), new byte[0]);
        JournalWriter earlier = new JournalWriter(dir, 2, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 4,
                NO_SNAPSHOTS);
        earlier.awaitDurable(earlier.append(advanced(3)));
        earlier.close();

        for (int start = 1; start <= 2; start++) {
            TimerScheduler restarted = fresh();
            try (JournalStore store = open(dir, restarted, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
                assertThat(restarted.now()).as("start %d", start).isEqualTo(3);
            }
        }
    }

    @Test
    void unfinishedLastBatch_withADamagedPageInItsMiddle_isCutOff_thoughALaterPageIsIntact() throws IOException {
        Batches batches = writeBatches(FsyncPolicy.ALWAYS, false);
        long pageStart = pageInside(batches.big);
        zero(pageStart, PAGE);

        List<String> warnings = new ArrayList<>();
        JournalRecovery.Result result = JournalRecovery.recover(dir, warnings::add);

        assertThat(result.mutations()).containsExactly(advanced(1), advanced(2));
        assertThat(warnings).singleElement().asString()
                .contains("offset " + batches.big.start()).contains("truncated");
        assertThat(Files.size(segment())).isEqualTo(batches.big.start());
        assertThat(JournalRecovery.recover(dir, warning -> { }).mutations()).hasSize(2); // and again, cleanly
    }

    @Test
    void damagedPageInAnEarlierCompleteBatch_stopsStartUp() throws IOException {
        Batches batches = writeBatches(FsyncPolicy.ALWAYS, true);
        zero(pageInside(batches.big), PAGE);

        assertThatThrownBy(() -> JournalRecovery.recover(dir, warning -> { }))
                .isInstanceOf(JournalCorruptedException.class)
                .hasMessageContaining("offset " + batches.big.start())
                .hasMessageContaining("more data follows it");
    }

    @Test
    void underFsyncNever_damageBeforeAnyForce_isCutOffWithTheUnforcedBatchesAfterIt() throws IOException {
        Batches batches = writeBatches(FsyncPolicy.NEVER, true);
        zero(pageInside(batches.big), PAGE);

        List<String> warnings = new ArrayList<>();
        JournalRecovery.Result result = JournalRecovery.recover(dir, warnings::add);

        assertThat(result.mutations()).containsExactly(advanced(1), advanced(2));
        assertThat(warnings).singleElement().asString().contains("offset " + batches.big.start());
    }

    @Test
    void lostTailUnderFsyncNever_neverHandsASequenceOutTwice() throws IOException {
        TimerScheduler before = fresh();
        Timer a;
        try (JournalStore store = open(dir, before, FsyncPolicy.NEVER, NO_SNAPSHOTS)) {
            a = before.add("a", 50, 0, null, Trace.NONE);
            before.add("b", 60, 0, null, Trace.NONE);
        }
        // the power loss: everything after the forced sequence reservation (the segment's first batch) is gone
        long reservationEnd = JournalFiles.SEGMENT_HEADER_BYTES + JournalWriter.BATCH_HEADER_BYTES
                + RecordCodec.FRAME_HEADER_BYTES + 9;
        truncate(segment(), reservationEnd);

        TimerScheduler after = fresh();
        try (JournalStore store = open(dir, after, FsyncPolicy.NEVER, NO_SNAPSHOTS)) {
            assertThat(after.status().size()).isZero();
            Timer again = after.add("a", 50, 0, null, Trace.NONE);
            assertThat(again.sequence()).isGreaterThan(before.get("b").sequence());
            // If-Match with the ETag from before
            assertThatThrownBy(() -> after.cancel("a", Precondition.ifMatch(a.revision()), Trace.NONE))
                    .isInstanceOf(ProblemException.class)
                    .extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        }
    }

    @Test
    void lostTailAfterASnapshot_neverHandsASequenceOutTwice_theSnapshotCarriesTheReservation() throws IOException {
        TimerScheduler before = fresh();
        try (JournalStore store = open(dir, before, FsyncPolicy.NEVER, 1)) {
            for (int i = 0; i < 30; i++) {
                before.add("s" + i, 100, 0, null, Trace.NONE);
                store.writer().awaitSnapshotIdle();
            }
        }
        long snapshot = JournalFiles.latest(JournalFiles.snapshotNumbers(dir)).orElseThrow();
        for (long segment : JournalFiles.segmentNumbers(dir)) {
            if (segment >= snapshot) {
                truncate(JournalFiles.segment(dir, segment), JournalFiles.SEGMENT_HEADER_BYTES);
            }
        }
        TimerScheduler after = fresh();
        try (JournalStore store = open(dir, after, FsyncPolicy.NEVER, NO_SNAPSHOTS)) {
            long highestBefore = before.get("s29").sequence();
            assertThat(after.add("new", 1, 0, null, Trace.NONE).sequence()).isGreaterThan(highestBefore);
        }
    }

    @Test
    void version1Segments_stillRecover_andTheJournalContinuesInVersion2() throws IOException {
        List<Mutation> written = List.of(
                new Mutation.Added(new Timer("a", 10, 0, 1, 1, 0, "{\"v\":1}"), 1_700_000_000_000L),
                new Mutation.Added(new Timer("b", 20, 1, 2, 1, 0, null), 1_700_000_000_001L),
                new Mutation.Edited("b", 2, 15, 3, 2),
                new Mutation.Advanced(3));
        GrowableBuffer legacy = new GrowableBuffer(256);
        legacy.putBytes(JournalFiles.SEGMENT_MAGIC, 0, JournalFiles.SEGMENT_MAGIC.length);
        legacy.putInt(JournalFiles.LEGACY_FORMAT_VERSION);
        legacy.putLong(1);
        for (Mutation mutation : written) {
            RecordCodec.encode(mutation, legacy);
        }
        Files.write(segment(), Arrays.copyOf(legacy.array(), legacy.length()));

        assertThat(JournalRecovery.recover(dir, warning -> { }).mutations()).isEqualTo(written);
        TimerScheduler first = fresh();
        try (JournalStore store = open(dir, first, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
            assertThat(first.get("b").revision()).isEqualTo(new Revision(2, 2));
            first.add("c", 5, 0, null, Trace.NONE);
        }
        TimerScheduler second = fresh();
        try (JournalStore store = open(dir, second, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
            assertThat(second.firstN(10)).isEqualTo(first.firstN(10));
        }
    }

    @Test
    void largestPayloadTheServiceAccepts_survivesARestart() throws IOException {
        String payload = "\"" + "x".repeat(JournalWriter.MAX_PAYLOAD_BYTES - 3) + "\"";
        TimerScheduler before = fresh();
        try (JournalStore store = open(dir, before, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
            before.add("i".repeat(Limits.MAX_ID_LENGTH), 5, 0, payload, Trace.NONE);
            before.add("small", 6, 0, null, Trace.NONE);
        }
        TimerScheduler after = fresh();
        try (JournalStore store = open(dir, after, FsyncPolicy.ALWAYS, NO_SNAPSHOTS)) {
            assertThat(after.firstN(2)).isEqualTo(before.firstN(2));
        }
    }

    // ---- helpers ----

    /** Where a batch frame lies in segment 1. */
    private record Span(long start, long end) {
    }

    private record Batches(Span big) {
    }

    /**
     * Writes segment 1 with a batch of one record, then a batch of 300 records (several pages) in one write, and,
     * when {@code later}, one more batch after it. Holds the flusher so that the 300 records form one batch.
     */
    private Batches writeBatches(FsyncPolicy fsync, boolean later) throws IOException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        JournalWriter writer = new JournalWriter(dir, 1, fsync, Duration.ofSeconds(1), 4, NO_SNAPSHOTS);
        try {
            writer.awaitDurable(writer.append(advanced(1)));
            writer.awaitWritten();
            writer.beforeWrite = () -> {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            writer.append(advanced(2));   // the flusher takes this one and waits
            awaitUninterruptibly(held);
            for (int i = 0; i < 300; i++) {
                writer.append(new Mutation.Added(new Timer("id-" + i, 100 + i, 0, 10 + i, 1, 0,
                        "{\"n\":" + i + "}"), 0));
            }
            release.countDown();
            writer.beforeWrite = () -> { };
            writer.awaitWritten();
            if (later) {
                writer.awaitDurable(writer.append(advanced(3)));
                writer.awaitWritten();
            }
        } finally {
            release.countDown();
            writer.close();
        }
        List<Span> frames = batchFrames();
        assertThat(frames).hasSize(later ? 4 : 3);
        Span big = frames.get(2);
        assertThat(big.end() - big.start()).as("the big batch spans several pages").isGreaterThan(3L * PAGE);
        return new Batches(big);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A page-aligned page inside {@code batch} with at least one whole page of it after. */
    private static long pageInside(Span batch) {
        long page = (batch.start() / PAGE + 1) * PAGE;
        assertThat(page + 2L * PAGE).isLessThanOrEqualTo(batch.end());
        return page;
    }

    private List<Span> batchFrames() throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment()));
        List<Span> frames = new ArrayList<>();
        for (int at = JournalFiles.SEGMENT_HEADER_BYTES; at < bytes.limit(); ) {
            int end = at + JournalWriter.BATCH_HEADER_BYTES + bytes.getInt(at);
            frames.add(new Span(at, end));
            at = end;
        }
        return frames;
    }

    private Path segment() {
        return JournalFiles.segment(dir, 1);
    }

    private void zero(long offset, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(segment(), StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(length), offset);
        }
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }

    private static Mutation advanced(long now) {
        return new Mutation.Advanced(now);
    }

    private static TimerScheduler fresh() {
        return TimerScheduler.withVirtualClock(4, 1_000_000);
    }

    private JournalStore open(TimerScheduler scheduler, FsyncPolicy fsync, long snapshotMinBytes, long segmentBytes)
            throws IOException {
        return JournalStore.open(dir, scheduler, fsync, Duration.ofMillis(5), 1, snapshotMinBytes, segmentBytes,
                JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    private static JournalStore open(Path data, TimerScheduler scheduler, FsyncPolicy fsync, long snapshotMinBytes)
            throws IOException {
        return JournalStore.open(data, scheduler, fsync, Duration.ofSeconds(1), 1, snapshotMinBytes);
    }
}
