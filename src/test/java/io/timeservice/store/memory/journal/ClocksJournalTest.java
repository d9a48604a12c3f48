package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.timeservice.model.Precondition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One journal for several clocks: creation, deletion, tagged records, a snapshot of every clock and recovery. */
class ClocksJournalTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;

    @TempDir
    Path dir;

    @Test
    void restart_recreatesEveryClockWithItsTimersTimeAndSettings() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            drive(before, new Random(3), 600);
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
        }
    }

    @Test
    void restart_afterASnapshotOfEveryClock_replaysTheSegmentsAfterIt() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            drive(before, new Random(5), 300);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            drive(before, new Random(6), 300);
            before.create("late", 42).clock().scheduler().add("x", 1, 0, "{}", Trace.NONE);
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).hasSize(1);
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
        }
    }

    @Test
    void snapshotsStartOnTheirOwn_whenTheJournalGrows_andRecoveryMatches() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, 1)) {
            drive(before, new Random(8), 800);
            before.snapshotNow(); // waits for a background one still holding the registry, then takes its own
            store.writer().awaitSnapshotIdle();
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).isNotEmpty();
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
        }
    }

    @Test
    void aClockDeletedAndCreatedAgain_continuesSequencesPastTheDeletedOnesReservation() throws IOException {
        Clocks before = fresh();
        long oldSequence;
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            oldSequence = before.create("ci", 0).clock().scheduler().add("t", 5, 0, null, Trace.NONE).sequence();
            before.delete("ci");
            long newSequence = before.create("ci", 0).clock().scheduler().add("t", 5, 0, null, Trace.NONE)
                    .sequence();
            // the deleted clock reserved 1..1,000,000 on disk, so the new one starts after it
            assertThat(newSequence).isGreaterThan(oldSequence + 999_999);
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            TimerScheduler ci = after.scheduler("ci");
            assertThat(ci.get("t").sequence()).isGreaterThan(oldSequence + 999_999);
            after.delete("ci");
            after.snapshotNow();
            store.writer().awaitSnapshotIdle();
        }
        Clocks third = fresh();
        try (JournalStore store = open(third, NO_SNAPSHOTS)) {
            assertThatThrownBy(() -> third.scheduler("ci")).hasMessageContaining("no clock is named ci");
            long again = third.create("ci", 0).clock().scheduler().add("t", 5, 0, null, Trace.NONE).sequence();
            assertThat(again).isGreaterThan(2_000_000); // the floor survived in the snapshot
        }
    }

    @Test
    void aJournalWithClocks_isRefusedByTheSingleSchedulerRecovery() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            before.create("a", 0).clock().scheduler().add("t", 5, 0, null, Trace.NONE);
        }
        TimerScheduler single = TimerScheduler.withVirtualClock(4, 100);
        assertThatThrownBy(() -> JournalStore.open(dir, single, FsyncPolicy.NEVER, Duration.ofMillis(5), 4,
                NO_SNAPSHOTS)).hasMessageContaining("recover it through Clocks");
    }

    @Test
    void concurrentClocksWithSnapshotsOnTheirOwn_recoverToWhatTheyShowed() throws Exception {
        Clocks before = fresh();
        try (JournalStore store = open(before, 4096)) {
            for (int c = 0; c < 4; c++) {
                before.create("c" + c, 0);
            }
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(9);
            java.util.List<java.util.concurrent.Callable<Void>> workers = new java.util.ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                workers.add(() -> {
                    Random random = new Random(100 + thread);
                    start.await();
                    for (int n = 0; n < 1500; n++) {
                        TimerScheduler scheduler = before.scheduler("c" + random.nextInt(4));
                        try {
                            int op = random.nextInt(10);
                            if (op < 5) {
                                scheduler.add("w" + thread + "-" + n, random.nextInt(30), 0, "{}", Trace.NONE);
                            } else if (op < 7) {
                                scheduler.cancel("w" + thread + "-" + random.nextInt(n + 1), Precondition.NONE,
                                        Trace.NONE);
                            } else {
                                scheduler.advance(random.nextInt(3), Trace.NONE);
                            }
                        } catch (io.timeservice.model.ProblemException refused) {
                            // not found: fired or cancelled by another thread
                        }
                    }
                    return null;
                });
            }
            workers.add(() -> { // creates and deletes a clock while the others run and snapshots start
                start.await();
                for (int n = 0; n < 200; n++) {
                    before.create("churn", 0).clock().scheduler().add("x", n, 0, null, Trace.NONE);
                    if (n % 2 == 0) {
                        before.delete("churn");
                    } else {
                        before.snapshotNow();
                        before.delete("churn");
                    }
                }
                return null;
            });
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(9);
            try {
                for (java.util.concurrent.Future<Void> done : pool.invokeAll(workers)) {
                    done.get();
                }
            } finally {
                pool.shutdownNow();
            }
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            before.scheduler("c0").add("after-the-last-snapshot", 1, 0, null, Trace.NONE);
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
        }
    }

    /** Random operations over four clock names: create, delete, add, cancel, edit, advance. */
    private static void drive(Clocks clocks, Random random, int steps) {
        String[] names = {"default", "a", "b", "c"};
        for (int i = 0; i < steps; i++) {
            String name = names[random.nextInt(names.length)];
            int op = random.nextInt(100);
            try {
                if (op < 6) {
                    clocks.create(name, random.nextInt(2) * 100L);
                } else if (op < 9) {
                    clocks.delete(name);
                } else {
                    TimerScheduler scheduler = clocks.scheduler(name);
                    String id = "t" + random.nextInt(10);
                    if (op < 55) {
                        scheduler.add(id, random.nextInt(50), random.nextInt(3), "{\"i\":" + i + "}", Trace.NONE);
                    } else if (op < 70) {
                        scheduler.cancel(id, Precondition.NONE, Trace.NONE);
                    } else if (op < 80) {
                        scheduler.edit(id, (long) random.nextInt(30), null, Precondition.NONE, Trace.NONE);
                    } else if (op < 90) {
                        // bounded: stops among timers tied at one fireTime, which replay must not all fire
                        scheduler.advance(null, scheduler.now() + random.nextInt(20), 1 + random.nextInt(2),
                                Trace.NONE);
                    } else {
                        scheduler.advance(random.nextInt(20), Trace.NONE);
                    }
                }
            } catch (io.timeservice.model.ProblemException refused) {
                // refusals change nothing; the comparison after restart checks that
            }
        }
    }

    private static void assertSameClocks(Clocks after, Clocks before) {
        List<Clocks.Clock> expected = before.list(100, null);
        List<Clocks.Clock> actual = after.list(100, null);
        assertThat(actual).extracting(Clocks.Clock::name, Clocks.Clock::initialNow, Clocks.Clock::createdAtWallMillis)
                .containsExactlyElementsOf(expected.stream().map(clock -> org.assertj.core.groups.Tuple.tuple(
                        clock.name(), clock.initialNow(), clock.createdAtWallMillis())).toList());
        Map<String, QueueListing> listings = new HashMap<>();
        for (Clocks.Clock clock : expected) {
            listings.put(clock.name(), clock.scheduler().firstN(1000));
        }
        for (Clocks.Clock clock : actual) {
            assertThat(clock.scheduler().firstN(1000)).as(clock.name()).isEqualTo(listings.get(clock.name()));
            assertThat(clock.scheduler().status()).as(clock.name())
                    .isEqualTo(before.scheduler(clock.name()).status());
        }
        assertThat(after.budget().timers()).isEqualTo(before.budget().timers());
        assertThat(after.budget().bytes()).isEqualTo(before.budget().bytes());
    }

    private Clocks fresh() {
        return Clocks.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
    }

    private JournalStore open(Clocks clocks, long snapshotMinBytes) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, snapshotMinBytes,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
