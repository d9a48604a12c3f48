package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.heap.ReservedIds;

/**
 * One clock's reserved ids: for its dedupe window ({@link ClockSettings#dedupeWindowMillis()}) after a timer left the
 * pending set, its id stays reserved and an add of it is refused. A timer fired on a clock that answers advances is
 * reserved from its fireTime; fired on a queueing clock it stays reserved ({@code fired}, pinned) while its delivery
 * is in the queue, then from the time it was acknowledged or its dead letter deleted; a cancelled one from the time
 * it was cancelled. With no window (0) nothing is reserved.
 *
 * <p>Layout: the reservations are stored in the clock's heap ({@link ReservedIds}), indexed in its id index beside
 * the pending ids, so an add finds in one probe sequence whether its id is pending, reserved or free
 * ({@code IndexedTimerHeap.lookup}, expected O(1)); and a start queue of reservation numbers in the order their
 * windows began, which is expiry order, since every window has the clock's one length: expiry pops from the head
 * (amortized O(1) per reservation). A reservation whose window starts again (acknowledged after firing) is queued
 * again; its older place is skipped (its places are counted). A lookup checks the reservation's own expiry, so one
 * the queue has not reached yet is never reported as reserved after its window; the queue only bounds the memory.
 * Per reservation: 28 bytes of arrays, a 4-byte queue place and 10.7 to 16 bytes of index buckets, up to twice the
 * arrays' share after a doubling: 43 to 79 bytes beyond the id (measured: docs/BENCHMARKS.md).
 *
 * <p>Deterministic: every change follows from the calls and the times they carry, and the time a leaving counts from
 * is the clock's own ({@link #countTimeFrom}), so recovery's replay of a journal rebuilds the same reservations as
 * the live clock made; only a release ({@link #release}) has a journal record of its own. Not thread-safe: the clock
 * calls it only while holding its lock.
 */
final class Reservations {

    private static final Reservation.State[] STATES = Reservation.State.values();
    private static final int FIRED = Reservation.State.FIRED.ordinal();

    private final ReservedIds ids;
    private final PendingBudget budget;
    private LongSupplier now;
    private long window;
    private boolean queues;
    private long bytes;

    /**
     * @param ids    where the reservations are stored: the clock's heap's, in its id index
     * @param budget counts every clock's reservations (their cap) and their bytes (in the byte budget)
     */
    Reservations(ReservedIds ids, PendingBudget budget, LongSupplier now) {
        this.ids = ids;
        this.budget = budget;
        this.now = now;
    }

    /** The clock time a leaving is counted at from now on: the live clock's, or recovery's while it replays. */
    void countTimeFrom(LongSupplier clockNow) {
        now = clockNow;
    }

    /** Follows the clock's settings: its window, and whether fired timers become deliveries. */
    void follow(ClockSettings settings) {
        window = settings.dedupeWindowMillis();
        queues = settings.queues();
    }

    int size() {
        return ids.size();
    }

    /** Whether the clock has a dedupe window, so a timer leaving the pending set reserves its id. */
    boolean reserves() {
        return window > 0;
    }

    // ---- leaving the pending set ----

    /** {@code timer} fired: reserved from its fireTime, or while its delivery is queued on a queueing clock. */
    void fired(Timer timer) {
        leave(timer.id(), Reservation.State.FIRED, timer.fireTime(), timer.sequence());
    }

    /** The pending timer {@code id} of {@code sequence} was cancelled now. */
    void cancelled(String id, long sequence) {
        leave(id, Reservation.State.CANCELLED, NOW, sequence);
    }

    /** The delivery {@code id} of {@code sequence} was acknowledged now. */
    void acknowledged(String id, long sequence) {
        leave(id, Reservation.State.ACKNOWLEDGED, NOW, sequence);
    }

    /** The dead delivery {@code id} of {@code sequence} was deleted now. */
    void deadDeleted(String id, long sequence) {
        leave(id, Reservation.State.DEAD, NOW, sequence);
    }

    /** {@code time} is the clock's time now: read only when the clock has a window (reading may move it). */
    private static final long NOW = Long.MIN_VALUE;

