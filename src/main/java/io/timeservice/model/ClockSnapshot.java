package io.timeservice.model;

import java.util.List;
import java.util.Map;

/**
 * A clock saved whole, as {@code GET /clocks/{clock}/snapshot} answers it and {@code PUT /clocks/{new}/snapshot}
 * loads it: what a fork copies. Sequences are the clock's own numbering, not a store's: a saved clock numbers its
 * timers and deliveries together 1, 2, 3, ... in the order of their sequences (so firing and claim order are kept)
 * and {@code nextSequence} is one past the last, so saving a loaded clock gives the same snapshot on either store
 * (a store's own sequences differ: the PostgreSQL store's are unique over all clocks, the memory store's start after
 * its deleted clocks'). A loaded document may number with gaps; any order-preserving numbering loads alike.
 *
 * <p>The lists may be views that build each element when read (the memory store's, over a copy of its arrays); each
 * is read in order by whoever writes the document: a save reads it twice, to measure the document (a load reads at
 * most {@code max-snapshot-bytes}) and to write it.
 *
 * @param name         the clock's name (ignored by a load, which takes the name of its path)
 * @param now          the clock's time; a system clock's is the wall clock's, so a load ignores it
 * @param nextSequence greater than every sequence in the snapshot: the clock's next timer comes after all of them
 * @param timers       pending timers, by sequence; {@code createdAt} in the clock's time; a schedule's occurrence
 *                     names it ({@link Timer#schedule}): the scheduled one, {@code <id>:<next>}, and any triggered
 *                     one still pending (of a schedule that may be deleted since)
 * @param schedules    every schedule, by id: the spec as the API gives it (an interval's start resolved), its
 *                     counts, {@code taken} and version, and {@link Schedule#next}, the time of its pending
 *                     occurrence, which is among the timers
 * @param deliveries   ready, waiting and dead deliveries, by sequence: an in-flight one is saved ready from
 *                     {@code now} with its attempt kept and no claim (its lease is the source's worker's)
 * @param reservations the ids the clock keeps reserved for its dedupe window, by the time their windows began; each
 *                     sequence as the clock numbered it (not renumbered: the timers are gone, it is only shown)
 */
public record ClockSnapshot(String name, ClockSettings settings, long now, long nextSequence, List<Timer> timers,
                            List<Schedule> schedules, List<Delivery> deliveries, List<Reservation> reservations) {

    /** A snapshot of a clock that keeps no id reserved. */
    public ClockSnapshot(String name, ClockSettings settings, long now, long nextSequence, List<Timer> timers,
                         List<Schedule> schedules, List<Delivery> deliveries) {
        this(name, settings, now, nextSequence, timers, schedules, deliveries, List.of());
    }

    /** A snapshot of a clock without schedules. */
    public ClockSnapshot(String name, ClockSettings settings, long now, long nextSequence, List<Timer> timers,
                         List<Delivery> deliveries) {
        this(name, settings, now, nextSequence, timers, List.of(), deliveries);
    }

    /**
     * Whether {@code timer} is the scheduled pending occurrence of one of {@code schedules} (by id), rather than a
     * client's timer or a triggered occurrence: it names the schedule and has the id of its {@code next}.
     */
    public static boolean isScheduledOccurrence(Timer timer, Map<String, Schedule> schedules) {
        Schedule owner = timer.schedule() == null ? null : schedules.get(timer.schedule());
        return owner != null && owner.next() != null
                && timer.id().equals(Schedule.occurrenceId(owner.id(), owner.next()));
    }

    /** The document format this service writes and reads. */
    public static final int FORMAT = 1;

    /**
     * The delivery as a snapshot (or a fork) keeps it: an in-flight one ready again at {@code now}, its attempt and
     * schedule kept.
     */
    public static Delivery saved(Delivery delivery, long sequence, long now) {
        Delivery d = delivery;
        return d.state() == Delivery.State.IN_FLIGHT
                ? new Delivery(d.id(), d.fireTime(), d.priority(), sequence, d.payload(), d.attempt(),
                        Delivery.State.READY, null, 0, 0, now, null, d.schedule(), d.traceContext(), d.key())
                : new Delivery(d.id(), d.fireTime(), d.priority(), sequence, d.payload(), d.attempt(), d.state(),
                        null, 0, d.retryAt(), d.readyAt(), d.deadReason(), d.schedule(), d.traceContext(), d.key());
    }

    /**
     * The time up to which every due timer of the loaded clock counts as fired, which the no-overdue invariant checks
     * against: a virtual clock's document may hold timers due before its {@code now} (an advance of a queueing clock
     * whose deliveries held their limit moved its time without firing them), which stay pending, overdue, and fire on
     * the next advance, so it is just before the earliest of them (never after {@code now}); a clock that fires by
     * itself has fired through its now. The same on both stores.
     */
    public long firedThrough() {
        if (settings.mode() != ClockSettings.Mode.VIRTUAL) {
            return now;
        }
        long earliest = Long.MAX_VALUE;
        for (Timer timer : timers) {
            earliest = Math.min(earliest, timer.fireTime());
        }
        return earliest == Long.MAX_VALUE ? now : Math.max(0, Math.min(now, earliest - 1));
    }

    /** Timers and deliveries together: what the snapshot weighs against the capacity. */
    public long count() {
        return (long) timers.size() + deliveries.size();
    }

    /** {@link Limits#bytesOf} over every timer and delivery. O(n). */
    public long bytes() {
        long bytes = 0;
        for (Timer timer : timers) {
            bytes += Limits.bytesOf(timer.id(), timer.payload());
        }
        for (Delivery delivery : deliveries) {
            bytes += Limits.bytesOf(delivery.id(), delivery.payload());
        }
        return bytes;
    }
}
