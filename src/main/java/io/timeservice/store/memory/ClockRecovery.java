package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.heap.IndexedTimerHeap;
import io.timeservice.store.memory.time.RunningClock;
import io.timeservice.store.memory.time.ScaledClock;
import io.timeservice.store.memory.time.TimeSource;
import io.timeservice.store.memory.time.VirtualClock;

/**
 * Rebuilds a clock's state from what its log kept: a {@link RecoveredSnapshot} loaded with an O(n) bottom-up
 * heapify, then each journal record applied as it was applied live. Records are checked against the state they
 * meet: one that does not fit (a journal that does not belong to the snapshot) throws
 * {@link IllegalStateException}. Records nothing, traces nothing, reports no metrics.
 *
 * <p>Not thread-safe: {@link ClockLifecycle#beginRecovery} makes it under the clock's lock, one thread replays into
 * it, and {@link ClockLifecycle#finishRecovery} takes over the results.
 */
final class ClockRecovery {

    private final IndexedTimerHeap heap;
    private final DeliveryQueue deliveries;
    private final Function<ClockSettings, TimeSource> clocks;
    private TimeSource clock;
    private ClockSettings settings;
    private long lastSequence;
    private long reservedSequences;
    private long pendingBytes;
    /** The clock's schedules, replayed into this heap through {@link #occurrences}. */
    private final ClockScheduleCalls schedules;
    private final ReplayedOccurrences occurrences = new ReplayedOccurrences();
    /** The clock's reserved ids, replayed as they were made live: leavings count from this recovery's clock. */
    private final Reservations reservations;

    /**
     * @param clocks makes a fresh clock for settings whose mode differs from the current clock's (a snapshot of a
     *               system clock, a reconfigured default clock)
     */
    ClockRecovery(IndexedTimerHeap heap, TimeSource clock, DeliveryQueue deliveries, ClockSettings settings,
                      Function<ClockSettings, TimeSource> clocks, ClockScheduleCalls schedules,
                      Reservations reservations) {
        this.heap = heap;
        this.reservations = reservations;
        reservations.follow(settings);
        // a running clock's replay must not read its function at today's wall time: its latest recorded time
        reservations.countTimeFrom(() -> this.clock instanceof RunningClock running ? running.latest()
                : this.clock.now());
        this.schedules = schedules;
        schedules.schedules().useOccurrences(occurrences);
        this.clock = clock;
        this.deliveries = deliveries;
        this.settings = settings;
        this.clocks = clocks;
    }

    /** A new clock's sequences start after {@code firstSequence}; call before {@link #load}. */
    void startAfter(long firstSequence) {
        lastSequence = firstSequence;
        reservedSequences = firstSequence;
    }

    /** Loads {@code snapshot} into the empty heap; nothing when it is null. */
    void load(RecoveredSnapshot snapshot) {
        if (snapshot == null) {
            return;
        }
        useSettings(snapshot.settings());
        if (snapshot.scaledTime() != null) {
            scaled("a snapshot's scaled time").follow(snapshot.scaledTime());
        }
        for (SavedDelivery saved : snapshot.deliveries()) {
            deliveries.restore(saved);
        }
        for (RecentAck ack : snapshot.recentAcks()) {
            deliveries.restore(ack);
        }
        clock.advanceTo(snapshot.firedThrough());
        clock.passTo(snapshot.now()); // its time may have run ahead of firing: due timers held back wait
        lastSequence = snapshot.lastSequence();
        reservedSequences = snapshot.reservedSequences();
        List<Timer> timers = new ArrayList<>(snapshot.timers().size());
        Map<Timer, Long> wallTimes = new IdentityHashMap<>();
        for (Mutation.Added added : snapshot.timers()) {
            timers.add(added.timer());
            wallTimes.put(added.timer(), added.createdAtWallMillis());
            pendingBytes += bytesOf(added.timer());
        }
        heap.bulkLoad(timers, wallTimes::get);
        schedules.schedules().restore(snapshot.schedules());
        for (Reservation reservation : snapshot.reservations()) {
            reservations.restore(reservation);
        }
    }

