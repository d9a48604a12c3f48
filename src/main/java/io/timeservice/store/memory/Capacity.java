package io.timeservice.store.memory;

import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;

/**
 * How much the queue may hold, in pending timers and in payload bytes, and how many payload bytes this clock's
 * pending timers hold now. The limits are a {@link PendingBudget} that every clock of a registry shares; this
 * clock reserves from it in an add's decide step and gives back on cancel, fire, reset and clock deletion. A
 * timer's bytes are {@link #bytesOf}: O(1), so every add, cancel and fire keeps the totals in counters.
 *
 * <p>Invariant: {@code 0 <= pendingBytes}, the sum of {@link #bytesOf} over this clock's pending timers, all of
 * them counted in the shared budget. Not thread-safe: the clock calls it only while holding its lock.
 */
final class Capacity {

    private final PendingBudget budget;
    private long pendingBytes;

    Capacity(PendingBudget budget) {
        this.budget = budget;
    }

    int timers() {
        return budget.capacity();
    }

    long bytes() {
        return budget.capacityBytes();
    }

    long pendingBytes() {
        return pendingBytes;
    }

    /** See {@link Limits#bytesOf}. */
    static long bytesOf(String id, String payload) {
        return (long) id.length() + (payload == null ? 0 : payload.length());
    }

    static long bytesOf(Timer timer) {
        return bytesOf(timer.id(), timer.payload());
    }

    /**
     * Takes room for one more timer from the shared budget, or refuses it having taken nothing; returns its bytes.
     * Give the room back with {@link #unreserve} if the add fails after this, or count it with {@link #added}.
     *
     * @throws ProblemException {@code capacity_exceeded}
     */
    long reserve(String id, String payload) {
        long needed = bytesOf(id, payload);
        budget.reserve(needed);
        return needed;
    }

    /** @throws io.timeservice.model.ProblemException {@code reservation_limit}; see {@link PendingBudget#limitReservations} */
    void requireReservationRoom() {
        budget.requireReservationRoom();
    }

    /** Takes {@code count} (0 or 1) timers and {@code timerBytes} from the shared budget; see {@link #reserve}. */
    void reserve(int count, long timerBytes) {
        budget.reserve(count, timerBytes);
    }

    /** Gives back {@code count} timers and {@code timerBytes} a batch reserved and did not apply. */
    void unreserve(long count, long timerBytes) {
        budget.release(count, timerBytes);
    }

    /**
     * A batch applied: its pending timers changed by {@code netTimers} and {@code netBytes} after it had reserved
     * {@code reservedTimers} and {@code reservedBytes} (at least its running totals' peaks, so at least the net
     * change): the budget keeps the net change and gets the rest back, which never fails.
     */
    void batchApplied(long reservedTimers, long reservedBytes, long netTimers, long netBytes) {
        pendingBytes += netBytes;
        budget.release(reservedTimers - netTimers, reservedBytes - netBytes);
    }

    void unreserve(long timerBytes) {
        budget.release(1, timerBytes);
    }

    void added(long timerBytes) {
        pendingBytes += timerBytes;
    }

    /**
     * A schedule's next occurrence came with no reservation: its fired predecessor left room, or stayed in the
     * budget as a delivery, so the budget may go past its limit by one timer per schedule; never refused.
     */
    void addedBeyondLimit(long timerBytes) {
        pendingBytes += timerBytes;
        budget.restore(1, timerBytes);
    }

    void removed(Timer timer) {
        removed(1, bytesOf(timer));
    }

    void removed(int count, long timerBytes) {
        pendingBytes -= timerBytes;
        budget.release(count, timerBytes);
    }

    PendingBudget budget() {
        return budget;
    }

    /**
     * Fired timers holding {@code timerBytes} became deliveries: no longer pending, still in the
     * budget (and in the delivery room reserved for them) until they are acknowledged or deleted.
     */
    void firedToDeliveries(long timerBytes) {
        pendingBytes -= timerBytes;
    }

    /** {@code count} deliveries holding {@code timerBytes} left the queue (acknowledged, deleted, cleared). */
    void deliveriesGone(long count, long timerBytes) {
        budget.release(count, timerBytes);
        budget.releaseDeliveries(count);
    }

    /** Every one of this clock's {@code count} pending timers is gone (reset, clock deletion). */
    void removedAll(int count) {
        removed(count, pendingBytes);
    }

    /** Counts the {@code count} timers recovery rebuilt, holding {@code bytes}, whatever the limits. */
    void recovered(int count, long bytes) {
        pendingBytes = bytes;
        budget.restore(count, bytes);
    }

    /** Counts the {@code count} deliveries recovery rebuilt, holding {@code bytes}, whatever the limits. */
    void recoveredDeliveries(int count, long bytes) {
        budget.restore(count, bytes);
        budget.restoreDeliveries(count);
    }
}
