package io.timeservice.store.postgres;

import java.util.EnumMap;
import java.util.Map;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Schedule;

/**
 * The PostgreSQL store's figures for the gauges, over all clocks, as of one snapshot: taken by the firing loop every
 * sample period, so that a scrape reads this record and never waits for the database. Counting is O(rows) (one scan
 * of the pending timers, one of the unacknowledged deliveries, one of the schedules and one of the flow keys with
 * something ready), which is why it is sampled, not run per scrape.
 * Ages are the database's clock at the sample minus the oldest row's time, 0 when there is none.
 *
 * @param clocksByMode             clocks that exist by mode, {@code default} included (a mode without one: absent)
 * @param pendingTimers            pending timers
 * @param pendingBytes             id + payload characters the pending timers hold
 * @param oldestPendingAgeMillis   the database's clock at the sample minus the oldest pending timer's creation
 * @param oldestPendingVirtualAgeMillis largest virtual clock's now minus a pending timer's createdAt
 * @param ready                    deliveries by state: ready, in flight, waiting for a retry, dead
 * @param oldestReadyAgeMillis     how long the longest-ready delivery of a system clock has waited
 * @param skew                     this instance's clock against the database's, measured with the sample
 * @param activeSchedules          schedules by state as {@link Schedule#state()} derives it: an occurrence pending
 *                                 and not paused, pending and paused, none pending (done)
 * @param heldBackClocks           clocks that fire by themselves with a timer due by their now while the deliveries
 *                                 of all clocks hold {@code timeservice.deliveries.max} (their firing waits for
 *                                 room); 0 below it
 * @param flowHeldBack             ready deliveries of flow clocks whose key is at its concurrency or out of tokens
 *                                 (issue 44), from the key rows ({@code flow_keys}: their counts and buckets against
 *                                 their clock's now), never the deliveries
 * @param flowKeysAtLimit          the keys holding them
 * @param pausedClocks             clocks whose deliveries a pause holds back ({@code settings.paused})
 */
public record StoreSample(long takenAtDbMillis, Map<ClockSettings.Mode, Long> clocksByMode, long pendingTimers, long pendingBytes,
                          long oldestPendingAgeMillis, long oldestPendingVirtualAgeMillis, long ready, long inFlight,
                          long waiting, long dead, long oldestReadyAgeMillis, ClockSkew.Measurement skew,
                          long activeSchedules, long pausedSchedules, long doneSchedules, long heldBackClocks,
                          long flowHeldBack, long flowKeysAtLimit, long pausedClocks) {

    /** Clocks that exist, every mode together. */
    public long clocks() {
        return clocksByMode.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Clocks of {@code mode} that exist. */
    public long clocks(ClockSettings.Mode mode) {
        return clocksByMode.getOrDefault(mode, 0L);
    }

    /** Schedules in {@code state} over all clocks. */
    public long schedules(Schedule.State state) {
        return switch (state) {
            case ACTIVE -> activeSchedules;
            case PAUSED -> pausedSchedules;
            case DONE -> doneSchedules;
        };
    }

    /** {@code virtual=3,system=1} as the sample's statement aggregates it (null: no clock). */
    private static Map<ClockSettings.Mode, Long> byMode(String counts) {
        Map<ClockSettings.Mode, Long> byMode = new EnumMap<>(ClockSettings.Mode.class);
        if (counts != null) {
            for (String each : counts.split(",")) {
                int at = each.indexOf('=');
                byMode.put(StoredClock.ofSql(ClockSettings.Mode.class, each.substring(0, at)),
                        Long.parseLong(each.substring(at + 1)));
            }
        }
        return Map.copyOf(byMode);
    }

    /**
     * Takes a sample in one statement (one snapshot) and measures the skew; {@code maxDeliveries} is
     * {@code timeservice.deliveries.max}.
     */
    static StoreSample take(Jdbc jdbc, ClockSkew skew, long maxDeliveries) {
        ClockSkew.Measurement measured = skew.measure();
        return jdbc.autocommit(connection -> Jdbc.queryOne(connection, StoreSql.SAMPLE,
                select -> select.setLong(1, maxDeliveries),
                row -> new StoreSample(row.getLong(1), byMode(row.getString(2)), row.getLong(3), row.getLong(4),
                        Math.max(0, row.getLong(5)), Math.max(0, row.getLong(6)), row.getLong(7), row.getLong(8),
                        row.getLong(9), row.getLong(10), Math.max(0, row.getLong(11)), measured, row.getLong(12),
                        row.getLong(13), row.getLong(14), row.getLong(15), row.getLong(16),
                        row.getLong(17), row.getLong(18))));
    }
}
