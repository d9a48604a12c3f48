package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live clock's changes (issue 47) survive a restart: replayed from their records (48) with the clock bucket they
 * retuned, or read from a snapshot's settings (paused, a retry duration), and the paused clock still holds back what
 * it held.
 */
class ClockChangeJournalTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;
    private static final ClockSettings FLOW = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.0))
            .withFlow(new FlowLimits(null, null, null, 5, new FlowRate(2, 1_000)));
    private static final RetryPolicy LONG = new RetryPolicy(2, 100, 1.0, 100, 0.0, 60_000);

    @TempDir
    Path dir;

    @Test
    void restart_replaysTheChanges_andAPausedClockStillHoldsItsDeliveriesBack() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertSame(after, before);
            MemoryClock f = after.scheduler("f");
            assertThat(f.claim(10, 10_000, 0)).as("paused across the restart").isEmpty();
            after.change("f", ClockChange.pause(false));
            assertThat(f.claim(10, 10_000, 0)).extracting(Delivery::id).containsExactly("a2", "a3");
        }
    }

    @Test
    void restart_readsPausedSettingsWithARetryDurationFromASnapshot() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertSame(after, before);
        }
    }

    /** A flow clock: two claimed, the clock rate raised with its bucket empty, a retry duration set, paused. */
    private static void history(ClockRegistry clocks) {
        clocks.create("f", 0, FLOW);
        MemoryClock f = clocks.scheduler("f");
        for (int i = 0; i < 4; i++) {
            f.add("a" + i, Due.after(10), 0, null, null, null, Trace.NONE);
        }
        f.advance(10L, Trace.NONE);
        assertThat(f.claim(10, 10_000, 0)).extracting(Delivery::id).containsExactly("a0", "a1");
        clocks.change("f", new ClockChange(null, LONG, null, new FlowRate(10, 1_000), null));
        clocks.change("f", ClockChange.pause(true));
        f.advance(1_000L, Trace.NONE);
        assertThat(f.claim(10, 10_000, 0)).isEmpty();
        assertThat(f.settings()).isEqualTo(FLOW.withRetry(LONG).withPaused(true)
                .withFlow(new FlowLimits(null, null, null, 5, new FlowRate(10, 1_000))));
    }

    private static void assertSame(ClockRegistry after, ClockRegistry before) {
        assertThat(after.get("f").settings()).isEqualTo(before.get("f").settings());
        assertThat(after.get("f").settings().paused()).isTrue();
        assertThat(after.get("f").settings().retry().maxRetryDurationMillis()).isEqualTo(60_000);
        assertThat(after.scheduler("f").allDeliveries()).isEqualTo(before.scheduler("f").allDeliveries());
    }

    private ClockRegistry fresh() {
        return ClockRegistry.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, NO_SNAPSHOTS,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
