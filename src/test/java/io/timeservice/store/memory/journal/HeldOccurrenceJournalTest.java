package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.ScheduleSpec.CatchUp;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41 item 1, recovery side: a journal written by a version that let a client take a schedule's occurrence id
 * ({@code POST /timers {"id":"b:<time>"}} while schedule {@code b} existed) holds the client's add and then the
 * firing steps that reach the schedule's occurrence of that id. That version added a second timer with the id and
 * could not recover its own journal ("journal adds occurrence ... which is pending"). Now the journal recovers: the
 * client's timer stays, the schedule counts the occurrence as skipped and moves on, and the service starts again
 * on the same directory with the same state.
 */
class HeldOccurrenceJournalTest {

    private static final long NOW = 1806184800000L; // 2027-03-27T22:00Z
    private static final long HELD = 1806190200000L; // 23:30Z, the schedule's second occurrence

    @TempDir
    Path dir;

    @Test
    void aJournalWhoseClientTimerHoldsAnOccurrenceId_recovers_theClientTimerStays_theOccurrenceIsSkipped()
            throws IOException {
        ClockRegistry first = ScheduleJournals.fresh();
        try (JournalStore store = ScheduleJournals.open(dir, first)) {
            ClockRegistry.Clock clock = first.create("c", NOW, ClockSettings.VIRTUAL).clock();
            new MemoryScheduleStore(first).put("c", "b", cron("30 * * * *"), null);
            long last = first.scheduler("c").get("b:" + (NOW + 1_800_000)).sequence();
            // what the old version journaled for the accepted POST /timers {"id":"b:HELD","delay":86400000}
            Timer client = new Timer("b:" + HELD, NOW + 86_400_000, 0, last + 1, 1, NOW, "{\"mine\":true}");
            store.writer().awaitDurable(store.writer().append(
                    new Mutation.OnClock(clock.number(), new Mutation.Added(client, NOW))));
        }

        ClockRegistry second = ScheduleJournals.fresh();
        Snapshot stateBeforeStop;
        try (JournalStore store = ScheduleJournals.open(dir, second)) {
            MemoryClock c = second.scheduler("c");
            assertThat(c.get("b:" + HELD).payload()).isEqualTo("{\"mine\":true}");
            for (int i = 0; i < 3; i++) { // the old version's steps: next, next, next (each journaled)
                c.advanceToNext(Integer.MAX_VALUE, Trace.NONE);
            }
            assertThat(c.now()).isEqualTo(HELD + 7_200_000); // 22:30, then 00:30 and 01:30
            Schedule b = new MemoryScheduleStore(second).get("c", "b");
            assertThat(b.fired()).isEqualTo(3);
            assertThat(b.skipped()).as("the held occurrence").isEqualTo(1);
            assertThat(b.next()).isEqualTo(HELD + 10_800_000);
            assertThat(c.firstN(10).timers()).extracting(Timer::id)
                    .containsExactly("b:" + (HELD + 10_800_000), "b:" + HELD);
            assertThat(c.checkInvariants().ok()).isTrue();
            stateBeforeStop = new Snapshot(new MemoryClockStore(second).snapshot("c").timers(),
                    new MemoryScheduleStore(second).list("c"));
        }

        ClockRegistry third = ScheduleJournals.fresh();
        try (JournalStore store = ScheduleJournals.open(dir, third)) {
            assertThat(new Snapshot(new MemoryClockStore(third).snapshot("c").timers(),
                    new MemoryScheduleStore(third).list("c"))).isEqualTo(stateBeforeStop);
            assertThat(third.scheduler("c").checkInvariants().ok()).isTrue();
        }
    }

    private record Snapshot(List<Timer> timers, List<Schedule> schedules) {
    }

    private static ScheduleSpec cron(String cron) {
        return new ScheduleSpec(cron, null, "UTC", null, null, null, 0, null, CatchUp.ALL, false);
    }
}
