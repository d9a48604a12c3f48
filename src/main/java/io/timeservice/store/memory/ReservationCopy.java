package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import io.timeservice.model.Reservation;

/**
 * The reservations a clock held when its state was copied for a snapshot or a fork ({@link ClockImage}): their
 * fields copied under the clock's lock in plain array writes, O(reservations) and no object per reservation; made
 * into {@link Reservation}s sorted by the time their windows began, then sequence, then id (the order
 * {@link Reservations#restore} takes them in) only when first read, which is after the lock is released. A clock
 * that keeps a million ids reserved therefore holds its lock for the copy, not for a million objects and their
 * sort. Thread-safe: the sorted list is made once, under this copy's own monitor.
 */
final class ReservationCopy {

    /** No reservation. */
    static final ReservationCopy NONE = of(List.of());

    private static final Reservation.State[] STATES = Reservation.State.values();

    private final String[] ids;
    private final byte[] states;
    private final long[] times;
    private final long[] sequences;
    private int size;
    private List<Reservation> sorted;

    /** An empty copy with room for {@code capacity} reservations, filled by {@link #add}. */
    ReservationCopy(int capacity) {
        ids = new String[capacity];
        states = new byte[capacity];
        times = new long[capacity];
        sequences = new long[capacity];
    }

    /** A copy of reservations already made (recovery's, a loaded snapshot's), in any order. */
    static ReservationCopy of(List<Reservation> held) {
        ReservationCopy copy = new ReservationCopy(held.size());
        for (Reservation each : held) {
            copy.add(each.id(), each.state().ordinal(), each.time(), each.sequence());
        }
        return copy;
    }

    /** Adds one reservation's fields; only while the copy is made, before it is read. */
    void add(String id, int state, long time, long sequence) {
        ids[size] = id;
        states[size] = (byte) state;
        times[size] = time;
        sequences[size] = sequence;
        size++;
    }

    /** Reservations copied. */
    int size() {
        return size;
    }

    /** Every reservation copied, sorted by the time its window began, then sequence, then id. */
    synchronized List<Reservation> list() {
        if (sorted == null) {
            List<Reservation> all = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                all.add(new Reservation(ids[i], STATES[states[i]], times[i], sequences[i]));
            }
            all.sort(Comparator.comparingLong(Reservation::time).thenComparingLong(Reservation::sequence)
                    .thenComparing(Reservation::id));
            sorted = List.copyOf(all);
            Arrays.fill(ids, null); // the list holds them now
        }
        return sorted;
    }
}
