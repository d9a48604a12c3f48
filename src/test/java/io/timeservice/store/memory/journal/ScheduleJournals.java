package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;

/** What the schedule journal tests share: a registry whose clocks run schedules, and its journal without snapshots. */
final class ScheduleJournals {

    private ScheduleJournals() {
    }

    /** An empty registry (10,000 timers, 100 clocks) whose clocks read Unix cron, at most 1,000 catch-up each. */
    static Clocks fresh() {
        UnixCronParser parser = new UnixCronParser();
        return new Clocks((clock, budget) -> {
            TimerScheduler scheduler = new TimerScheduler(clock, 4, budget, System::currentTimeMillis,
                    SchedulerMetrics.NONE);
            scheduler.scheduleWith(parser, 1_000);
            return scheduler;
        }, new PendingBudget(10_000, Long.MAX_VALUE), 100, System::currentTimeMillis);
    }

    /** The journal in {@code dir} for {@code clocks}, recovered, never forced, never snapshotting. */
    static JournalStore open(Path dir, Clocks clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
