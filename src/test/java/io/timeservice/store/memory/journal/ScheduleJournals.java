package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.MemoryClock;

/** What the schedule journal tests share: a registry whose clocks run schedules, and its journal without snapshots. */
final class ScheduleJournals {

    private ScheduleJournals() {
    }

    /** An empty registry (10,000 timers, 100 clocks) whose clocks read Unix cron, at most 1,000 catch-up each. */
    static ClockRegistry fresh() {
        UnixCronParser parser = new UnixCronParser();
        return new ClockRegistry((clock, budget) -> {
            MemoryClock scheduler = new MemoryClock(clock, 4, budget, System::currentTimeMillis,
                    StoreMetrics.NONE);
            scheduler.scheduleWith(parser, 1_000);
            return scheduler;
        }, new PendingBudget(10_000, Long.MAX_VALUE), 100, System::currentTimeMillis);
    }

    /** The journal in {@code dir} for {@code clocks}, recovered, never forced, never snapshotting. */
    static JournalStore open(Path dir, ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
