package io.timeservice.metrics;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.timeservice.store.memory.journal.JournalMetrics;
import org.springframework.stereotype.Component;

/**
 * Reports the journal's disk work to Micrometer. Registered whatever the durability, so dashboards and alerts find
 * the same families everywhere (all zero with {@code timeservice.durability=none}). No tags: there is one journal.
 *
 * <p>Prometheus names: {@code timer_journal_fsync_seconds} (histogram: p50/p99 with {@code histogram_quantile}),
 * {@code timer_journal_batch_records} and {@code timer_journal_batch_bytes} (summaries: records and bytes per write,
 * the group commit), {@code timer_journal_snapshot_seconds} (time to write a snapshot),
 * {@code timer_journal_snapshot_pause_seconds} (scheduler lock held to copy the state) and
 * {@code timer_journal_snapshot_failed_total}.
 */
@Component
public class MicrometerJournalMetrics implements JournalMetrics {

    private final Timer fsync;
    private final DistributionSummary batchRecords;
    private final DistributionSummary batchBytes;
    private final Timer snapshot;
    private final Timer snapshotPause;
    private final Counter snapshotFailed;

    public MicrometerJournalMetrics(MeterRegistry registry) {
        fsync = Timer.builder("timer.journal.fsync")
                .description("Time one fsync of a journal segment took")
                .publishPercentileHistogram()
                .register(registry);
        batchRecords = DistributionSummary.builder("timer.journal.batch.records")
                .description("Records handed to the OS in one journal write (one group commit)")
                .register(registry);
        batchBytes = DistributionSummary.builder("timer.journal.batch")
                .description("Bytes handed to the OS in one journal write (one group commit), batch headers included")
                .baseUnit("bytes")
                .register(registry);
        snapshot = Timer.builder("timer.journal.snapshot")
                .description("Time to write, fsync and install one snapshot, off the scheduler lock")
                .register(registry);
        snapshotPause = Timer.builder("timer.journal.snapshot.pause")
                .description("Time a snapshot held the scheduler lock to copy the state")
                .register(registry);
        snapshotFailed = Counter.builder("timer.journal.snapshot.failed")
                .description("Snapshots that failed (the journal keeps every record; the next one is tried later)")
                .register(registry);
    }

    @Override
    public void batchWritten(long records, long bytes) {
        batchRecords.record(records);
        batchBytes.record(bytes);
    }

    @Override
    public void forced(long nanos) {
        fsync.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void snapshotWritten(long nanos, long pauseNanos) {
        snapshot.record(nanos, TimeUnit.NANOSECONDS);
        snapshotPause.record(pauseNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void snapshotFailed() {
        snapshotFailed.increment();
    }
}
