package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.ScheduleSpec.CatchUp;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cron schedule that fires near the end of time ({@link Limits#MAX_TIME}) leaves a journal that recovery replays
 * (issue 41 item 13: it threw {@code long overflow} and the service could not restart): its last occurrence fires,
 * it is done, and the clock reaches the end of time; a restart rebuilds the same clock, from the journal and from a
 * snapshot file.
 */
class EndOfTimeJournalTest {

    /** The last New Year before the end of time (2^53 - 1 ms is in October of the year 287,396). */
    private static final long LAST_NEW_YEAR = Instant.parse("+287396-01-01T00:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    @Test
    void aYearlyCronFiringAtTheEndOfTime_restartsFromItsJournal_andFromASnapshot() throws IOException {
        ClockRegistry before = ScheduleJournals.fresh();
        try (JournalStore store = ScheduleJournals.open(dir, before)) {
            before.create("end", LAST_NEW_YEAR - 400L * 86_400_000, ClockSettings.VIRTUAL);
            new MemoryScheduleStore(before).put("end", "ny", new ScheduleSpec("0 0 1 1 *", null, null, null, null,
                    null, 0, null, CatchUp.ALL, false), null);
            MemoryClock scheduler = before.scheduler("end");
            scheduler.advanceToNext(10, Trace.NONE);
            assertThat(scheduler.advanceToNext(10, Trace.NONE).result().fired()).extracting("id")
                    .containsExactly("ny:" + LAST_NEW_YEAR);
            scheduler.advance(null, Limits.MAX_TIME, Integer.MAX_VALUE, Trace.NONE);
            scheduler.add("last", 0, 0, null, Trace.NONE);
            store.writer().awaitSnapshotIdle();
        }
        assertRestartsAsBefore(before);

        ClockRegistry again = ScheduleJournals.fresh();
        try (JournalStore store = ScheduleJournals.open(dir, again)) {
            again.snapshotNow();
            store.writer().awaitSnapshotIdle();
        }
        assertRestartsAsBefore(before);
    }

    private void assertRestartsAsBefore(ClockRegistry before) throws IOException {
        ClockRegistry after = ScheduleJournals.fresh();
        try (JournalStore ignored = ScheduleJournals.open(dir, after)) {
            Schedule schedule = new MemoryScheduleStore(after).get("end", "ny");
            assertThat(schedule).isEqualTo(new MemoryScheduleStore(before).get("end", "ny"));
            assertThat(schedule.state()).isEqualTo(Schedule.State.DONE);
            assertThat(schedule.fired()).isEqualTo(2);
            assertThat(after.scheduler("end").now()).isEqualTo(Limits.MAX_TIME);
            assertThat(after.scheduler("end").firstN(10)).isEqualTo(before.scheduler("end").firstN(10));
        }
    }
}
