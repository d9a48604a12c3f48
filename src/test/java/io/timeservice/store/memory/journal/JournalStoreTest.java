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
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class JournalStoreTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;

    @TempDir
    Path dir;

    @Test
    void emptyDirectory_recoversAnEmptySchedulerAndStartsSegmentOne() throws IOException {
        TimerScheduler scheduler = fresh();
        try (JournalStore store = open(scheduler, NO_SNAPSHOTS)) {
            assertThat(scheduler.status().size()).isZero();
            assertThat(scheduler.now()).isZero();
        }
        assertThat(JournalFiles.segmentNumbers(dir)).containsExactly(1L);
    }

    @ParameterizedTest
    @EnumSource(FsyncPolicy.class)
    void restart_restoresTimersClockSequencesVersionsAndPayloads(FsyncPolicy fsync) throws IOException {
        TimerScheduler before = fresh();
        try (JournalStore store = JournalStore.open(dir, before, fsync, Duration.ofMillis(5), 4, NO_SNAPSHOTS)) {
            before.add("a", 10, 0, "{\"n\":1}", Trace.NONE);
            before.add("b", 20, 5, null, Trace.NONE);
            before.add("c", 30, -1, "[1,2]", Trace.NONE);
            before.edit("c", 5L, 2, Precondition.NONE, Trace.NONE);
            before.cancel("a", Precondition.NONE, Trace.NONE);
            before.advance(7, Trace.NONE);                     // fires c
            before.add("a", 1, 0, "\"reused\"", Trace.NONE);   // id reused, new sequence 4
            before.edit("b", (Due) null, 9, Precondition.NONE, Trace.NONE);
        }
        TimerScheduler after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertThat(after.firstN(100)).isEqualTo(before.firstN(100));
            assertThat(after.status()).isEqualTo(before.status());
            // sequences continue after the block reserved on disk before the first add (1..1,000,000)
            assertThat(after.add("d", 1, 0, null, Trace.NONE).sequence()).isEqualTo(1_000_001);
        }
    }

    @Test
    void recoveredScheduler_firesTheSameTimersInTheSameOrder_asOneThatNeverStopped() throws IOException {
        long seed = 7;
        Random random = new Random(seed);
        TimerScheduler reference = fresh();
        TimerScheduler[] durable = {fresh()};
        JournalStore store = open(durable[0], 2_000);
        int restarts = 0;
        for (int step = 0; step < 3_000; step++) {
            int op = random.nextInt(10);
            String id = "t" + random.nextInt(200);
            long delay = random.nextInt(50);
            int priority = random.nextInt(3);
            String context = "seed " + seed + ", step " + step;
            if (op < 5) {
                assertSameOutcome(context, () -> reference.add(id, delay, priority, null, Trace.NONE),
                        () -> durable[0].add(id, delay, priority, null, Trace.NONE));
            } else if (op < 7) {
                assertSameOutcome(context, () -> reference.cancel(id, Precondition.NONE, Trace.NONE),
                        () -> durable[0].cancel(id, Precondition.NONE, Trace.NONE));
            } else if (op < 9) {
                assertSameOutcome(context, () -> reference.edit(id, delay, priority, Precondition.NONE, Trace.NONE),
                        () -> durable[0].edit(id, delay, priority, Precondition.NONE, Trace.NONE));
            } else {
                assertSameOutcome(context, () -> reference.advance(delay, Trace.NONE),
                        () -> durable[0].advance(delay, Trace.NONE));
            }
            if (random.nextInt(300) == 0) {
                store.close();
                durable[0] = fresh();
                store = open(durable[0], 2_000);
                restarts++;
                assertThat(withoutSequences(durable[0].firstN(1000))).as(context)
                        .isEqualTo(withoutSequences(reference.firstN(1000)));
            }
        }
        store.close();
        assertThat(restarts).isGreaterThan(3);
        assertThat(JournalFiles.snapshotNumbers(dir)).isNotEmpty();
    }

    @Test
    void snapshot_replacesOldSegments_andRecoveryUsesIt() throws IOException {
        TimerScheduler before = fresh();
        JournalWriter writer;
        try (JournalStore store = open(before, 1)) {
            writer = store.writer();
            for (int i = 0; i < 500; i++) {
                before.add("s" + i, i % 37, i % 3, i % 2 == 0 ? "{\"i\":" + i + "}" : null, Trace.NONE);
            }
            before.advance(10, Trace.NONE);
            writer.awaitSnapshotIdle();
        }
        List<Long> snapshots = JournalFiles.snapshotNumbers(dir);
        assertThat(snapshots).isNotEmpty();
        assertThat(JournalFiles.segmentNumbers(dir)).allMatch(segment -> segment >= snapshots.get(0));
        TimerScheduler after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertThat(after.firstN(1000)).isEqualTo(before.firstN(1000));
            assertThat(after.now()).isEqualTo(10);
            assertThat(after.checkInvariants().ok()).isTrue();
        }
    }

    @Test
    void tornTail_isTruncatedWithAWarningNamingTheOffset() throws IOException {
        TimerScheduler before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            before.add("a", 5, 0, null, Trace.NONE);
            before.add("b", 6, 0, null, Trace.NONE);
        }
        Path segment = JournalFiles.segment(dir, 1);
        long intactSize = Files.size(segment);
        GrowableBuffer frame = RecordCodec.encode(new io.timeservice.store.memory.Mutation.Advanced(99), new GrowableBuffer(8));
        appendBytes(segment, frame.array(), frame.length() - 3);   // the crash cut the last write short

        List<String> warnings = new ArrayList<>();
        JournalRecovery.Result result = JournalRecovery.recover(dir, warnings::add);

        assertThat(result.mutations()).hasSize(3); // the sequence reservation, a, b
        assertThat(warnings).singleElement().asString().contains("offset " + intactSize).contains("truncated");
        assertThat(Files.size(segment)).isEqualTo(intactSize);
    }

    @Test
    void flippedBitInTheLastRecord_isATornTail() throws IOException {
        TimerScheduler before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            before.add("a", 5, 0, null, Trace.NONE);
            before.add("b", 6, 0, null, Trace.NONE);
        }
        Path segment = JournalFiles.segment(dir, 1);
        flipLastByte(segment);
        List<String> warnings = new ArrayList<>();
        JournalRecovery.Result result = JournalRecovery.recover(dir, warnings::add);
        assertThat(result.mutations()).hasSize(2); // the sequence reservation, a
        assertThat(warnings).singleElement().asString().contains("checksum");
    }

    @Test
    void flippedBitInTheMiddle_stopsStartUpWithAClearError() throws IOException {
        TimerScheduler before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            before.add("a", 5, 0, "{\"x\":\"some payload bytes\"}", Trace.NONE);
            before.add("b", 6, 0, null, Trace.NONE);
            before.add("c", 7, 0, null, Trace.NONE);
        }
        Path segment = JournalFiles.segment(dir, 1);
        int offsetInFirstBody = JournalFiles.SEGMENT_HEADER_BYTES + RecordCodec.FRAME_HEADER_BYTES + 20;
        flipByte(segment, offsetInFirstBody);

        assertThatThrownBy(() -> JournalRecovery.recover(dir, warning -> { }))
                .isInstanceOf(JournalCorruptedException.class)
                .hasMessageContaining("offset " + JournalFiles.SEGMENT_HEADER_BYTES)
                .hasMessageContaining("more data follows");
        assertThatThrownBy(() -> open(fresh(), NO_SNAPSHOTS)).isInstanceOf(JournalCorruptedException.class);
    }

    @Test
    void emptySegmentFile_isTreatedAsATornHeader_andWrittenAgain() throws IOException {
        Files.write(JournalFiles.segment(dir, 1), new byte[0]);
        List<String> warnings = new ArrayList<>();
        JournalRecovery.Result result = JournalRecovery.recover(dir, warnings::add);
        assertThat(result.mutations()).isEmpty();
        assertThat(result.nextSegment()).isEqualTo(1);
        assertThat(JournalFiles.segmentNumbers(dir)).isEmpty();
        assertThat(warnings).singleElement().asString().contains("torn header");
    }

    @Test
    void unknownFormatVersion_stopsStartUp() throws IOException {
        ByteBuffer header = ByteBuffer.allocate(JournalFiles.SEGMENT_HEADER_BYTES);
        header.put(JournalFiles.SEGMENT_MAGIC).putInt(99).putLong(1);
        Files.write(JournalFiles.segment(dir, 1), header.array());
        assertThatThrownBy(() -> JournalRecovery.recover(dir, warning -> { }))
                .isInstanceOf(JournalCorruptedException.class)
                .hasMessageContaining("format version 99");
    }

    @Test
    void damagedSnapshot_stopsStartUp() throws IOException {
        TimerScheduler before = fresh();
        try (JournalStore store = open(before, 1)) {
            for (int i = 0; i < 50; i++) {
                before.add("s" + i, i, 0, null, Trace.NONE);
            }
            store.writer().awaitSnapshotIdle();
        }
        long snapshot = JournalFiles.latest(JournalFiles.snapshotNumbers(dir)).orElseThrow();
        flipByte(JournalFiles.snapshot(dir, snapshot), 60);
        assertThatThrownBy(() -> JournalRecovery.recover(dir, warning -> { }))
                .isInstanceOf(JournalCorruptedException.class)
                .hasMessageContaining("snapshot");
    }

    @Test
    void missingSegment_stopsStartUp() throws IOException {
        TimerScheduler scheduler = fresh();
        open(scheduler, NO_SNAPSHOTS).close();
        open(fresh(), NO_SNAPSHOTS).close();       // segments 1 and 2
        open(fresh(), NO_SNAPSHOTS).close();       // and 3
        Files.delete(JournalFiles.segment(dir, 2));
        assertThatThrownBy(() -> JournalRecovery.recover(dir, warning -> { }))
                .isInstanceOf(JournalCorruptedException.class)
                .hasMessageContaining("segment 2 is missing");
    }

    @Test
    void secondOwnerOfTheDirectory_isRefusedWithAClearMessage() throws IOException {
        try (JournalStore store = open(fresh(), NO_SNAPSHOTS)) {
            assertThatThrownBy(() -> open(fresh(), NO_SNAPSHOTS))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in use by another TimeService process");
        }
        open(fresh(), NO_SNAPSHOTS).close();   // released on close
    }

    @Test
    void closedJournal_refusesMutationsWithoutApplyingThem() throws IOException {
        TimerScheduler scheduler = fresh();
        JournalStore store = open(scheduler, NO_SNAPSHOTS);
        scheduler.add("kept", 5, 0, null, Trace.NONE);
        store.close();
        assertThatThrownBy(() -> scheduler.add("lost", 5, 0, null, Trace.NONE))
                .isInstanceOf(ProblemException.class)
                .extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
        assertThat(scheduler.status().size()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8})
    void concurrentAddsUnderFsyncAlways_allSurviveARestart(int threads) throws Exception {
        TimerScheduler scheduler = fresh();
        int perThread = 300;
        try (JournalStore store = open(scheduler, NO_SNAPSHOTS)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        scheduler.add("t" + thread + "-" + i, i, 0, null, Trace.NONE);
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            pool.shutdown();
        }
        TimerScheduler after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertThat(after.status().size()).isEqualTo(threads * perThread);
            QueueListing listing = after.firstN(1000);
            assertThat(listing.timers()).isEqualTo(scheduler.firstN(1000).timers());
        }
    }

    private TimerScheduler fresh() {
        return TimerScheduler.withVirtualClock(4, 1_000_000);
    }

    private JournalStore open(TimerScheduler scheduler, long snapshotMinBytes) throws IOException {
        return JournalStore.open(dir, scheduler, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 1, snapshotMinBytes);
    }

    private interface Call {
        Object run();
    }

    /** Both calls succeed with equal results, or both fail with the same code. */
    private static void assertSameOutcome(String context, Call expected, Call actual) {
        Object expectedResult;
        try {
            expectedResult = expected.run();
        } catch (ProblemException e) {
            assertThatThrownBy(actual::run).as(context).isInstanceOf(ProblemException.class)
                    .extracting(thrown -> ((ProblemException) thrown).code()).isEqualTo(e.code());
            return;
        }
        assertThat(withoutSequences(actual.run())).as(context).isEqualTo(withoutSequences(expectedResult));
    }

    /**
     * A result with every timer's sequence set to 0: a restart skips the sequences reserved on disk, so a restarted
     * scheduler numbers later adds higher than one that never stopped (in the same order, so firing order is equal).
     */
    private static Object withoutSequences(Object result) {
        if (result instanceof Timer timer) {
            return new Timer(timer.id(), timer.fireTime(), timer.priority(), 0, timer.version(), timer.createdAt(),
                    timer.payload());
        }
        if (result instanceof AdvanceResult advance) {
            return new AdvanceResult(advance.now(), advance.fired().stream().map(t -> (Timer) withoutSequences(t))
                    .toList());
        }
        if (result instanceof QueueListing listing) {
            return new QueueListing(listing.now(), listing.size(), listing.timers().stream()
                    .map(t -> (Timer) withoutSequences(t)).toList());
        }
        return result;
    }

    private static void appendBytes(Path file, byte[] bytes, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap(bytes, 0, length));
        }
    }

    private static void flipLastByte(Path file) throws IOException {
        flipByte(file, (int) Files.size(file) - 1);
    }

    private static void flipByte(Path file, int offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[offset] ^= 0x10;
        Files.write(file, bytes);
    }
}
