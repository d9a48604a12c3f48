package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fork is one journal record ({@code ClockForked}) that recovery turns into the same copy, and so is a load of a saved
 * clock ({@code ClockLoaded}): restarts after a fork or a load (with in-flight deliveries in the source, records of
 * both clocks after it, a snapshot between) rebuild every clock as it was.
 */
class ForkJournalTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.5));

    @TempDir
    Path dir;

    @Test
    void restart_afterForks_rebuildsTheCopiesAndWhatHappenedToThemSince() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            before.create("q", 50, QUEUE);
            drive(before.scheduler("q"), new Random(1), 300);
            drive(before.defaultScheduler(), new Random(2), 100);
            before.fork("copy", "q");
            before.fork("copy-of-default", "default");
            drive(before.scheduler("q"), new Random(3), 200);
            drive(before.scheduler("copy"), new Random(4), 200);
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
        }
    }

    @Test
    void restart_rightAfterAFork_withASnapshotBeforeIt_rebuildsTheCopy() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            before.create("q", 0, QUEUE);
            drive(before.scheduler("q"), new Random(5), 300);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            drive(before.scheduler("q"), new Random(6), 50);
            before.fork("copy", "q");
            before.scheduler("copy").add("new", 1, 0, null, Trace.NONE); // its sequence follows the source's
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
        }
    }

    @Test
    void restart_afterLoads_rebuildsTheLoadedClocksAndWhatHappenedToThemSince() throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            MemoryClockStore clockStore = new MemoryClockStore(before);
            before.create("q", 50, QUEUE);
            drive(before.scheduler("q"), new Random(7), 300);
            ClockSnapshot saved = clockStore.snapshot("q");
            before.load("loaded", saved);
            before.delete("q");
            before.load("q", saved); // under a deleted clock's name: its sequences start after the deleted one's
            drive(before.scheduler("loaded"), new Random(8), 200);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            before.load("after-the-cut", clockStore.snapshot("loaded"));
            drive(before.scheduler("q"), new Random(9), 100);
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
            MemoryClockStore clockStore = new MemoryClockStore(after);
            assertThat(withName(clockStore.snapshot("after-the-cut"), "loaded"))
                    .isEqualTo(withName(clockStore.snapshot("loaded"), "loaded"));
        }
    }

    /** A loaded push clock keeps its target, secrets added to the document included, in the record and the file. */
    @Test
    void restart_afterLoadsOfPushClocks_rebuildsTheirTargets_secretsIncluded() throws IOException {
        PushTarget target = new PushTarget("https://hooks.example.com/t", 2_000, 4, Map.of("X-Tenant", "acme"),
                List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        ClockSettings push = new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.PUSH,
                QUEUE.retry(), null, target);
        Clocks before = fresh();
        try (JournalStore store = open(before, NO_SNAPSHOTS)) {
            ClockSnapshot document = new ClockSnapshot("x", push, 100, 2, List.of(new io.timeservice.model.Timer("t",
                    500, 0, 1, 1, 0, null)), List.of());
            before.load("before-the-cut", document);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            before.load("after-the-cut", document);
        }
        Clocks after = fresh();
        try (JournalStore store = open(after, NO_SNAPSHOTS)) {
            assertSameClocks(after, before);
            assertThat(after.get("before-the-cut").settings().push()).isEqualTo(target);
            assertThat(after.get("after-the-cut").settings().push()).isEqualTo(target);
        }
    }

    /** The snapshot as plain lists (its timers may be a view), named {@code name}. */
    private static ClockSnapshot withName(ClockSnapshot snapshot, String name) {
        return new ClockSnapshot(name, snapshot.settings(), snapshot.now(), snapshot.nextSequence(),
                List.copyOf(snapshot.timers()), snapshot.schedules(), List.copyOf(snapshot.deliveries()));
    }

    /** Random adds, cancels, edits, advances, claims, acks and nacks on one clock. */
    private static void drive(TimerScheduler scheduler, Random random, int steps) {
        List<Delivery> held = new java.util.ArrayList<>();
        boolean queues = scheduler.settings().queues();
        for (int i = 0; i < steps; i++) {
            int op = random.nextInt(100);
            String id = "t" + random.nextInt(10);
            try {
                if (op < 40) {
                    scheduler.add(id, random.nextInt(3_000), random.nextInt(3), "{\"i\":" + i + "}", Trace.NONE);
                } else if (op < 48) {
                    scheduler.cancel(id, Precondition.NONE, Trace.NONE);
                } else if (op < 55) {
                    scheduler.edit(id, (long) random.nextInt(2_000), null, Precondition.NONE, Trace.NONE);
                } else if (op < 70) {
                    scheduler.advance(null, scheduler.now() + random.nextInt(1_500), 1 + random.nextInt(3),
                            Trace.NONE);
                } else if (!queues) {
                    scheduler.advanceToNext(1 + random.nextInt(3), Trace.NONE);
                } else if (op < 85) {
                    held.addAll(scheduler.claim(1 + random.nextInt(3), 1_000 + random.nextInt(2_000), 0));
                } else if (!held.isEmpty()) {
                    Delivery delivery = held.remove(random.nextInt(held.size()));
                    if (op < 93) {
                        scheduler.ack(delivery.id(), delivery.claim());
                    } else {
                        scheduler.nack(delivery.id(), delivery.claim(), null);
                    }
                }
            } catch (ProblemException refused) {
                // refusals change nothing; the comparison after restart checks that
            }
        }
    }

    private static void assertSameClocks(Clocks after, Clocks before) {
        List<Clocks.Clock> expected = before.list(100, null);
        List<Clocks.Clock> actual = after.list(100, null);
        assertThat(actual).extracting(Clocks.Clock::name).containsExactlyElementsOf(
                expected.stream().map(Clocks.Clock::name).toList());
        for (Clocks.Clock clock : actual) {
            TimerScheduler was = before.scheduler(clock.name());
            TimerScheduler is = clock.scheduler();
            assertThat(clock.settings()).as(clock.name()).isEqualTo(before.get(clock.name()).settings());
            assertThat(clock.initialNow()).as(clock.name()).isEqualTo(before.get(clock.name()).initialNow());
            assertThat(is.firstN(1000)).as(clock.name()).isEqualTo(was.firstN(1000));
            assertThat(is.status()).as(clock.name()).isEqualTo(was.status());
            // leases run again for their full length after a restart; everything else is as it was
            assertThat(is.allDeliveries()).as(clock.name()).usingElementComparatorIgnoringFields("leaseUntil")
                    .isEqualTo(was.allDeliveries());
        }
        assertThat(after.budget().timers()).isEqualTo(before.budget().timers());
        assertThat(after.budget().bytes()).isEqualTo(before.budget().bytes());
        assertThat(after.budget().deliveries()).isEqualTo(before.budget().deliveries());
    }

    private Clocks fresh() {
        return Clocks.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
    }

    private JournalStore open(Clocks clocks, long snapshotMinBytes) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, snapshotMinBytes,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
