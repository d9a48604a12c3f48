package io.timeservice.store.memory;

import java.util.Locale;
import java.util.function.Supplier;

import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimerRules;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.heap.HeapListener;
import io.timeservice.store.memory.heap.IndexedTimerHeap;
import io.timeservice.store.memory.heap.TraceRecorder;
import io.timeservice.store.memory.time.ScaledClock;
import io.timeservice.store.memory.time.TimeSource;

/**
 * One memory clock's lock and the state it guards: an {@link IndexedTimerHeap} with its {@link Capacity} in timers
 * and bytes, the {@link Sequences} counter, the {@link DeliveryQueue}, the clock's time source and settings, the
 * {@link MutationLog} it appends to and whether it still serves ({@link FailStop}). The clock's jobs
 * ({@link TimerChanges}, {@link TimerReads}, {@link ClockFiring}, {@link ClockDeliveries},
 * {@link ClockScheduleCalls}) and {@link MemoryClock}'s own lifecycle reach that state only through here.
 *
 * <p>Thread-safety: one {@link CombiningLock} guards all of it. The call shapes {@link #mutate}, {@link #read} and
 * {@link #serving} take the lock, so each call is atomic and calls are linearizable in the order they run (possibly
 * on another caller's thread); call every other method only while holding it. The heap itself knows nothing about
 * threads (concurrency belongs outside the heap), and its id index moves in lockstep with its array under this one
 * lock. Metrics are reported after the lock is released.
 *
 * <p>All or nothing, journal first. Every mutation runs in three steps under the lock: (1) decide everything that
 * can be refused (arguments, duplicates, both capacities, preconditions, a log that cannot write, a trace too large
 * to hold) without changing anything; (2) append its record to the {@link MutationLog}, which either records it or
 * throws having recorded nothing; (3) apply it ({@link #commit}). Nothing after the append refuses, so memory never
 * runs ahead of the journal. If applying throws anyway (an OutOfMemoryError while tracing, a bug), memory may differ
 * from what recovery rebuilds from the record, so the clock stops: fail-stop, as it also does once the log reports
 * {@link MutationLog#failed() failure}. A stopped clock answers every call, reads included, with
 * {@code storage_unavailable} and serves nothing that recovery would not rebuild; only a restart recovers. Starting
 * a snapshot comes after the mutation is applied and never fails it.
 */
final class ClockKernel {

    private static final System.Logger LOG = System.getLogger(ClockKernel.class.getName());

    private final CombiningLock lock = new CombiningLock();
    private final IndexedTimerHeap heap;
    /** Times and counts every operation; see {@link MeasuredOperations}. */
    private final MeasuredOperations operations;
    /** Guarded by the lock, as are the sequences, the fail-stop state and the deliveries. */
    private final Capacity capacity;
    private final Sequences sequences = new Sequences();
    private final FailStop failStop = new FailStop();
    /** Fired timers of a queueing clock. */
    private final DeliveryQueue deliveries;
    /** Ids reserved by the clock's dedupe window after their timers left. */
    private final Reservations reservations;
    /** Replaced by a reset, a recovery and a change of mode; guarded by the lock. */
    private TimeSource clock;
    /** Set when the clock was deleted; guarded by the lock, never cleared. */
    private String deletedClock;
    /** Records every accepted mutation; set once by {@link #attachLog} before serving. */
    private MutationLog log = MutationLog.NONE;
    /** Guarded by the lock; set before serving, changed by a reconfiguration or a rate change. */
    private ClockSettings settings = ClockSettings.VIRTUAL;
    /** The jobs this kernel calls back: set once by {@link #attach}, before serving. */
    private ClockScheduleCalls schedules;
    private ClockFiring firing;

    /** A kernel whose pending timers count against {@code budget}, which other clocks may share. */
    ClockKernel(TimeSource clock, int arity, PendingBudget budget, StoreMetrics metrics) {
        if (arity != 2 && arity != 4 && arity != 8) {
            throw new IllegalArgumentException("arity must be 2, 4 or 8: " + arity);
        }
        this.capacity = new Capacity(budget);
        this.heap = new IndexedTimerHeap(arity);
        this.reservations = new Reservations(heap.reserved(), budget, () -> this.clock.now());
        this.deliveries = new DeliveryQueue(RetryPolicy.DEFAULT, budget.recentAcks().newShare(), reservations);
        this.clock = clock;
        this.operations = new MeasuredOperations(lock, this::requireServing, () -> log, metrics);
    }

