package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.model.ScaledTime;
import io.timeservice.store.memory.time.TimeSource;

/**
 * The snapshot half of what recovery reads from the journal's snapshot file: the clock, the last sequence issued,
 * the highest sequence reserved on disk and every pending timer.
 *
 * @param firedThrough the time up to which every due timer had fired (see {@link TimeSource#firedThrough}), at
 *                     most {@code now}
 * @param scaledTime   a scaled clock's time function; null for a clock of another mode
 * @param schedules    the clock's schedules (format version 8)
 * @param reservations the ids the clock keeps reserved for its dedupe window, by the time their windows began
 *                     (format version 14)
 */
public record RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers,
                                ClockSettings settings, List<SavedDelivery> deliveries,
                                List<RecentAck> recentAcks, long firedThrough, ScaledTime scaledTime,
                                ScheduleImage schedules, List<Reservation> reservations) {

    /** A snapshot without reserved ids (format versions before 14, or a clock that holds none). */
    public RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers,
                             ClockSettings settings, List<SavedDelivery> deliveries, List<RecentAck> recentAcks,
                             long firedThrough, ScaledTime scaledTime, ScheduleImage schedules) {
        this(now, lastSequence, reservedSequences, timers, settings, deliveries, recentAcks, firedThrough, scaledTime,
                schedules, List.of());
    }

    /** A snapshot without schedules (format versions before 8, or a clock that has none). */
    public RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers,
                             ClockSettings settings, List<SavedDelivery> deliveries, List<RecentAck> recentAcks,
                             long firedThrough, ScaledTime scaledTime) {
        this(now, lastSequence, reservedSequences, timers, settings, deliveries, recentAcks, firedThrough, scaledTime,
                ScheduleImage.EMPTY);
    }

    /** A snapshot of a clock that is not scaled (every clock before format version 11), without schedules. */
    public RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers,
                             ClockSettings settings, List<SavedDelivery> deliveries, List<RecentAck> recentAcks,
                             long firedThrough) {
        this(now, lastSequence, reservedSequences, timers, settings, deliveries, recentAcks, firedThrough, null);
    }

    /** A snapshot whose clock had fired everything due by its time (format versions before 6). */
    public RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers,
                             ClockSettings settings, List<SavedDelivery> deliveries, List<RecentAck> recentAcks) {
        this(now, lastSequence, reservedSequences, timers, settings, deliveries, recentAcks, now);
    }

    /** A snapshot with deliveries but without recent acknowledgements (format version 4). */
    public RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers,
                             ClockSettings settings, List<SavedDelivery> deliveries) {
        this(now, lastSequence, reservedSequences, timers, settings, deliveries, List.of());
    }

    /** A snapshot of a virtual clock without deliveries (format versions before them). */
    public RecoveredSnapshot(long now, long lastSequence, long reservedSequences, List<Mutation.Added> timers) {
        this(now, lastSequence, reservedSequences, timers, ClockSettings.VIRTUAL, List.of());
    }

    /** A snapshot without a reservation beyond its last sequence (format version 1). */
    public RecoveredSnapshot(long now, long lastSequence, List<Mutation.Added> timers) {
        this(now, lastSequence, lastSequence, timers);
    }
}
