package io.timeservice.store.memory;

import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ClockRules;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.TimerRules;

/**
 * The pending-timer budget every clock draws from: {@code timeservice.capacity} timers and
 * {@code timeservice.capacity-bytes} {@link Limits#bytesOf payload bytes} over all clocks together.
 *
 * <p>Thread-safe without a lock: two atomic counters. A clock reserves in the decide step of an add, before it
 * changes anything, and gives the reservation back if the add fails after all; it releases on cancel, fire, reset
 * and clock deletion. A reservation that fails takes back what it took, so near the limit an add may be refused
 * while another one that will itself fail still holds its share: refusals are exact only when the adds that race
 * are not refused.
 */
public final class PendingBudget {

    private final int capacity;
    private final long capacityBytes;
    private final AtomicLong timers = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong deliveries = new AtomicLong();
    private final AtomicLong schedules = new AtomicLong();
    private volatile long maxSchedules = Long.MAX_VALUE;
    private volatile long maxDeliveries = Long.MAX_VALUE;
    private final RecentAcks recentAcks = new RecentAcks(RecentAcks.MAX);
    private final AtomicLong reservations = new AtomicLong();
    private volatile long maxReservations = Long.MAX_VALUE;

    /**
     * @param capacity      the most pending timers over all clocks
     * @param capacityBytes the most payload bytes all pending timers may hold together
     */
    public PendingBudget(int capacity, long capacityBytes) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("capacityBytes must be >= 1: " + capacityBytes);
        }
        this.capacity = capacity;
        this.capacityBytes = capacityBytes;
    }

    public int capacity() {
        return capacity;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /**
     * Bounds the deliveries over all clocks (ready, in flight, waiting and dead): beyond it clocks keep their due
     * timers pending instead of firing them. Deliveries count in the timer and byte budget too, as the timers they
     * were; firing moves a timer from one to the other.
     */
    public void limitDeliveries(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("the delivery limit must be >= 1: " + max);
        }
        maxDeliveries = max;
    }

    public long maxDeliveries() {
        return maxDeliveries;
    }

    /** Deliveries over all clocks. */
    public long deliveries() {
        return deliveries.get();
    }

    /** Takes room for up to {@code wanted} deliveries; returns how many it took (0 when the limit is reached). */
    int reserveDeliveries(int wanted) {
        while (true) {
            long now = deliveries.get();
            long granted = Math.max(0, Math.min(wanted, maxDeliveries - now));
            if (granted == 0 || deliveries.compareAndSet(now, now + granted)) {
                return (int) granted;
            }
        }
    }

    /** Gives back room for {@code count} deliveries (acknowledged, deleted, or reserved and not used). */
    void releaseDeliveries(long count) {
        if (count != 0) {
            deliveries.addAndGet(-count);
        }
    }

    /** Counts deliveries recovery rebuilt, whatever the limit. */
    void restoreDeliveries(long count) {
        deliveries.addAndGet(count);
    }

    /** Bounds the schedules over all clocks: a new one beyond it is refused with {@code schedule_limit}. */
    public void limitSchedules(long max) {
        maxSchedules = max;
    }

    /** Schedules over all clocks. */
    public long schedules() {
        return schedules.get();
    }

    /**
     * Takes room for one more schedule, or refuses it having taken nothing.
     *
     * @throws ProblemException {@code schedule_limit}
     */
    void reserveSchedule() {
        while (true) {
            long now = schedules.get();
            ScheduleRules.requireScheduleRoom(now, maxSchedules);
            if (schedules.compareAndSet(now, now + 1)) {
                return;
            }
        }
    }

    /** Gives back {@code count} schedules (deleted, or reserved and not used); counts recovered ones when negative. */
    void releaseSchedules(long count) {
        schedules.addAndGet(-count);
    }

    /**
     * Bounds the ids reserved by dedupe windows over all clocks ({@code timeservice.dedupe.max-reservations}): at it,
     * an add on a clock with a window is refused {@code reservation_limit}. Timers that leave while it is reached
     * are still reserved (a firing is never refused), so the count may pass it by the timers pending then.
     */
    public void limitReservations(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("the reservation limit must be >= 1: " + max);
        }
        maxReservations = max;
    }

    /** Reserved ids over all clocks, expired ones that no call has dropped yet included. */
    public long reservations() {
        return reservations.get();
    }

    /** @throws ProblemException {@code reservation_limit} when the reservations reached their limit */
    void requireReservationRoom() {
        TimerRules.requireReservationRoom(reservations.get(), maxReservations);
    }

    /** Counts one reserved id of {@code idBytes} bytes, which count in the byte budget too; never refused. */
    void holdReservation(long idBytes) {
        reservations.incrementAndGet();
        bytes.addAndGet(idBytes);
    }

    /** Gives back {@code count} reserved ids holding {@code idBytes} together. */
    void releaseReservations(long count, long idBytes) {
        if (count != 0 || idBytes != 0) {
            reservations.addAndGet(-count);
            bytes.addAndGet(-idBytes);
        }
    }

    /** The acknowledgements every clock remembers, bounded over all clocks as the deliveries are. */
    RecentAcks recentAcks() {
        return recentAcks;
    }

    /** Pending timers over all clocks. */
    public long timers() {
        return timers.get();
    }

    /** Payload bytes of the pending timers over all clocks. */
    public long bytes() {
        return bytes.get();
    }

    /**
     * Takes one timer of {@code timerBytes} from the budget.
     *
     * @throws ProblemException {@code capacity_exceeded}, having taken nothing
     */
    void reserve(long timerBytes) {
        reserve(timerBytes, false);
    }

    /** {@link #reserve(long)}, the bytes refused as a {@code batch}'s (its running total's) when it is one. */
    private void reserve(long timerBytes, boolean batch) {
        if (timers.incrementAndGet() > capacity) {
            timers.decrementAndGet();
            throw TimerRules.noTimerRoom(capacity);
        }
        long after = bytes.addAndGet(timerBytes);
        if (after > capacityBytes) {
            bytes.addAndGet(-timerBytes);
            timers.decrementAndGet();
            throw batch ? TimerRules.noBatchPayloadRoom(after - timerBytes, capacityBytes, timerBytes)
                    : TimerRules.noPayloadRoom(after - timerBytes, capacityBytes, timerBytes);
        }
    }

    /**
     * Takes {@code count} timers (0 or 1) and {@code timerBytes} more from the budget: a batch takes what its running
     * total needs beyond what it took already.
     *
     * @throws ProblemException {@code capacity_exceeded}, having taken nothing
     */
    void reserve(int count, long timerBytes) {
        if (count == 1) {
            reserve(timerBytes, true);
            return;
        }
        long after = bytes.addAndGet(timerBytes);
        if (after > capacityBytes) {
            bytes.addAndGet(-timerBytes);
            throw TimerRules.noBatchPayloadRoom(after - timerBytes, capacityBytes, timerBytes);
        }
    }

    /**
     * Takes room for the copy of a clock: {@code count} timers and deliveries holding {@code copyBytes}, of which
     * {@code copyDeliveries} are deliveries; a copy counts in full.
     *
     * @throws ProblemException {@code capacity_exceeded}, having taken nothing
     */
    void reserveCopy(long count, long copyBytes, long copyDeliveries) {
        ProblemException refusal = null;
        if (timers.addAndGet(count) > capacity) {
            refusal = ClockRules.noRoomForCopy(capacity, count, capacityBytes, copyBytes, true);
        } else if (bytes.addAndGet(copyBytes) > capacityBytes) {
            refusal = ClockRules.noRoomForCopy(capacity, count, capacityBytes, copyBytes, false);
            bytes.addAndGet(-copyBytes);
        } else if (deliveries.addAndGet(copyDeliveries) > maxDeliveries) {
            deliveries.addAndGet(-copyDeliveries);
            bytes.addAndGet(-copyBytes);
            timers.addAndGet(-count);
            throw ClockRules.noDeliveryRoomForCopy(maxDeliveries, copyDeliveries);
        }
        if (refusal != null) {
            timers.addAndGet(-count);
            throw refusal;
        }
    }

    /** Gives back what {@link #reserveCopy} took. */
    void releaseCopy(long count, long copyBytes, long copyDeliveries) {
        release(count, copyBytes);
        releaseDeliveries(copyDeliveries);
    }

    /** Gives back {@code count} timers holding {@code timerBytes} together. */
    void release(long count, long timerBytes) {
        if (count != 0 || timerBytes != 0) {
            timers.addAndGet(-count);
            bytes.addAndGet(-timerBytes);
        }
    }

    /** Counts timers recovery rebuilt, whatever the limits (a lower capacity after a restart refuses new adds). */
    void restore(long count, long timerBytes) {
        timers.addAndGet(count);
        bytes.addAndGet(timerBytes);
    }
}
