package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.BatchOp;
import io.timeservice.model.Due;
import io.timeservice.model.Precondition;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic batches in the journal: one record each, replayed in order, wholly absent when torn. */
class BatchJournalTest {

    @TempDir
    Path dir;

    @Test
    void restart_replaysBatchesInOrder_onTheDefaultClockAndAnother() throws IOException {
        ClockRegistry before = ClockRegistry.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
        try (JournalStore store = open(before)) {
            MemoryClock main = before.scheduler("default");
            main.add("a", 10, 0, null, Trace.NONE);
            main.batch(List.of(new BatchOp.Add("b", 5, 1, "{\"n\":1}"), new BatchOp.Edit("b", Due.after(7), null, null),
                    new BatchOp.Cancel("a", null), new BatchOp.Add("a", 3, 0, "\"again\"")));
            MemoryClock ci = before.create("ci", 100).clock().scheduler();
            ci.batch(List.of(new BatchOp.Add("x", 1, 0, null), new BatchOp.Add("y", 2, 0, null)));
            ci.batch(List.of(new BatchOp.Cancel("x", Precondition.NONE), new BatchOp.Edit("y", (Due) null, 4, null)));
        }
        ClockRegistry after = ClockRegistry.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
        try (JournalStore store = open(after)) {
            for (String clock : List.of("default", "ci")) {
                assertThat(after.scheduler(clock).firstN(100)).as(clock)
                        .isEqualTo(before.scheduler(clock).firstN(100));
            }
            assertThat(after.budget().timers()).isEqualTo(3);
            assertThat(after.scheduler("default").firstN(100).timers()).extracting(t -> t.id() + "@" + t.fireTime()
                    + "v" + t.version()).containsExactly("a@3v1", "b@7v2");
        }
    }

    @Test
    void tornBatchRecord_isWhollyAbsent() throws IOException {
        MemoryClock before = MemoryClock.withVirtualClock(4, 1_000);
        try (JournalStore store = JournalStore.open(dir, before, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 1,
                Long.MAX_VALUE)) {
            before.add("kept", 5, 0, null, Trace.NONE);
            List<BatchOp> ops = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                ops.add(new BatchOp.Add("t" + i, i, 0, "{\"i\":" + i + "}"));
            }
            ops.add(new BatchOp.Cancel("kept", null));
            before.batch(ops);
        }
        Path segment = JournalFiles.segment(dir, 1);
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 100)); // the crash cut the batch short

        List<String> warnings = new ArrayList<>();
        JournalRecovery.Result result = JournalRecovery.recover(dir, warnings::add);
        assertThat(result.mutations()).noneMatch(Mutation.Batch.class::isInstance);
        assertThat(warnings).isNotEmpty();

        MemoryClock after = MemoryClock.withVirtualClock(4, 1_000);
        try (JournalStore store = JournalStore.open(dir, after, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 1,
                Long.MAX_VALUE)) {
            assertThat(after.firstN(100).timers()).extracting(t -> t.id()).containsExactly("kept");
        }
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.ALWAYS, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
