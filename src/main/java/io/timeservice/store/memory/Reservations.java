package io.timeservice.store.memory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;

/**
 * One clock's reserved ids: for its dedupe window ({@link ClockSettings#dedupeWindowMillis()}) after a timer left the
 * pending set, its id stays reserved and an add of it is refused. A timer fired on a clock that answers advances is
 * reserved from its fireTime; fired on a queueing clock it stays reserved ({@code fired}, pinned) while its delivery
 * is in the queue, then from the time it was acknowledged or its dead letter deleted; a cancelled one from the time
 * it was cancelled. With no window (0) nothing is reserved.
 *
 * <p>Layout: a hash map id to entry (expected O(1) lookup), and a FIFO of entries in the order their windows began,
 * which is expiry order, since every window has the clock's one length: expiry pops from the head (amortized O(1) per
 * reservation). An entry whose window starts again (acknowledged after firing, or the id left again after a
 * release) is queued again; its older place is skipped ({@code queued} counts its places). A lookup checks the
 * entry's own expiry, so an entry the FIFO has not reached yet is never reported as reserved after its window; the
 * FIFO only bounds the memory. Per reservation: the map's node (32 bytes) and table slot (~5), the entry (40) and its
 * FIFO place (4): about 81 bytes beyond the id, with compressed references.
 *
 * <p>Deterministic: every change follows from the calls and the times they carry, and the time a leaving counts from
 * is the clock's own ({@link #countTimeFrom}), so recovery's replay of a journal rebuilds the same reservations as
 * the live clock made; only a release ({@link #release}) has a journal record of its own. Not thread-safe: the clock
 * calls it only while holding its lock.
 */
final class Reservations {

    private static final Reservation.State[] STATES = Reservation.State.values();

    /** One reserved id; {@code queued} counts its places in the FIFO (the last one is current). */
    private static final class Entry {
        final String id;
        long time;
        long sequence;
        byte state;
        int queued;

        Entry(String id) {
            this.id = id;
        }
    }

    private final Map<String, Entry> byId = new HashMap<>();
    private final ArrayDeque<Entry> byStart = new ArrayDeque<>();
    private final PendingBudget budget;
    private LongSupplier now;
    private long window;
    private boolean queues;
    private long bytes;

    /** @param budget counts every clock's reservations (their cap) and their bytes (in the byte budget) */
    Reservations(PendingBudget budget, LongSupplier now) {
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
        return byId.size();
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
        Entry entry = byId.get(id);
        if (entry == null) {
            entry = new Entry(id);
            byId.put(id, entry);
            long idBytes = Capacity.bytesOf(id, null);
            bytes += idBytes;
            budget.holdReservation(idBytes);
        }
        entry.state = (byte) state.ordinal();
        entry.time = time;
        entry.sequence = sequence;
        if (!pinned(entry)) {
            entry.queued++;
            byStart.addLast(entry);
        }
    }

    // ---- reads and the release ----

    /** The reservation of {@code id} at the clock's time {@code at}, or null when it holds none (or it expired). */
    Reservation find(String id, long at) {
        Entry entry = byId.get(id);
        return entry == null || expired(entry, at) ? null : view(entry);
    }

    /** Releases {@code id}'s reservation; whether there was one at {@code at}. */
    boolean release(String id, long at) {
        Entry entry = byId.get(id);
        if (entry == null || expired(entry, at)) {
            return false;
        }
        forget(entry);
        return true;
    }

    /** Drops every reservation whose window ended by {@code at}; amortized O(1) per reservation. */
    void expire(long at) {
        Entry head;
        while ((head = byStart.peekFirst()) != null) {
            boolean current = head.queued == 1 && byId.get(head.id) == head && !pinned(head);
            if (current && !expired(head, at)) {
                return;
            }
            byStart.pollFirst();
            head.queued--;
            if (current) {
                forget(head);
            }
        }
    }

    /** Forgets every reservation (reset, clock deletion), giving back their share of the budget. */
    void clear() {
        budget.releaseReservations(byId.size(), bytes);
        byId.clear();
        byStart.clear();
        bytes = 0;
    }

    /** Every reservation held now, by the time its window began, then sequence: for a snapshot or fork. */
    List<Reservation> image() {
        if (byId.isEmpty()) {
            return List.of();
        }
        long at = now.getAsLong();
        List<Reservation> all = new ArrayList<>(byId.size());
        for (Entry entry : byId.values()) {
            if (!expired(entry, at)) {
                all.add(view(entry));
            }
        }
        all.sort(Comparator.comparingLong(Reservation::time).thenComparingLong(Reservation::sequence)
                .thenComparing(Reservation::id));
        return all;
    }

    /** Puts back one reservation a snapshot or a copied clock held; call in the order {@link #image} gave them. */
    void restore(Reservation reservation) {
        hold(reservation.id(), reservation.state(), reservation.time(), reservation.sequence());
    }

    private void forget(Entry entry) {
        byId.remove(entry.id);
        long idBytes = Capacity.bytesOf(entry.id, null);
        bytes -= idBytes;
        budget.releaseReservations(1, idBytes);
    }

    /** A fired timer of a queueing clock: reserved while its delivery is in the queue, whatever the window. */
    private boolean pinned(Entry entry) {
        return queues && entry.state == Reservation.State.FIRED.ordinal();
    }

    private boolean expired(Entry entry, long at) {
        return !pinned(entry) && at >= entry.time && at - entry.time >= window;
    }

    private static Reservation view(Entry entry) {
        return new Reservation(entry.id, STATES[entry.state], entry.time, entry.sequence);
    }
}
