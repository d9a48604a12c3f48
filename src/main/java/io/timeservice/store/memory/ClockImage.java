package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.heap.HeapImage;
import io.timeservice.store.memory.time.TimeSource;

/**
 * A copy of the whole clock state, taken under the lock in one array copy per field and read afterwards
 * without it. Timers are visited in heap-array order; recovery rebuilds the heap with a bottom-up heapify, so the
 * order does not matter.
 */
public final class ClockImage {

    private final long now;
    private final long firedThrough;
    private final long lastSequence;
    private final long reservedSequences;
    private final HeapImage image;
    private final long copyNanos;
    private final ClockSettings settings;
    private final List<SavedDelivery> deliveries;
    private final List<RecentAck> recentAcks;
    private final ScheduleImage schedules;
    /** A scaled clock's time function; null for a clock of another mode. */
    private final ScaledTime scaledTime;
    /** The ids the clock keeps reserved, sorted by the time their windows began when first read. */
    private ReservationCopy reservations = ReservationCopy.NONE;

    ClockImage(long now, long lastSequence, HeapImage image, long copyNanos) {
        this(now, lastSequence, lastSequence, image, copyNanos);
    }

    ClockImage(long now, long lastSequence, long reservedSequences, HeapImage image,
                   long copyNanos) {
        this(now, lastSequence, reservedSequences, image, copyNanos, ClockSettings.VIRTUAL, List.of(), List.of());
    }

    ClockImage(long now, long lastSequence, long reservedSequences, HeapImage image,
                   long copyNanos, ClockSettings settings, List<SavedDelivery> deliveries,
                   List<RecentAck> recentAcks) {
        this(now, now, lastSequence, reservedSequences, image, copyNanos, settings, deliveries, recentAcks);
    }

    ClockImage(long now, long firedThrough, long lastSequence, long reservedSequences, HeapImage image,
                   long copyNanos, ClockSettings settings, List<SavedDelivery> deliveries,
                   List<RecentAck> recentAcks) {
        this(now, firedThrough, lastSequence, reservedSequences, image, copyNanos, settings, deliveries, recentAcks,
                null);
    }

    ClockImage(long now, long firedThrough, long lastSequence, long reservedSequences, HeapImage image,
                   long copyNanos, ClockSettings settings, List<SavedDelivery> deliveries,
                   List<RecentAck> recentAcks, ScaledTime scaledTime) {
        this(now, firedThrough, lastSequence, reservedSequences, image, copyNanos, settings, deliveries, recentAcks,
                scaledTime, ScheduleImage.EMPTY);
    }

    private ClockImage(long now, long firedThrough, long lastSequence, long reservedSequences, HeapImage image,
                           long copyNanos, ClockSettings settings, List<SavedDelivery> deliveries,
                           List<RecentAck> recentAcks, ScaledTime scaledTime, ScheduleImage schedules) {
        this.schedules = schedules;
        this.now = now;
        this.firedThrough = firedThrough;
        this.lastSequence = lastSequence;
        this.reservedSequences = reservedSequences;
        this.image = image;
        this.copyNanos = copyNanos;
        this.settings = settings;
        this.deliveries = deliveries;
        this.recentAcks = recentAcks;
        this.scaledTime = scaledTime;
    }

    /** This state, with {@code nanos} as the time its copy held the lock(s). */
    ClockImage withCopyNanos(long nanos) {
        ClockImage with = new ClockImage(now, firedThrough, lastSequence, reservedSequences, image, nanos, settings,
                deliveries, recentAcks, scaledTime, schedules);
        with.reservations = reservations;
        return with;
    }

    /** This state with the clock's schedules. */
    ClockImage withSchedules(ScheduleImage image) {
        ClockImage with = new ClockImage(now, firedThrough, lastSequence, reservedSequences, this.image, copyNanos,
                settings, deliveries, recentAcks, scaledTime, image);
        with.reservations = reservations;
        return with;
    }

    /** This state with the ids the clock keeps reserved (its dedupe window). */
    ClockImage withReservations(ReservationCopy held) {
        ClockImage with = withSchedules(schedules);
        with.reservations = held;
        return with;
    }

    /** The ids the clock keeps reserved (its dedupe window), by the time their windows began. */
    public List<Reservation> reservations() {
        return reservations.list();
    }

    /** The clock's schedules; their occurrences are among {@link #timer}s. */
    public ScheduleImage schedules() {
        return schedules;
    }

    /** A scaled clock's time function (anchor and rate); null for a clock of another mode. */
    public ScaledTime scaledTime() {
        return scaledTime;
    }

    public ClockSettings settings() {
        return settings;
    }

    /** Every delivery of the clock, in any state. */
    public List<SavedDelivery> deliveries() {
        return deliveries;
    }

    /** The clock's recent acknowledgements, oldest first (a repeated ack of one still succeeds). */
    public List<RecentAck> recentAcks() {
        return recentAcks;
    }

    /** How long taking this copy held the clock's lock: the pause a snapshot costs every operation. */
    public long copyNanos() {
        return copyNanos;
    }

    public long now() {
        return now;
    }

    /** The time up to which every due timer had fired (see {@link TimeSource#firedThrough}); at most now. */
    public long firedThrough() {
        return firedThrough;
    }

    /** The last sequence ever issued, so sequences continue after it and are never reused. */
    public long lastSequence() {
        return lastSequence;
    }

    /** The highest sequence reserved on disk (see {@link Mutation.SequencesReserved}); >= {@link #lastSequence}. */
    public long reservedSequences() {
        return reservedSequences;
    }

    public int size() {
        return image.size();
    }

    /** The timer at {@code index}, 0 <= index < size. */
    public Timer timer(int index) {
        return image.timer(index);
    }

    /** The sequence of the timer at {@code index}, without building it. */
    public long sequenceAt(int index) {
        return image.sequenceAt(index);
    }

    public long createdAtWallMillis(int index) {
        return image.createdAtWallMillis(index);
    }
}
