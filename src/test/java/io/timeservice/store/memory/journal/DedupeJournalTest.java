package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.OnConflict;
import io.timeservice.model.Precondition;
import io.timeservice.model.Reservation;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.MemoryClockStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A clock's reserved ids (its dedupe window) survive a restart: rebuilt by replaying the records that made them
 * (firings, cancels, acks, dead-letter deletes, a release's own record) or read from the snapshot that holds them,
 * and carried by a fork and by a loaded snapshot document; timers replaced by an add with {@code onConflict}, alone
 * or in a batch, come back replaced.
 */
class DedupeJournalTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;
    private static final ClockSettings DEDUPED = ClockSettings.VIRTUAL.withDedupeWindow(1_000);
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(1, 400, 2.0, 3_000, 0.0)).withDedupeWindow(1_000);

    @TempDir
    Path dir;

    @Test
    void restart_rebuildsEveryReservation_byReplay() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
        }
        assertSameReservations(before);
    }

    @Test
    void restart_readsTheReservationsOfASnapshot_andReplaysWhatCameAfter() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            history(before);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            MemoryClock d = before.scheduler("d");
            d.add("late", 1, 0, null, Trace.NONE);
            d.advance(1L, Trace.NONE);
        }
        assertSameReservations(before);
    }

    /** Reservations of every kind on two clocks, one released, some expired, and a fork of each. */
    private static void history(ClockRegistry clocks) {
        clocks.create("d", 0, DEDUPED);
        clocks.create("q", 0, QUEUE);
        MemoryClock d = clocks.scheduler("d");
        d.add("fired", 10, 0, null, Trace.NONE);
        d.add("expired", 5, 0, null, Trace.NONE);
        d.add("cancelled", 5_000, 0, null, Trace.NONE);
        d.add("released", 10, 0, null, Trace.NONE);
        d.advance(5L, Trace.NONE);
        d.advance(1_000L, Trace.NONE);
        d.cancel("cancelled", Precondition.NONE, Trace.NONE);
        d.releaseReservation("released");
        d.add("debounced", io.timeservice.model.Due.after(100), 0, "{\"n\":1}", io.timeservice.model.OnConflict.REPLACE);
        d.add("debounced", io.timeservice.model.Due.after(200), 2, "{\"n\":22}", io.timeservice.model.OnConflict.REPLACE);
        d.batch(List.of( // a batch's adds by onConflict: a replace is a part of its record, a keep none
                new BatchOp.Add("batched", Due.after(300), 1, "{\"n\":3}", null, null, OnConflict.REPLACE),
                new BatchOp.Add("debounced", Due.after(400), 4, "{\"n\":4}", null, null, OnConflict.REPLACE),
                new BatchOp.Add("batched", Due.after(9), 0, null, null, null, OnConflict.REPLACE),
                new BatchOp.Add("debounced", Due.after(1), 0, null, null, null, OnConflict.KEEP)));
        d.batch(List.of(new BatchOp.Add("batched", Due.after(1), 0, null, null, null, OnConflict.KEEP)));
        assertThat(d.get("batched").version()).isEqualTo(2);
        MemoryClock q = clocks.scheduler("q");
        q.add("acked", 10, 0, null, Trace.NONE);
        q.add("dead", 10, 0, null, Trace.NONE);
        q.add("queued", 10, 0, null, Trace.NONE);
        q.advance(10L, Trace.NONE);
        List<Delivery> claimed = q.claim(2, 10_000, 0);
        q.ack(claimed.get(0).id(), claimed.get(0).claim());
        q.reject(claimed.get(1).id(), claimed.get(1).claim(), "bad");
        q.advance(5L, Trace.NONE);
        q.deleteDead(claimed.get(1).id(), null);
        clocks.fork("d-copy", "d");
        clocks.fork("q-copy", "q");
        MemoryClockStore store = new MemoryClockStore(clocks);
        store.load("d-loaded", store.snapshot("d"));
        assertThat(d.reservations()).extracting(Reservation::id).containsExactly("fired", "cancelled");
        assertThat(q.reservations()).extracting(Reservation::state).containsExactlyInAnyOrder(
                Reservation.State.FIRED, Reservation.State.ACKNOWLEDGED, Reservation.State.DEAD);
    }

    private void assertSameReservations(ClockRegistry before) throws IOException {
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            for (String name : List.of("d", "q", "d-copy", "q-copy", "d-loaded")) {
                assertThat(after.scheduler(name).reservations()).as(name)
                        .isEqualTo(before.scheduler(name).reservations()).isNotEmpty();
                assertThat(after.get(name).settings().dedupeWindowMillis()).isEqualTo(1_000);
                assertThat(after.scheduler(name).firstN(100)).as(name).isEqualTo(before.scheduler(name).firstN(100));
            }
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