    /** Applies one logged mutation. */
    void replay(Mutation mutation) {
        if (mutation instanceof Mutation.Added added) {
            Timer timer = added.timer();
            if (heap.find(timer.id()) != IndexedTimerHeap.NONE || timer.sequence() <= lastSequence) {
                throw new IllegalStateException("journal adds " + timer.id() + " (sequence " + timer.sequence()
                        + ") which is pending or not newer than sequence " + lastSequence);
            }
            heap.insert(timer.id(), timer.fireTime(), timer.priority(), timer.sequence(),
                    Math.toIntExact(timer.version()), timer.createdAt(), added.createdAtWallMillis(), timer.payload(),
                    timer.traceContext(), timer.key());
            lastSequence = timer.sequence();
            pendingBytes += bytesOf(timer);
        } else if (mutation instanceof Mutation.Cancelled cancelled) {
            int handle = target(cancelled.id(), cancelled.sequence());
            pendingBytes -= bytesOf(heap.timerAt(handle));
            heap.remove(handle);
            reservations.cancelled(cancelled.id(), cancelled.sequence());
        } else if (mutation instanceof Mutation.Edited edited) {
            int handle = target(edited.id(), edited.sequence());
            heap.update(handle, edited.fireTime(), edited.priority());
            if (heap.timerAt(handle).version() != edited.version()) {
                throw new IllegalStateException("journal edits " + edited.id() + " to version " + edited.version()
                        + " but replay reached version " + heap.timerAt(handle).version());
            }
        } else if (mutation instanceof Mutation.Advanced advanced) {
            clock.advanceTo(advanced.now());
            for (int root = heap.peek(); root != IndexedTimerHeap.NONE && heap.fireTime(root) <= advanced.now();
                 root = heap.peek()) {
                fireRoot(root);
            }
        } else if (mutation instanceof Mutation.AdvancedFiring firing) {
            clock.advanceTo(firing.now());
            for (int i = 0; i < firing.count(); i++) {
                int root = heap.peek();
                if (root == IndexedTimerHeap.NONE || heap.fireTime(root) > firing.now()) {
                    throw new IllegalStateException("journal fires " + firing.count() + " timers by " + firing.now()
                            + " but replay found only " + i);
                }
                fireRoot(root);
            }
        } else if (mutation instanceof Mutation.Passed passed) {
            clock.passTo(passed.now());
        } else if (mutation instanceof Mutation.Replaced replaced) {
            int handle = target(replaced.id(), replaced.sequence());
            Timer old = heap.timerAt(handle);
            pendingBytes += Limits.bytesOf(replaced.id(), replaced.payload()) - bytesOf(old);
            heap.update(handle, replaced.fireTime(), replaced.priority());
            heap.records().replacePayload(handle, replaced.payload());
            if (heap.timerAt(handle).version() != replaced.version()) {
                throw new IllegalStateException("journal replaces " + replaced.id() + " at version "
                        + replaced.version() + " but replay reached version " + heap.timerAt(handle).version());
            }
        } else if (mutation instanceof Mutation.ReservationReleased released) {
            if (!reservations.release(released.id(), clock.now())) {
                throw new IllegalStateException("journal releases " + released.id() + ", which replay holds no"
                        + " reservation of");
            }
        } else if (mutation instanceof Mutation.Reset) {
            heap.clear();
            deliveries.clear();
            schedules.schedules().clear();
            reservations.clear();
            clock = clock.isVirtual() ? new VirtualClock(0) : clock;
            pendingBytes = 0;
        } else if (mutation instanceof Mutation.Batch batch) {
            for (Mutation part : batch.parts()) {
                replay(part);
            }
        } else if (mutation instanceof Mutation.SequencesReserved reserved) {
            reservedSequences = Math.max(reservedSequences, reserved.upTo());
        } else if (mutation instanceof Mutation.ScheduleChange change) {
            replaySchedule(change);
        } else if (!replayDelivery(mutation)) {
            throw new IllegalStateException("journal holds " + mutation + ", a record of several clocks: recover"
                    + " it through ClockRegistry");
        }
        heap.takeLevelsMoved();
    }