    /**
     * Lets a commit tell {@code firingJob} about a sooner deadline and a snapshot copy {@code scheduleCalls}'
     * schedules. Call once, while the clock is made.
     */
    void attach(ClockScheduleCalls scheduleCalls, ClockFiring firingJob) {
        this.schedules = scheduleCalls;
        this.firing = firingJob;
    }

    // ---- the call shapes; each takes the lock ----

    /**
     * Runs {@code validate} outside the lock, then {@code underLock} as a counted mutation: under the lock after the
     * fail-stop check, then waits until the log has it.
     */
    <T> T mutate(Operation operation, Runnable validate, Supplier<Applied<T>> underLock) {
        return operations.mutate(operation, validate, underLock);
    }

    /** As {@link #mutate(Operation, Runnable, Supplier)}, with nothing to check before the lock. */
    <T> T mutate(Operation operation, Supplier<Applied<T>> underLock) {
        return mutate(operation, () -> { }, underLock);
    }

    /**
     * Runs {@code work}, which takes its locks itself, as a counted mutation:
     * {@link MeasuredOperations#measuredHolding}.
     */
    <T> T measuredHolding(Operation operation, Supplier<T> work) {
        return operations.measuredHolding(operation, work);
    }

    /** Runs {@code underLock} as a counted read under the lock. */
    <T> T read(Operation operation, Supplier<T> underLock) {
        return operations.read(operation, underLock);
    }

    /** Runs {@code underLock} under the lock after the fail-stop check, uncounted. */
    <T> T serving(Supplier<T> underLock) {
        return lock.call(() -> {
            requireServing();
            return underLock.get();
        });
    }

    /** The lock itself, for what runs outside the call shapes: set-up, recovery, a multi-clock cut. */
    CombiningLock lock() {
        return lock;
    }

    // ---- call only while holding the lock ----

    /**
     * Records {@code mutation}, then applies it with {@code apply} (its heap steps recorded into {@code trace}),
     * then starts a snapshot if the log asks for one; returns what {@code apply} returned, the record's position and
     * the levels the heap's sifts moved. Call only after every refusal has been decided (see the class comment): if the
     * append throws, nothing is recorded and nothing changes; if {@code apply} throws, memory may no longer be what
     * recovery rebuilds from the record, so the clock stops and the caller hears {@code storage_unavailable}.
     */
    <T> Applied<T> commit(Mutation mutation, Trace trace, Supplier<T> apply) {
        return applyRecorded(mutation, log.append(mutation), trace, apply);
    }

    /**
     * The second half of {@link #commit}: applies {@code mutation}, which the log holds at {@code position} already
     * (a record of several clocks, appended once under every one's lock: {@link BatchAcrossClocks}); a failure stops
     * the clock as there.
     */
    <T> Applied<T> applyRecorded(Mutation mutation, long position, Trace trace, Supplier<T> apply) {
        T value;
        try {
            value = traced(trace, apply);
        } catch (Throwable failure) {
            throw failStop.stop("applying an accepted change ("
                    + mutation.getClass().getSimpleName().toLowerCase(Locale.ROOT)
                    + ") failed after its journal record was written", failure);
        }
        startSnapshotIfDue();
        firing.tellNextDeadline(); // a system clock's new earliest timer, lease or retry wakes the firing thread sooner
        return new Applied<>(value, position, new int[] {heap.takeLevelsMoved()});
    }

    /** As {@link #commit(Mutation, Trace, Supplier)}, untraced. */
    <T> Applied<T> commit(Mutation mutation, Supplier<T> apply) {
        return commit(mutation, Trace.NONE, apply);
    }

    /** Refuses every call once the clock was deleted or has stopped (fail-stop). Call first in every call. */
    void requireServing() {
        if (deletedClock != null) {
            throw ClockRules.clockDeleted(deletedClock);
        }
        failStop.requireServing(log);
    }

