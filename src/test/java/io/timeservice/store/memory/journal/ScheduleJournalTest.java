package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScheduleSpec.CatchUp;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Schedules survive restarts: their calls and firing steps are journal records (and a snapshot section) that
 * recovery turns into the same schedules, occurrences and counts; after a restart in the middle of a schedule the
 * same advances fire the same occurrences as on the clock that never stopped, none twice and none lost; so do a
 * fork's copy and a loaded clock (its record 38 holds the schedules), from the journal or a snapshot file.
 */
class ScheduleJournalTest {

    private static final long START = Instant.parse("2027-03-27T22:00:00Z").toEpochMilli();
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.5));

    @org.junit.jupiter.api.io.TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"journal", "snapshot", "fork", "load", "load, then snapshot"})
    void restart_inTheMiddleOfSchedules_rebuildsThem_andTheSameAdvancesFireTheSameOccurrences(String cut)
            throws IOException {
        Clocks before = ScheduleJournals.fresh();
        Clocks neverStopped = ScheduleJournals.fresh(); // no journal: the same calls on a clock that never restarts
        try (JournalStore store = ScheduleJournals.open(dir, before)) {
            for (Clocks clocks : List.of(before, neverStopped)) {
                clocks.create("berlin", START, ClockSettings.VIRTUAL);
                clocks.create("queue", START, QUEUE);
                for (String clock : List.of("berlin", "queue")) {
                    drive(clocks, clock, new Random(clock.hashCode()), 150);
                }
            }
            if (cut.equals("snapshot")) {
                before.snapshotNow();
                store.writer().awaitSnapshotIdle();
            } else if (cut.equals("fork")) {
                before.fork("copy", "berlin");
                neverStopped.fork("copy", "berlin");
            } else if (cut.startsWith("load")) { // a saved clock loaded: one journal record, schedules included
                for (Clocks clocks : List.of(before, neverStopped)) {
                    clocks.load("copy", new MemoryClockStore(clocks).snapshot("berlin"));
                    MemoryScheduleStore schedules = new MemoryScheduleStore(clocks);
                    assertThat(schedules.list("copy")).isNotEmpty().isEqualTo(schedules.list("berlin"));
                }
                if (cut.endsWith("snapshot")) {
                    before.snapshotNow();
                    store.writer().awaitSnapshotIdle();
                }
            }
            for (Clocks clocks : List.of(before, neverStopped)) {
                drive(clocks, cut.equals("fork") || cut.startsWith("load") ? "copy" : "berlin", new Random(7), 40);
            }
        }
        Clocks after = ScheduleJournals.fresh();
        try (JournalStore store = ScheduleJournals.open(dir, after)) {
            for (Clocks.Clock clock : before.list(100, null)) {
                assertSameSchedules(after, before, clock.name());
            }
            assertThat(after.budget().schedules()).isEqualTo(before.budget().schedules());
            assertThat(after.budget().timers()).isEqualTo(before.budget().timers());
            // the same advances: the same occurrences fire, in the same order, with the same counts
            for (Clocks.Clock clock : neverStopped.list(100, null)) {
                TimerScheduler was = neverStopped.scheduler(clock.name());
                TimerScheduler is = after.scheduler(clock.name());
                for (int i = 0; i < 5; i++) {
                    AdvanceResult expected = was.advance(null, was.now() + 3_600_000, Integer.MAX_VALUE, Trace.NONE);
                    AdvanceResult actual = is.advance(null, is.now() + 3_600_000, Integer.MAX_VALUE, Trace.NONE);
                    // sequences differ by design: a restarted clock continues after its reserved block
                    assertThat(actual.now()).as(clock.name()).isEqualTo(expected.now());
                    assertThat(actual.fired()).as(clock.name()).usingElementComparatorIgnoringFields("sequence")
                            .isEqualTo(expected.fired());
                }
                assertThat(new MemoryScheduleStore(after).list(clock.name())).as(clock.name())
                        .isEqualTo(new MemoryScheduleStore(neverStopped).list(clock.name()));
                assertThat(is.firstN(1000).timers()).as(clock.name()).usingElementComparatorIgnoringFields("sequence")
                        .isEqualTo(was.firstN(1000).timers());
            }
        }
    }

    /** Random schedule calls and advances across Berlin's spring-forward night, with plain timers among them. */
    private static void drive(Clocks clocks, String clock, Random random, int steps) {
        MemoryScheduleStore schedules = new MemoryScheduleStore(clocks);
        TimerScheduler scheduler = clocks.scheduler(clock);
        String[] crons = {"*/30 1-3 * * *", "30 2 * * *", "*/7 * * * *", "0 * * * *"};
        for (int i = 0; i < steps; i++) {
            int op = random.nextInt(100);
            String id = "s" + random.nextInt(5);
            try {
                if (op < 20) {
                    ScheduleSpec spec = random.nextBoolean()
                            ? new ScheduleSpec(crons[random.nextInt(crons.length)], null, "Europe/Berlin", null,
                            null, random.nextInt(4) == 0 ? (long) 1 + random.nextInt(20) : null, random.nextInt(3),
                            "{\"s\":\"" + id + "\"}", CatchUp.values()[random.nextInt(3)], false)
                            : new ScheduleSpec(null, 1_000L * (60 + random.nextInt(600)), null, null, null, null,
                            random.nextInt(3), null, CatchUp.ALL, false);
                    schedules.put(clock, id, spec, null);
                } else if (op < 25) {
                    schedules.delete(clock, id, null);
                } else if (op < 30) {
                    schedules.pause(clock, id, null);
                } else if (op < 36) {
                    schedules.resume(clock, id, null);
                } else if (op < 40) {
                    schedules.trigger(clock, id);
                } else if (op < 50) {
                    scheduler.add("t" + random.nextInt(10), random.nextInt(3_600_000), random.nextInt(3), null,
                            Trace.NONE);
                } else if (op < 90) {
                    scheduler.advance(null, scheduler.now() + random.nextInt(900_000), 1 + random.nextInt(50),
                            Trace.NONE);
                } else if (scheduler.settings().queues()) {
                    for (var delivery : scheduler.claim(1 + random.nextInt(5), 60_000, 0)) {
                        scheduler.ack(delivery.id(), delivery.claim());
                    }
                } else {
                    scheduler.advanceToNext(1 + random.nextInt(3), Trace.NONE);
                }
            } catch (ProblemException refused) {
                // refusals change nothing; the comparison after restart checks that
            }
        }
    }

    private static void assertSameSchedules(Clocks after, Clocks before, String clock) {
        MemoryScheduleStore was = new MemoryScheduleStore(before);
        MemoryScheduleStore is = new MemoryScheduleStore(after);
        assertThat(is.list(clock)).as(clock).isEqualTo(was.list(clock));
        assertThat(after.scheduler(clock).firstN(1000)).as(clock).isEqualTo(before.scheduler(clock).firstN(1000));
        assertThat(after.scheduler(clock).status()).as(clock).isEqualTo(before.scheduler(clock).status());
        assertThat(after.scheduler(clock).allDeliveries()).as(clock).usingElementComparatorIgnoringFields("leaseUntil")
                .isEqualTo(before.scheduler(clock).allDeliveries());
        List<String> owners = new ArrayList<>();
        for (Timer timer : after.scheduler(clock).firstN(1000).timers()) {
            owners.add(after.scheduler(clock).get(timer.id()).schedule());
        }
        List<String> ownersBefore = new ArrayList<>();
        for (Timer timer : before.scheduler(clock).firstN(1000).timers()) {
            ownersBefore.add(before.scheduler(clock).get(timer.id()).schedule());
        }
        assertThat(owners).as(clock).isEqualTo(ownersBefore);
    }
}
