package io.timeservice.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.EnumMap;
import java.util.Map;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Schedule;

/**
 * The PostgreSQL store's figures for the gauges, over all clocks, as of one snapshot: taken by the firing loop every
 * sample period, so that a scrape reads this record and never waits for the database. Counting is O(rows) (one scan
 * of the pending timers, one of the unacknowledged deliveries and one of the schedules), which is why it is sampled, not run per scrape.
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
 */
public record StoreSample(long takenAtDbMillis, Map<ClockSettings.Mode, Long> clocksByMode, long pendingTimers, long pendingBytes,
                          long oldestPendingAgeMillis, long oldestPendingVirtualAgeMillis, long ready, long inFlight,
                          long waiting, long dead, long oldestReadyAgeMillis, ClockSkew.Measurement skew,
                          long activeSchedules, long pausedSchedules, long doneSchedules, long heldBackClocks) {

    private static final String SAMPLE = """
            SELECT db_now_ms(),
                   (SELECT string_agg(mode || '=' || n, ',') FROM (SELECT mode, count(*) AS n FROM clocks GROUP BY mode) m),
                   t.pending, t.bytes, db_now_ms() - t.oldest_wall, t.oldest_virtual_age,
                   d.ready, d.in_flight, d.waiting, d.dead, db_now_ms() - d.oldest_ready,
                   s.active, s.paused, s.done,
                   CASE WHEN (SELECT coalesce(sum(deliveries), 0) FROM pending_budget) >= ?
                        THEN (SELECT count(*) FROM clocks c WHERE c.mode <> 'virtual' AND EXISTS
                                (SELECT 1 FROM timers t WHERE t.clock = c.name AND t.fire_time <= clock_now_ms(c)))
                        ELSE 0 END
              FROM (SELECT count(*) AS pending, coalesce(sum(t.bytes), 0) AS bytes,
                           min(t.created_at_wall) AS oldest_wall,
                           max(CASE WHEN c.mode = 'virtual' THEN c.now_ms - t.created_at END) AS oldest_virtual_age
                      FROM timers t JOIN clocks c ON c.name = t.clock) t,
                   (SELECT count(*) FILTER (WHERE d.state = 'ready') AS ready,
                           count(*) FILTER (WHERE d.state = 'in_flight') AS in_flight,
                           count(*) FILTER (WHERE d.state = 'waiting') AS waiting,
                           count(*) FILTER (WHERE d.state = 'dead') AS dead,
                           min(d.ready_at) FILTER (WHERE d.state = 'ready' AND c.mode = 'system') AS oldest_ready
                      FROM deliveries d JOIN clocks c ON c.name = d.clock
                     WHERE d.state <> 'acked') d,
                   (SELECT count(*) FILTER (WHERE pending IS NOT NULL AND NOT paused) AS active,
                           count(*) FILTER (WHERE pending IS NOT NULL AND paused) AS paused,
                           count(*) FILTER (WHERE pending IS NULL) AS done
                      FROM schedules) s""";

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
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(SAMPLE)) {
                select.setLong(1, maxDeliveries);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return new StoreSample(row.getLong(1), byMode(row.getString(2)), row.getLong(3), row.getLong(4),
                            Math.max(0, row.getLong(5)), Math.max(0, row.getLong(6)), row.getLong(7),
                            row.getLong(8), row.getLong(9), row.getLong(10), Math.max(0, row.getLong(11)), measured,
                            row.getLong(12), row.getLong(13), row.getLong(14), row.getLong(15));
                }
            }
        });
    }
}