    /** The handle of the pending timer {@code id}; {@code timer_not_found} when there is none. */
    int requirePending(String id) {
        int handle = id == null ? IndexedTimerHeap.NONE : heap.find(id);
        if (handle == IndexedTimerHeap.NONE) {
            throw TimerRules.timerNotFound(id);
        }
        return handle;
    }

    /** Tells the firing thread about a sooner deadline of a system clock. */
    void tellNextDeadline() {
        firing.tellNextDeadline();
    }

    IndexedTimerHeap heap() {
        return heap;
    }

    Capacity capacity() {
        return capacity;
    }

    Sequences sequences() {
        return sequences;
    }

    DeliveryQueue deliveries() {
        return deliveries;
    }

    TimeSource clock() {
        return clock;
    }

    void useClock(TimeSource next) {
        clock = next;
    }

    ClockSettings settings() {
        return settings;
    }

    void useSettings(ClockSettings next) {
        settings = next;
        reservations.follow(next);
    }

    Reservations reservations() {
        return reservations;
    }

    /**
     * Refuses an add of {@code id} that the clock keeps reserved at {@code now} ({@code duplicate_id} with the
     * reservation), or, on a clock with a dedupe window, one beyond the store's reservation limit.
     */
    void requireNotReservedId(String id, long now) {
        if (settings.dedupes()) {
            requireNotReserved(reservations.find(id, now), now);
        }
    }

    /**
     * As {@link #requireNotReservedId(String, long)} for an id that {@code heap().lookup} answered {@code lookedUp}
     * for (no pending timer has it): the one lookup an add makes.
     */
    void requireNotReservedId(int lookedUp, long now) {
        if (settings.dedupes()) {
            requireNotReserved(reservations.found(lookedUp, now), now);
        }
    }

    private void requireNotReserved(Reservation previous, long now) {
        if (previous != null) {
            throw TimerRules.idReserved(previous);
        }
        reservations.expire(now);
        capacity.requireReservationRoom();
    }

    MutationLog log() {
        return log;
    }

    /** Starts recording every accepted mutation into {@code mutationLog}; once. */
    void attachLog(MutationLog mutationLog) {
        if (log != MutationLog.NONE) {
            throw new IllegalStateException("a mutation log is already attached");
        }
        log = mutationLog;
    }

    /** Refuses every later call with {@code clock_not_found}: the clock {@code name} was deleted. */
    void deleted(String name) {
        deletedClock = name;
    }

    /** Why the clock stopped serving, or {@code null} while it serves; see {@link FailStop}. */
    String stoppedBecause() {
        return failStop.stoppedBecause(log);
    }

    /** The whole state in array copies, for a snapshot or a fork. */
    ClockImage image() {
        return new ClockImage(clock.now(), clock.firedThrough(), sequences.last(), sequences.reserved(),
                heap.image(), 0, settings, deliveries.image(), deliveries.recentAcks(), ScaledClock.timeOf(clock))
                .withSchedules(schedules.schedules().image()).withReservations(reservations.image());
    }

    /**
     * Starts a snapshot when the log asks for one. The mutation before it is recorded and applied already, so a
     * failure here (no memory for the copy, any other error) costs only the compaction, which the next mutation
     * asks for again; it never turns the committed change into a refusal.
     */
    private void startSnapshotIfDue() {
        try {
            if (log.wantsSnapshot(heap.size() + deliveries.size())) {
                long start = System.nanoTime();
                ClockImage state = image();
                log.snapshot(state.withCopyNanos(System.nanoTime() - start));
            }
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "could not start a snapshot; the journal keeps every record", e);
        }
    }

    /** Runs {@code step}, telling the heap's steps to {@code trace} when it records. */
    private <T> T traced(Trace trace, Supplier<T> step) {
        if (!trace.isRecording()) {
            return step.get();
        }
        heap.listen(new TraceRecorder(heap, trace::record));
        try {
            return step.get();
        } finally {
            heap.listen(HeapListener.NONE);
        }
    }
}
