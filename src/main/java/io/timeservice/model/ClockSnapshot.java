package io.timeservice.model;

import java.util.List;

/**
 * A clock saved whole, as {@code GET /clocks/{clock}/snapshot} answers it and {@code PUT /clocks/{new}/snapshot}
 * loads it: what a fork copies. Sequences are the clock's own numbering, not a store's: a saved clock numbers its
 * timers and deliveries together 1, 2, 3, ... in the order of their sequences (so firing and claim order are kept)
 * and {@code nextSequence} is one past the last, so saving a loaded clock gives the same snapshot on either store
 * (a store's own sequences differ: the PostgreSQL store's are unique over all clocks, the memory store's start after
 * its deleted clocks'). A loaded document may number with gaps; any order-preserving numbering loads alike.
 *
 * <p>The lists may be views that build each element when read (the memory store's, over a copy of its arrays); each
 * is read once, in order, by whoever writes the document.
 *
 * @param name         the clock's name (ignored by a load, which takes the name of its path)
 * @param now          the clock's time; a system clock's is the wall clock's, so a load ignores it
 * @param nextSequence greater than every sequence in the snapshot: the clock's next timer comes after all of them
 * @param timers       pending timers, by sequence; {@code createdAt} in the clock's time
 * @param deliveries   ready, waiting and dead deliveries, by sequence: an in-flight one is saved ready from
 *                     {@code now} with its attempt kept and no claim (its lease is the source's worker's)
 */
public record ClockSnapshot(String name, ClockSettings settings, long now, long nextSequence, List<Timer> timers,
                            List<Delivery> deliveries) {

    /** The document format this service writes and reads. */
    public static final int FORMAT = 1;

    /** The delivery as a snapshot keeps it: an in-flight one ready again at {@code now}, its attempt kept. */
    public static Delivery saved(Delivery delivery, long sequence, long now) {
        Delivery d = delivery;
        return d.state() == Delivery.State.IN_FLIGHT
                ? new Delivery(d.id(), d.fireTime(), d.priority(), sequence, d.payload(), d.attempt(),
                        Delivery.State.READY, null, 0, 0, now, null, d.schedule())
                : new Delivery(d.id(), d.fireTime(), d.priority(), sequence, d.payload(), d.attempt(), d.state(),
                        null, 0, d.retryAt(), d.readyAt(), d.deadReason(), d.schedule());
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
