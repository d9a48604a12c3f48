package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A push clock's settings (its target, secrets included) and a delivery rejected at once (a 410) survive a restart,
 * from the records and from a snapshot.
 */
class PushJournalTest {

    private static final PushTarget TARGET = new PushTarget("https://hooks.example.com/t?x=1", 2_500, 7,
            Map.of("X-Tenant", "acme", "X-Env", "test"), List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "plain"));
    private static final ClockSettings PUSH = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.PUSH, new RetryPolicy(3, 100, 2.0, 1_000, 0), null, TARGET);

    @TempDir
    Path dir;

    private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);

    @Test
    void restart_keepsThePushTarget_andTheRejectedDelivery_fromRecords() throws IOException {
        List<Delivery> expected;
        ClockRegistry clocks = fresh();
        try (JournalStore store = open(clocks)) {
            expected = pushAndReject(clocks);
        }
        assertRecovered(expected);
    }

    @Test
    void restart_keepsThePushTarget_andTheRejectedDelivery_fromASnapshot() throws IOException {
        List<Delivery> expected;
        ClockRegistry clocks = fresh();
        try (JournalStore store = open(clocks)) {
            expected = pushAndReject(clocks);
            clocks.snapshotNow();
            store.writer().awaitSnapshotIdle();
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).hasSize(1);
        assertRecovered(expected);
    }

    private List<Delivery> pushAndReject(ClockRegistry clocks) {
        clocks.create("hooks", 0, PUSH);
        MemoryClock hooks = clocks.scheduler("hooks");
        hooks.add("gone", 0, 0, "{\"n\":1}", Trace.NONE);
        hooks.add("kept", 0, 0, null, Trace.NONE);
        hooks.advance(0L, null, 10, Trace.NONE);
        Delivery claimed = hooks.claim(1, 10_000, 0).get(0);
        Delivery dead = hooks.reject(claimed.id(), claimed.claim(), "the target answered 410 Gone on attempt 1");
        assertThat(dead.state()).isEqualTo(Delivery.State.DEAD);
        return hooks.allDeliveries();
    }

    private void assertRecovered(List<Delivery> expected) throws IOException {
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertThat(after.get("hooks").settings()).isEqualTo(PUSH);
            assertThat(after.get("hooks").settings().push().secrets()).containsExactly(
                    "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "plain");
            assertThat(after.scheduler("hooks").allDeliveries()).isEqualTo(expected);
            assertThat(expected).extracting(Delivery::deadReason)
                    .contains("the target answered 410 Gone on attempt 1");
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