    private void leave(String id, Reservation.State state, long timeOrNow, long sequence) {
        if (window == 0) {
            return;
        }
        long at = now.getAsLong();
        long time = timeOrNow == NOW ? at : timeOrNow;
        expire(at);
        hold(id, state, time, sequence);
    }

    /** Reserves {@code id} (again) with these fields; queued by its window's start unless pinned. */
    private void hold(String id, Reservation.State state, long time, long sequence) {
        int number = ids.find(id);
        if (number == ReservedIds.NONE) {
            number = ids.add(id, state.ordinal(), time, sequence);
            long idBytes = Capacity.bytesOf(id, null);
            bytes += idBytes;
            budget.holdReservation(idBytes);
        } else {
            ids.set(number, state.ordinal(), time, sequence);
        }
        if (!pinned(number)) {
            ids.enqueue(number);
        }
    }

    // ---- reads and the release ----

    /** The reservation of {@code id} at the clock's time {@code at}, or null when it holds none (or it expired). */
    Reservation find(String id, long at) {
        return at(ids.find(id), at);
    }

    /**
     * The reservation an answer of {@code IndexedTimerHeap.lookup} names at the clock's time {@code at}, or null
     * when it names none (no reservation, or a pending timer) or it expired: {@link #find} without a second lookup.
     */
    Reservation found(int lookedUp, long at) {
        return ReservedIds.isReservation(lookedUp) ? at(ReservedIds.numberOf(lookedUp), at) : null;
    }

    private Reservation at(int number, long at) {
        return number == ReservedIds.NONE || expired(number, at) ? null : view(number);
    }

    /** Releases {@code id}'s reservation; whether there was one at {@code at}. */
    boolean release(String id, long at) {
        int number = ids.find(id);
        if (number == ReservedIds.NONE || expired(number, at)) {
            return false;
        }
        forget(number);
        return true;
    }

    /** Drops every reservation whose window ended by {@code at}; amortized O(1) per reservation. */
    void expire(long at) {
        int first;
        while ((first = ids.first()) != ReservedIds.NONE) {
            boolean current = ids.places(first) == 1 && ids.isLive(first) && !pinned(first);
            if (current && !expired(first, at)) {
                return;
            }
            ids.dequeue();
            if (current) {
                forget(first);
            }
        }
    }

    /** Forgets every reservation (reset, clock deletion), giving back their share of the budget. */
    void clear() {
        budget.releaseReservations(ids.size(), bytes);
        ids.clear();
        bytes = 0;
    }

    /**
     * Every reservation held now, for a snapshot or fork: their fields copied in O(reservations) array writes, under
     * the clock's lock; the copy sorts them (by the time their windows began, then sequence) when first read, which
     * is after the lock is released ({@link ReservationCopy}).
     */
    ReservationCopy image() {
        if (ids.size() == 0) {
            return ReservationCopy.NONE;
        }
        long at = now.getAsLong();
        ReservationCopy copy = new ReservationCopy(ids.size());
        ids.forEach(number -> {
            if (!expired(number, at)) {
                copy.add(ids.id(number), ids.state(number), ids.time(number), ids.sequence(number));
            }
        });
        return copy;
    }

    /** Puts back one reservation a snapshot or a copied clock held; call in the order {@link ReservationCopy#list} gives them. */
    void restore(Reservation reservation) {
        hold(reservation.id(), reservation.state(), reservation.time(), reservation.sequence());
    }

    private void forget(int number) {
        long idBytes = Capacity.bytesOf(ids.id(number), null);
        ids.forget(number);
        bytes -= idBytes;
        budget.releaseReservations(1, idBytes);
    }

    /** A fired timer of a queueing clock: reserved while its delivery is in the queue, whatever the window. */
    private boolean pinned(int number) {
        return queues && ids.state(number) == FIRED;
    }

    private boolean expired(int number, long at) {
        long time = ids.time(number);
        return !pinned(number) && at >= time && at - time >= window;
    }

    private Reservation view(int number) {
        return new Reservation(ids.id(number), STATES[ids.state(number)], ids.time(number), ids.sequence(number));
    }
}
