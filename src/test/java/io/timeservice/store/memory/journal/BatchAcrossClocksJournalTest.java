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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.Mutation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch across clocks in the journal (record 49, format 19): one record holding every clock's part, replayed onto
 * each clock after a restart; a refused one writes nothing; a torn one is wholly absent on every clock; and a journal
 * of format 18, which holds none, still recovers.
 */
class BatchAcrossClocksJournalTest {

    @TempDir
    Path dir;

    private static ClockRegistry fresh() {
        return ClockRegistry.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return open(clocks, FsyncPolicy.ALWAYS);
    }

    private JournalStore open(ClockRegistry clocks, FsyncPolicy fsync) throws IOException {
        return JournalStore.open(dir, clocks, fsync, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    private static List<String> ids(ClockRegistry clocks, String clock) {
        return clocks.scheduler(clock).firstN(100).timers().stream().map(t -> t.id() + "@" + t.fireTime() + "v"
                + t.version()).toList();
    }

    /** Clocks a and b, a timer on each, then a batch across them and the default clock. */
    private static void history(ClockRegistry clocks) {
        TimerStore timers = new MemoryTimerStore(clocks);
        clocks.create("a", 0, ClockSettings.VIRTUAL);
        clocks.create("b", 0, ClockSettings.VIRTUAL);
        timers.add("a", "old", 9, 0, null, Trace.NONE);
        timers.batchAcross(List.of(
                new ClockBatch("b", List.of(new BatchOp.Add("b1", 3, 0, "{\"n\":1}"))),
                new ClockBatch("a", List.of(new BatchOp.Edit("old", Due.after(4), null, Precondition.NONE),
                        new BatchOp.Add("a1", 2, 0, null))),
                new ClockBatch(null, List.of(new BatchOp.Add("d1", 1, 0, null)))));
    }

    @Test
    void restart_replaysTheRecordOntoEveryClock_andARefusedBatchWroteNothing() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
            TimerStore timers = new MemoryTimerStore(before);
            assertThatThrownBy(() -> timers.batchAcross(List.of(
                    new ClockBatch("a", List.of(new BatchOp.Add("a2", 1, 0, null))),
                    new ClockBatch("b", List.of(new BatchOp.Add("b1", 1, 0, null))))))
                    .isInstanceOfSatisfying(ProblemException.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.DUPLICATE_ID));
        }
        List<Mutation> records = JournalRecovery.recover(dir, warning -> { }).mutations();
        assertThat(records.stream().filter(Mutation.AcrossClocks.class::isInstance)).hasSize(1);

        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertThat(ids(after, "a")).containsExactly("a1@2v1", "old@4v2");
            assertThat(ids(after, "b")).containsExactly("b1@3v1");
            assertThat(ids(after, "default")).containsExactly("d1@1v1");
            for (String clock : List.of("default", "a", "b")) {
                assertThat(after.scheduler(clock).firstN(100)).as(clock).isEqualTo(before.scheduler(clock).firstN(100));
            }
            assertThat(after.budget().timers()).isEqualTo(4);
            assertThat(after.scheduler("b").get("b1").payload()).isEqualTo("{\"n\":1}");
        }
    }

    @Test
    void aTornRecord_isWhollyAbsent_onEveryClock() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
            List<BatchOp> as = new ArrayList<>();
            List<BatchOp> bs = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                as.add(new BatchOp.Add("ta" + i, i, 0, "{\"i\":" + i + "}"));
                bs.add(new BatchOp.Add("tb" + i, i, 0, "{\"i\":" + i + "}"));
            }
            new MemoryTimerStore(before).batchAcross(List.of(new ClockBatch("a", as), new ClockBatch("b", bs)));
            assertThat(before.scheduler("b").status().size()).isEqualTo(31);
        }
        Path segment = JournalFiles.segment(dir, 1);
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, Arrays.copyOf(bytes, bytes.length - 100)); // the crash cut the last record short
        List<String> warnings = new ArrayList<>();
        assertThat(JournalRecovery.recover(dir, warnings::add).mutations()
                .stream().filter(Mutation.AcrossClocks.class::isInstance)).as("only the first").hasSize(1);
        assertThat(warnings).isNotEmpty();

        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertThat(ids(after, "a")).containsExactly("a1@2v1", "old@4v2");
            assertThat(ids(after, "b")).containsExactly("b1@3v1");
            assertThat(after.budget().timers()).isEqualTo(4);
        }
    }

    @Test
    void aJournalOfFormat18_stillRecovers() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            TimerStore timers = new MemoryTimerStore(before);
            before.create("a", 0, ClockSettings.VIRTUAL);
            timers.add("a", "x", 5, 0, "[1]", Trace.NONE);
            timers.batch(null, List.of(new BatchOp.Add("y", 6, 0, null), new BatchOp.Add("z", 7, 0, null)));
        }
        Path segment = JournalFiles.segment(dir, 1);
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer version = ByteBuffer.allocate(4);
            channel.read(version, JournalFiles.SEGMENT_MAGIC.length);
            assertThat(version.flip().getInt()).isEqualTo(JournalFiles.FORMAT_VERSION).isEqualTo(19);
            channel.write(ByteBuffer.allocate(4).putInt(18).flip(), JournalFiles.SEGMENT_MAGIC.length);
        }

        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertThat(after.scheduler("a").firstN(10).timers()).extracting(Timer::id).containsExactly("x");
            assertThat(after.scheduler("default").firstN(10).timers()).extracting(Timer::id)
                    .containsExactly("y", "z");
            assertThat(after.scheduler("a").get("x").payload()).isEqualTo("[1]");
        }
    }

    /**
     * Clocks whose name order is not their number order (b made before a): batches across them and snapshots of every
     * clock, at once, all finish within a bound (both hold the locks in number order; the batches in name order
     * deadlocked with a snapshot), and a restart from the last snapshot and the records after it finds every batch.
     */
    @Test
    void batchesAcrossClocks_andSnapshotsAtOnce_allFinish_andRecover() throws Exception {
        ClockRegistry before = fresh();
        int rounds = 2_000;
        try (JournalStore store = open(before, FsyncPolicy.NEVER)) {
            before.create("b", 0, ClockSettings.VIRTUAL);
            before.create("a", 0, ClockSettings.VIRTUAL);
            TimerStore timers = new MemoryTimerStore(before);
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean batched = new AtomicBoolean();
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<?> batches = threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        timers.batchAcross(List.of(new ClockBatch("a", List.of(new BatchOp.Add("a" + i, i, 0, null))),
                                new ClockBatch("b", List.of(new BatchOp.Add("b" + i, i, 0, null)))));
                    }
                    batched.set(true);
                    return null;
                });
                Future<Integer> snapshots = threads.submit(() -> {
                    start.await();
                    int taken = 0;
                    while (!batched.get()) {
                        before.snapshotNow();
                        taken++;
                    }
                    return taken;
                });
                start.countDown();
                batches.get(60, TimeUnit.SECONDS);
                assertThat(snapshots.get(60, TimeUnit.SECONDS)).isPositive();
            } finally {
                threads.shutdownNow();
            }
            store.writer().awaitSnapshotIdle();
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertThat(after.scheduler("a").status().size()).isEqualTo(rounds);
            assertThat(after.scheduler("b").firstN(rounds)).isEqualTo(before.scheduler("b").firstN(rounds));
        }
    }
}