    /** Replays a delivery record or a settings change; false for any other record. */
    private boolean replayDelivery(Mutation mutation) {
        if (mutation instanceof Mutation.DeliveriesSettled settled) {
            deliveries.settle(settled.now());
        } else if (mutation instanceof Mutation.Claimed claimed) {
            if (!settings.queues() || deliveries.readyCount() < claimed.claims().size()) {
                throw new IllegalStateException("journal claims " + claimed.claims().size() + " deliveries but replay"
                        + " has " + deliveries.readyCount() + " ready");
            }
            deliveries.claim(claimed.now(), claimed.leaseMillis(), claimed.claims());
        } else if (mutation instanceof Mutation.FlowClaimed claimed) {
            deliveries.claimSequences(claimed.now(), claimed.leaseMillis(), claimed.claims(), claimed.sequences());
        } else if (mutation instanceof Mutation.Acked acked) {
            deliveries.ack(leased(acked.claim()));
        } else if (mutation instanceof Mutation.AckedAll acked) {
            for (String claim : acked.claims()) {
                deliveries.ack(leased(claim));
            }
        } else if (mutation instanceof Mutation.Nacked nacked) {
            deliveries.nack(leased(nacked.claim()), nacked.now(), nacked.retryAt());
        } else if (mutation instanceof Mutation.Rejected rejected) {
            deliveries.reject(leased(rejected.claim()), rejected.reason());
        } else if (mutation instanceof Mutation.Extended extended) {
            deliveries.extend(leased(extended.claim()), extended.now(), extended.leaseMillis());
        } else if (mutation instanceof Mutation.Redriven redriven) {
            deliveries.redrive(redriven.sequences(), redriven.now());
        } else if (mutation instanceof Mutation.DeadDeleted deleted) {
            deliveries.deleteDead(deleted.sequences());
        } else if (mutation instanceof Mutation.LeasesRenewed renewed) {
            deliveries.renewLeases(renewed.now());
        } else if (mutation instanceof Mutation.ClockConfigured configured) {
            useSettings(configured.settings());
        } else if (mutation instanceof Mutation.ClockChanged changed) {
            settings = changed.settings();
            deliveries.change(changed.settings(), changed.now());
        } else if (mutation instanceof Mutation.FlowKeyChanged changed) {
            settings = ClockFlowKeys.changed(settings, deliveries, changed);
        } else if (mutation instanceof Mutation.RateChanged changed) {
            scaled("a rate change").follow(changed.time());
            settings = settings.withRate(changed.time().rate());
        } else {
            return false;
        }
        return true;
    }

    /** Repeats a schedule call or a scheduled firing step as it ran live ({@link ClockScheduleCalls}, {@link ClockFiring}). */
    private void replaySchedule(Mutation.ScheduleChange change) {
        ClockSchedules clockSchedules = schedules.schedules();
        if (change instanceof Mutation.SchedulePut put) {
            occurrences.at(put.now(), put.wallMillis(), put.sequence());
            clockSchedules.put(put.id(), put.spec(), null, put.now());
        } else if (change instanceof Mutation.ScheduleDeleted deleted) {
            clockSchedules.delete(deleted.id(), null);
        } else if (change instanceof Mutation.SchedulePaused paused) {
            clockSchedules.pause(paused.id(), null);
        } else if (change instanceof Mutation.ScheduleResumed resumed) {
            occurrences.at(resumed.now(), resumed.wallMillis(), resumed.sequence());
            clockSchedules.resume(resumed.id(), null, resumed.now());
        } else if (change instanceof Mutation.ScheduleTriggered triggered) {
            occurrences.at(triggered.now(), triggered.wallMillis(), triggered.sequence());
            clockSchedules.trigger(triggered.id(), triggered.now());
        } else if (change instanceof Mutation.ScheduledFiring firing) {
            replayScheduledFiring(firing);
        }
    }

    /** {@link ClockFiring}'s scheduled step, root by root: the same timers in the same order, the same successors. */
    private void replayScheduledFiring(Mutation.ScheduledFiring firing) {
        ClockSchedules clockSchedules = schedules.schedules();
        long now = firing.now();
        occurrences.at(now, firing.wallMillis(), firing.firstSequence());
        clockSchedules.beginStep();
        int popped = 0;
        long last = clock.now();
        while (popped < firing.maxPops()) {
            int root = heap.peek();
            if (root == IndexedTimerHeap.NONE || heap.fireTime(root) > now) {
                break;
            }
            last = heap.fireTime(root);
            for (; popped < firing.maxPops() && root != IndexedTimerHeap.NONE && heap.fireTime(root) == last;
                 root = heap.peek()) {
                Timer timer = heap.timerAt(root);
                String owner = clockSchedules.ownerOf(timer.id());
                ClockSchedules.Reached reached = clockSchedules.reached(timer.id(), last, now, clock.isVirtual(),
                        schedules.maxCatchUp());
                pendingBytes -= bytesOf(timer);
                heap.removeRoot();
                if (reached != ClockSchedules.Reached.SKIP) {
                    Timer fired = owner == null ? timer : timer.ofSchedule(owner);
                    reservations.fired(fired);
                    if (settings.queues()) {
                        deliveries.fired(fired);
                    }
                }
                popped++;
            }
            clockSchedules.addSuccessors(last);
        }
        int root = heap.peek();
        boolean complete = root == IndexedTimerHeap.NONE || heap.fireTime(root) > now;
        clock.advanceTo(complete ? now : Math.max(last, clock.now()));
        clockSchedules.endStep(complete ? now : last);
    }

