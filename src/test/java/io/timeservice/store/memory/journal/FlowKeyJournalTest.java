package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.MemoryClockStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overrides of single keys' flow control survive a restart: replayed from their records (46, 47) with the buckets
 * they retuned, or read from a snapshot's settings, and carried by a fork and a loaded snapshot document.
 */
class FlowKeyJournalTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;
    private static final ClockSettings FLOW = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.0))
            .withFlow(new FlowLimits(1, new FlowRate(2, 1_000), null, null, null));
    private static final FlowOverride FAST = new FlowOverride(2, new FlowRate(10, 1_000));

    @TempDir
    Path dir;

    @Test
    void restart_replaysEveryOverride_withTheBucketsItRetuned() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertSameClocks(after, before);
            for (String name : List.of("f", "f-copy", "f-loaded")) {
                assertThat(after.scheduler(name).busiestFlowKeys(10)).as(name)
                        .isEqualTo(before.scheduler(name).busiestFlowKeys(10)).isNotEmpty();
            }
            assertThat(after.scheduler("f").busiestFlowKeys(1)).containsExactly(new FlowKeyState("a", 2, 2, 2, 2,
                    FAST.rate(), 0L, FAST)); // its bucket was empty, as when it was retuned
        }
    }

    @Test
    void restart_readsTheOverridesOfASnapshot_andReplaysWhatCameAfter() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            before.putFlowKey("f", "late", new FlowOverride(5, null));
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertSameClocks(after, before);
            assertThat(after.scheduler("f").flowKey("late")).isEqualTo(new FlowOverride(5, null));
        }
    }

    /** A flow clock whose key a is retuned with its bucket empty and whose key b lost its override; a fork, a load. */
    private static void history(ClockRegistry clocks) {
        clocks.create("f", 0, FLOW);
        MemoryClock f = clocks.scheduler("f");
        for (int i = 0; i < 4; i++) {
            f.add("a" + i, Due.after(10), 0, null, null, "a", Trace.NONE);
            f.add("b" + i, Due.after(10), 0, null, null, "b", Trace.NONE);
        }
        clocks.putFlowKey("f", "b", new FlowOverride(3, null));
        f.advance(10L, Trace.NONE);
        assertThat(f.claim(10, 10_000, 0)).extracting(Delivery::id).containsExactly("a0", "b0", "b1");
        clocks.putFlowKey("f", "a", new FlowOverride(2, new FlowRate(1, 1_000)));
        assertThat(f.claim(10, 10_000, 0)).extracting(Delivery::id).containsExactly("a1");
        clocks.putFlowKey("f", "a", FAST); // a's bucket is empty: it stays so at the new rate
        clocks.deleteFlowKey("f", "b");
        assertThat(f.claim(10, 10_000, 0)).as("a waits for a token, b is over its concurrency of 1").isEmpty();
        clocks.fork("f-copy", "f");
        MemoryClockStore store = new MemoryClockStore(clocks);
        store.load("f-loaded", store.snapshot("f"));
        assertThat(f.settings().flow().keys()).isEqualTo(Map.of("a", FAST));
    }

    private static void assertSameClocks(ClockRegistry after, ClockRegistry before) {
        for (String name : List.of("f", "f-copy", "f-loaded")) {
            assertThat(after.get(name).settings()).as(name).isEqualTo(before.get(name).settings());
            assertThat(after.scheduler(name).settings().flow().keys()).as(name).containsKey("a");
            assertThat(after.scheduler(name).allDeliveries()).as(name)
                    .isEqualTo(before.scheduler(name).allDeliveries());
        }
    }

    private ClockRegistry fresh() {
        return ClockRegistry.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, NO_SNAPSHOTS,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
