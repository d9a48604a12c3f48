package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.PendingBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trace context a timer keeps (issue 46) survives restarts: written with its add (record 56, a batch's part
 * too), with a snapshot's timers and deliveries (records 56 and 57) and with a schedule's spec (flag bit 1 of its last
 * byte), copied by a fork and replayed with it. With the merged features: a timer and a delivery with both a
 * flow-control key (issue 44) and a trace context keep both (records 53 and 54), and a clock with both a dedupe
 * window (issue 43) and flow limits keeps both settings (distinct flags of the settings' mode byte).
 */
class TraceContextJournalTest {

    private static final String A = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01;congo=t61rcWkgMzE";
    private static final String B = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT);

    private static final ClockSettings BOTH = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT, null, null, 1_000,
            new FlowLimits(2, new FlowRate(10, 1_000), 3, 5, new FlowRate(20, 1_000)));

    @TempDir
    Path dir;

    private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);

    @Test
    void recordsReplayed_keepTheContexts_ofTimersDeliveriesAndForks() throws IOException {
        restart(false, TraceContextJournalTest::drive, TraceContextJournalTest::assertRecovered);
    }

    @Test
    void aSnapshot_keepsTheContexts() throws IOException {
        restart(true, TraceContextJournalTest::drive, TraceContextJournalTest::assertRecovered);
    }

    @Test
    void recordsReplayed_keepKeysContextsAndBothSettings() throws IOException {
        restart(false, TraceContextJournalTest::driveKeyed, TraceContextJournalTest::assertKeyedRecovered);
    }

    @Test
    void aSnapshot_keepsKeysContextsAndBothSettings() throws IOException {
        restart(true, TraceContextJournalTest::driveKeyed, TraceContextJournalTest::assertKeyedRecovered);
    }

    /** Drives a journaled registry, restarts it (from a snapshot file if {@code snapshot}) and checks it. */
    private void restart(boolean snapshot, Consumer<ClockRegistry> drive, Consumer<ClockRegistry> check)
            throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            drive.accept(before);
            if (snapshot) {
                before.snapshotNow();
                store.writer().awaitSnapshotIdle();
            }
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).hasSize(snapshot ? 1 : 0);
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            check.accept(after);
        }
    }

    private static void driveKeyed(ClockRegistry clocks) {
        clocks.create("q", 0, BOTH);
        MemoryClock q = clocks.scheduler("q");
        q.add("both", Due.after(5), 0, null, A, "tenant-1", Trace.NONE);
        q.add("keyed", Due.after(5), 0, null, null, "tenant-2", Trace.NONE);
        q.add("traced", Due.after(5), 0, null, B, null, Trace.NONE);
        q.batch(List.of(new BatchOp.Add("later", Due.after(50), 0, "{}", B, "tenant-1")));
        q.advance(5, Trace.NONE);
        clocks.fork("copy", "q");
    }

    private static void assertKeyedRecovered(ClockRegistry clocks) {
        for (String name : List.of("q", "copy")) {
            MemoryClock clock = clocks.scheduler(name);
            assertThat(clock.settings()).as(name).isEqualTo(BOTH);
            assertThat(clock.get("later")).as(name).extracting(Timer::traceContext, Timer::key)
                    .containsExactly(B, "tenant-1");
            assertThat(clock.allDeliveries()).as(name)
                    .extracting(Delivery::id, Delivery::traceContext, Delivery::key)
                    .containsExactlyInAnyOrder(tuple("both", A, "tenant-1"), tuple("keyed", null, "tenant-2"),
                            tuple("traced", B, null));
        }
    }

    private static void drive(ClockRegistry clocks) {
        clocks.create("q", 0, QUEUE);
        MemoryClock q = clocks.scheduler("q");
        q.add("fired", Due.after(5), 0, null, A, null, Trace.NONE);
        q.add("plain", Due.after(5), 0, null, Trace.NONE);
        q.batch(List.of(new BatchOp.Add("later", Due.after(50), 0, "{}", B)));
        new MemoryScheduleStore(clocks).put("q", "s", new ScheduleSpec(null, 1_000L, null, null, null, null, 0, null,
                ScheduleSpec.CatchUp.ALL, false, A), null);
        q.advance(5, Trace.NONE);
        clocks.fork("copy", "q");
    }

    private static void assertRecovered(ClockRegistry clocks) {
        for (String name : List.of("q", "copy")) {
            MemoryClock clock = clocks.scheduler(name);
            assertThat(clock.get("later").traceContext()).as(name).isEqualTo(B);
            assertThat(clock.get("s:1000").traceContext()).as(name + ": a schedule's occurrence").isEqualTo(A);
            assertThat(new MemoryScheduleStore(clocks).get(name, "s").spec().traceContext()).isEqualTo(A);
            assertThat(clock.allDeliveries()).as(name).extracting(Delivery::id, Delivery::traceContext)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("fired", A),
                            org.assertj.core.groups.Tuple.tuple("plain", null));
        }
    }

    private ClockRegistry fresh() {
        return new ClockRegistry((clock, shared) -> new MemoryClock(clock, 4, shared, wall::get, StoreMetrics.NONE),
                new PendingBudget(10_000, Long.MAX_VALUE), 10, wall::get);
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