    /** The heap being rebuilt, as the schedules see it: adds take the sequences their record names, in order. */
    private final class ReplayedOccurrences implements ClockSchedules.Occurrences {
        private long now;
        private long wall;
        private long nextSequence;

        void at(long clockNow, long wallMillis, long firstSequence) {
            now = clockNow;
            wall = wallMillis;
            nextSequence = firstSequence;
        }

        @Override
        public void createdAt(long clockTime) {
            now = clockTime;
        }

        @Override
        public void add(String timerId, long fireTime, int priority, String payload, String traceContext,
                        String key, boolean successor) {
            if (nextSequence <= lastSequence || heap.find(timerId) != IndexedTimerHeap.NONE) {
                throw new IllegalStateException("journal adds occurrence " + timerId + " (sequence " + nextSequence
                        + ") which is pending or not newer than sequence " + lastSequence);
            }
            heap.insert(timerId, fireTime, priority, nextSequence, 1, now, wall, payload, traceContext, key);
            lastSequence = nextSequence++;
            pendingBytes += Limits.bytesOf(timerId, payload);
        }

        @Override
        public void remove(String timerId) {
            int handle = heap.find(timerId);
            pendingBytes -= bytesOf(heap.timerAt(handle));
            heap.remove(handle);
        }

        @Override
        public boolean isPending(String timerId) {
            return heap.find(timerId) != IndexedTimerHeap.NONE;
        }
    }

    private String leased(String claim) {
        if (!deliveries.holds(claim)) {
            throw new IllegalStateException("journal names a claim that holds no lease in replay");
        }
        return claim;
    }

    /** Fires the root: gone, or a delivery when the clock queues. */
    private void fireRoot(int root) {
        Timer timer = heap.timerAt(root);
        pendingBytes -= bytesOf(timer);
        heap.removeRoot();
        reservations.fired(timer);
        if (settings.queues()) {
            deliveries.fired(timer);
        }
    }

    /** The clock, which {@code what} needs to be scaled. */
    private ScaledClock scaled(String what) {
        if (!(clock instanceof ScaledClock scaled)) {
            throw new IllegalStateException("journal holds " + what + " of a clock that is not scaled");
        }
        return scaled;
    }

    private void useSettings(ClockSettings next) {
        if (next.mode() != settings.mode()) {
            clock = clocks.apply(next);
        }
        settings = next;
        reservations.follow(next);
        deliveries.settings(next);
    }

    /** The state rebuilt so far, as a snapshot would take it live: what a fork recorded at this point copies. */
    ClockImage state() {
        long now = clock instanceof RunningClock running ? running.latest() : clock.now();
        return new ClockImage(now, clock.firedThrough(), lastSequence, reservedSequences, heap.image(), 0,
                settings, deliveries.image(), deliveries.recentAcks(), ScaledClock.timeOf(clock))
                .withSchedules(schedules.schedules().image()).withReservations(reservations.image());
    }

    TimeSource clock() {
        return clock;
    }

    ClockSettings settings() {
        return settings;
    }

    long lastSequence() {
        return lastSequence;
    }

    /** The highest sequence reserved on disk; may be above {@link #lastSequence} after a crash. */
    long reservedSequences() {
        return reservedSequences;
    }

    long pendingBytes() {
        return pendingBytes;
    }

    private int target(String id, long sequence) {
        int handle = heap.find(id);
        if (handle == IndexedTimerHeap.NONE || heap.timerAt(handle).sequence() != sequence) {
            throw new IllegalStateException("journal names " + id + " (sequence " + sequence
                    + ") which is not pending");
        }
        return handle;
    }

    private static long bytesOf(Timer timer) {
        return Limits.bytesOf(timer.id(), timer.payload());
    }
}
