package io.timeservice.store.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.timeservice.model.Ack;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.CronParser;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics.Operation;
import io.timeservice.store.SchedulerMetrics;

/**
 * The timer service's state: a clock, an {@link IndexedTimerHeap}, its {@link Capacity} in timers and bytes and the
 * {@link Sequences} counter, behind one lock; {@link FailStop} says whether it still serves and
 * {@link InvariantReports} checks it.
 *
 * <p>Thread-safe: every public method does its whole read or mutation under one {@link CombiningLock}, so each is
 * atomic and they are linearizable in the order they run (possibly on another caller's thread). The heap itself
 * knows nothing about threads (concurrency belongs outside the heap). Arguments are validated before anything
 * changes, and a refused call throws {@link ProblemException} with the state untouched. Metrics are reported
 * after the lock is released.
 *
 * <p>Cost: add, cancel and edit O(log n) plus an expected O(1) id lookup; advance O(k log n) for k fired timers;
 * get, peek and {@link #status} O(1); {@link #firstN} O(k log k) for k listed; {@link #checkInvariants} O(n).
 *
 * <p>Firing order is (fireTime, priority, sequence) ascending. A timer's sequence is assigned at add from a
 * strictly increasing counter and kept on edit, so equal deadlines and priorities fire in arrival order.
 *
 * <p>All or nothing, journal first. Every mutation runs in three steps under the lock: (1) decide everything that
 * can be refused (arguments, duplicates, both capacities, preconditions, a log that cannot write, a trace too large
 * to hold) without changing anything; (2) append its record to the {@link MutationLog}, which either records it or
 * throws having recorded nothing; (3) apply it to the heap. Nothing after the append refuses, so memory never runs
 * ahead of the journal. If applying throws anyway (an OutOfMemoryError while tracing, a bug), memory may differ
 * from what recovery rebuilds from the record, so the scheduler stops: fail-stop, as it also does once the log
 * reports {@link MutationLog#failed() failure}. A stopped scheduler answers every call, reads included, with
 * {@code storage_unavailable} and serves nothing that recovery would not rebuild; only a restart recovers. Starting
 * a snapshot comes after the mutation is applied and never fails it.
 *
 * <p>Jobs kept apart, under this lock: {@link ClockFiring} fires (advances, a system clock's rounds and wake-ups),
 * {@link ClockDeliveries} serves a queueing clock's deliveries, {@link BatchPlan} decides a batch; they reach this
 * scheduler only through its {@link SchedulerKernel}.
 */
public final class TimerScheduler {

    private static final System.Logger LOG = System.getLogger(TimerScheduler.class.getName());

    private final CombiningLock lock = new CombiningLock();
    private final IndexedTimerHeap heap;
    private final InvariantReports invariantReports;
    /** Replaced only by {@link #reset}; guarded by the lock. */
    private SchedulerClock clock;
    private final LongSupplier wallClockMillis;
    /** Times and counts every operation; see {@link MeasuredOperations}. */
    private final MeasuredOperations operations;
    /** Guarded by the lock, as are the sequences and the fail-stop state. */
    private final Capacity capacity;
    private final Sequences sequences = new Sequences();
    private final FailStop failStop = new FailStop();
    /** Set when the clock this scheduler runs was deleted; guarded by the lock, never cleared. */
    private String deletedClock;
    /** Records every accepted mutation; set once by {@link #attachLog} before serving. */
    private MutationLog log = MutationLog.NONE;
    /** Guarded by the lock; set by {@link #configure} before serving, changed only by {@link #reconfigure}. */
    private ClockSettings settings = ClockSettings.VIRTUAL;
    /** Fired timers of a queueing clock; guarded by the lock. */
    private final DeliveryQueue deliveries;
    /** Claims, acks, nacks, leases and dead letters of those deliveries, under this scheduler's lock. */
    private final ClockDeliveries clockDeliveries;
    /** Advances' and firing rounds' firing and a system clock's wake-ups, under this scheduler's lock. */
    private final ClockFiring firing;
    /** The clock's schedules, whose occurrences are timers of this heap, under this scheduler's lock. */
    private final ClockScheduleCalls schedules;

    /** A scheduler without a byte budget. */
    public TimerScheduler(SchedulerClock clock, int arity, int capacity, LongSupplier wallClockMillis,
                          SchedulerMetrics metrics) {
        this(clock, arity, capacity, Long.MAX_VALUE, wallClockMillis, metrics);
    }

    /**
     * @param capacity      the most pending timers
     * @param capacityBytes the most {@link #bytesOf payload bytes} all pending timers may hold together
     */
    public TimerScheduler(SchedulerClock clock, int arity, int capacity, long capacityBytes,
                          LongSupplier wallClockMillis, SchedulerMetrics metrics) {
        this(clock, arity, new PendingBudget(capacity, capacityBytes), wallClockMillis, metrics);
    }

    /** A scheduler whose pending timers count against {@code budget}, which other schedulers may share. */
    public TimerScheduler(SchedulerClock clock, int arity, PendingBudget budget, LongSupplier wallClockMillis,
                          SchedulerMetrics metrics) {
        if (arity != 2 && arity != 4 && arity != 8) {
            throw new IllegalArgumentException("arity must be 2, 4 or 8: " + arity);
        }
        this.capacity = new Capacity(budget);
        this.deliveries = new DeliveryQueue(RetryPolicy.DEFAULT, budget.recentAcks().newShare());
        this.heap = new IndexedTimerHeap(arity);
        this.clock = clock;
        this.wallClockMillis = wallClockMillis;
        this.operations = new MeasuredOperations(lock, this::requireServing, () -> log, metrics);
        Kernel kernel = new Kernel();
        this.clockDeliveries = new ClockDeliveries(kernel, deliveries, this.capacity, metrics);
        this.schedules = new ClockScheduleCalls(kernel, heap, this.capacity, sequences, wallClockMillis);
        this.firing = new ClockFiring(this, kernel, heap, deliveries, this.capacity, clockDeliveries, wallClockMillis,
                metrics, schedules);
        this.invariantReports = new InvariantReports(lock, heap, () -> this.clock.firedThrough(), wallClockMillis,
                this::requireServing);
    }

    /** A scheduler on a fresh virtual clock at 0, without metrics: for tests and embedding. */
    public static TimerScheduler withVirtualClock(int arity, int capacity) {
        return new TimerScheduler(new VirtualClock(0), arity, capacity, System::currentTimeMillis,
                SchedulerMetrics.NONE);
    }

    /** Lets this clock's schedules read cron with {@code parser}, firing at most {@code maxCatchUp} per step. */
    public void scheduleWith(CronParser parser, int maxCatchUp) {
        lock.run(() -> schedules.configure(parser, maxCatchUp));
    }

    ClockScheduleCalls schedules() {
        return schedules;
    }

    public int arity() {
        return heap.arity();
    }

    public int capacity() {
        return capacity.timers();
    }

    public long capacityBytes() {
        return capacity.bytes();
    }

    // ---- mutations ----

    public Timer add(String id, long delay, int priority, String payload, Trace trace) {
        return add(id, Due.after(delay), priority, payload, trace);
    }

    /** See {@link io.timeservice.store.TimerStore#add}: due {@code due}, decided under the lock; steps into trace. */
    public Timer add(String id, Due due, int priority, String payload, Trace trace) {
        return operations.mutate(Operation.ADD, () -> TimerRules.requireValidId(id), () -> {
            long now = clock.now();
            long fireTime = TimeRules.fireTime(now, due);
            schedules.requireNotReserved(id);
            if (heap.find(id) != IndexedTimerHeap.NONE) {
                throw TimerRules.duplicateId(id);
            }
            long bytes = capacity.reserve(id, payload); // the last refusal; given back if anything after it throws
            try {
                log.requireWritable();
                long sequence = sequences.reserveNext(log);
                long createdAtWall = wallClockMillis.getAsLong();
                Timer added = new Timer(id, fireTime, priority, sequence, 1, now, payload);
                return commit(new Mutation.Added(added, createdAtWall), trace, () -> {
                    heap.insert(id, fireTime, priority, sequence, 1, now, createdAtWall, payload);
                    sequences.issued(sequence);
                    capacity.added(bytes);
                    return added;
                });
            } catch (RuntimeException | Error refused) {
                capacity.unreserve(bytes);
                throw refused;
            }
        });
    }

    /** See {@link io.timeservice.store.TimerStore#cancel}; {@code schedule_owned} for a schedule's occurrence. */
    public Timer cancel(String id, Precondition precondition, Trace trace) {
        return operations.mutate(Operation.CANCEL, () -> { }, () -> {
            int handle = requirePending(id);
            schedules.requireNotOwned(id);
            Timer cancelled = heap.timerAt(handle);
            if (!precondition.accepts(cancelled.revision())) {
                throw TimerRules.preconditionFailed(cancelled);
            }
            log.requireWritable();
            return commit(new Mutation.Cancelled(id, cancelled.sequence()), trace, () -> {
                heap.remove(handle);
                capacity.removed(cancelled);
                return cancelled;
            });
        });
    }

    public Timer edit(String id, Long newDelay, Integer newPriority, Precondition precondition, Trace trace) {
        return edit(id, newDelay == null ? null : Due.after(newDelay), newPriority, precondition, trace);
    }

    /**
     * See {@link io.timeservice.store.TimerStore#edit}: a new due time (a delay counts from now), priority or both,
     * the sequence kept.
     *
     * @throws ProblemException as there, and {@code schedule_owned} for a schedule's occurrence
     */
    public Timer edit(String id, Due newDue, Integer newPriority, Precondition precondition, Trace trace) {
        return operations.mutate(Operation.EDIT, () -> TimerRules.requireEditChange(newDue, newPriority), () -> {
            long fireTime = newDue == null ? 0 : TimeRules.fireTime(clock.now(), newDue);
            int handle = requirePending(id);
            schedules.requireNotOwned(id);
            Timer current = heap.timerAt(handle);
            if (!precondition.accepts(current.revision())) {
                throw TimerRules.preconditionFailed(current);
            }
            TimerRules.requireVersionLeft(current);
            log.requireWritable();
            Timer edited = new Timer(id, newDue == null ? current.fireTime() : fireTime,
                    newPriority == null ? current.priority() : newPriority, current.sequence(),
                    current.version() + 1, current.createdAt(), current.payload());
            return commit(new Mutation.Edited(id, edited.sequence(), edited.fireTime(), edited.priority(),
                    edited.version()), trace, () -> {
                heap.update(handle, edited.fireTime(), edited.priority());
                return edited;
            });
        });
    }

    /**
     * See {@link io.timeservice.store.TimerStore#batch}: every operation decided first, under one lock hold, against
     * the state the ones before it would leave (the shared budget taken for the running total's peak); then one
     * {@link Mutation.Batch} record, waited for once, and every operation applied. An edit or cancel of a schedule's
     * occurrence is {@code schedule_owned}, and so is an add of an id of the form of a schedule's occurrences.
     */
    public List<Timer> batch(List<? extends BatchOp> ops) {
        return operations.mutate(Operation.BATCH, () -> {
            TimerRules.requireBatchSize(ops);
        }, () -> {
            BatchPlan plan = new BatchPlan(heap, capacity, sequences, clock.now(), wallClockMillis.getAsLong(),
                    ops.size(), schedules::requireNotReserved);
            try {
                schedules.requireNoneOwned(ops);
                plan.decideAll(ops);
                log.requireWritable();
                if (plan.adds() > 0 && sequences.reserveNext(log, plan.adds()) != sequences.last() + 1) {
                    throw new IllegalStateException("sequences moved during a batch");
                }
                return commit(new Mutation.Batch(plan.mutations()), Trace.NONE, () -> {
                    plan.apply();
                    return plan.results();
                });
            } catch (RuntimeException | Error refused) {
                plan.giveBackReserved();
                throw refused;
            }
        });
    }

    /**
     * Moves the clock to {@code now + by} and fires every timer whose fireTime is at or before the new now, in
     * firing order. {@code by = 0} fires the timers due exactly now.
     *
     * @throws ProblemException {@code invalid_advance} for a negative or too large {@code by}, or with a
     *                            recording {@code trace} when the advance would fire more than
     *                            {@link Limits#MAX_TRACED_FIRES}
     */
    public AdvanceResult advance(long by, Trace trace) {
        return advance(by, null, Integer.MAX_VALUE, trace);
    }

    /**
     * A bounded advance, as {@link io.timeservice.store.TimerStore#advance} says: at most {@code limit} fired, the
     * clock then at the last fired one's fireTime ({@code complete = false}). A queueing clock fires only what the
     * delivery limit has room for; with no room its time moves without firing ({@link ClockFiring#advanceIntoQueue}).
     */
    public AdvanceResult advance(Long by, Long to, int limit, Trace trace) {
        return firing.advance(by, to, limit, trace);
    }

    /** See {@link ClockFiring#advanceToNext}: to the earliest timer, lease end or retry, and what is due there. */
    public NextAdvance advanceToNext(int limit, Trace trace) {
        return firing.advanceToNext(limit, trace);
    }

    /**
     * The pending timers due at or before {@code dueBy}, at most {@code limit}, in firing order, changing nothing:
     * what an advance to {@code dueBy} would fire.
     */
    public QueueListing dueBy(long dueBy, int limit) {
        TimerRules.requireLimit(limit);
        return operations.read(Operation.LIST, () -> {
            int[] handles = FiringOrderWalk.firstInOrder(heap, limit);
            List<Timer> timers = new ArrayList<>(handles.length);
            for (int handle : handles) {
                if (heap.fireTime(handle) > dueBy) {
                    break;
                }
                timers.add(schedules.tagged(heap.timerAt(handle)));
            }
            return new QueueListing(clock.now(), heap.size(), timers);
        });
    }

    // ---- deliveries (see ClockDeliveries) ----

    /** This clock's settings. */
    public ClockSettings settings() {
        return lock.call(() -> {
            requireServing();
            return settings;
        });
    }

    /** This clock's deliveries by state, as of its last change; O(1), no lock. */
    public DeliveryCounts deliveryCounts() {
        return clockDeliveries.counts();
    }

    /** See {@link ClockDeliveries#claim}. */
    public List<Delivery> claim(int max, long leaseMillis, long waitMillis) {
        return clockDeliveries.claim(max, leaseMillis, waitMillis);
    }

    /** See {@link ClockDeliveries#endWaits}. */
    public void endWaits() {
        clockDeliveries.endWaits();
    }

    /** See {@link ClockDeliveries#allowWaits}. */
    public void allowWaits() {
        clockDeliveries.allowWaits();
    }

    /** See {@link ClockDeliveries#ack}. */
    public void ack(String id, String claim) {
        clockDeliveries.ack(id, claim);
    }

    /** See {@link ClockDeliveries#ackAll}. */
    public List<ErrorCode> ackAll(List<Ack> acks) {
        return clockDeliveries.ackAll(acks);
    }

    /** See {@link ClockDeliveries#reject}. */
    public Delivery reject(String id, String claim, String reason) {
        return clockDeliveries.reject(id, claim, reason);
    }

    /** See {@link ClockDeliveries#onReady}. */
    public void onReady(Runnable hook) {
        clockDeliveries.onReady(hook);
    }

    /** See {@link ClockDeliveries#nack}. */
    public Delivery nack(String id, String claim, Long retryAfterMillis) {
        return clockDeliveries.nack(id, claim, retryAfterMillis);
    }

    /** See {@link ClockDeliveries#extend}. */
    public Delivery extend(String id, String claim, long leaseMillis) {
        return clockDeliveries.extend(id, claim, leaseMillis);
    }

    /** See {@link ClockDeliveries#allDeliveries}. */
    public List<Delivery> allDeliveries() {
        return clockDeliveries.allDeliveries();
    }

    /** See {@link ClockDeliveries#deadDeliveries}. */
    public List<Delivery> deadDeliveries(int limit, long afterSequence) {
        return clockDeliveries.deadDeliveries(limit, afterSequence);
    }

    /** See {@link ClockDeliveries#redrive}. */
    public List<Delivery> redrive(String id, Long sequence) {
        return clockDeliveries.redrive(id, sequence);
    }

    /** See {@link ClockDeliveries#deleteDead}. */
    public List<Delivery> deleteDead(String id, Long sequence) {
        return clockDeliveries.deleteDead(id, sequence);
    }

    // ---- reads ----

    /** @throws ProblemException {@code timer_not_found} */
    public Timer get(String id) {
        return operations.read(Operation.GET, () -> schedules.tagged(heap.timerAt(requirePending(id))));
    }

    /**
     * The next timer to fire, without removing it. O(1).
     *
     * @throws ProblemException {@code queue_empty}
     */
    public Timer peek() {
        return operations.read(Operation.PEEK, () -> {
            int root = heap.peek();
            if (root == IndexedTimerHeap.NONE) {
                throw TimerRules.queueEmpty();
            }
            return schedules.tagged(heap.timerAt(root));
        });
    }

    /** The first {@code limit} pending timers in firing order, found without sorting the heap. */
    public QueueListing firstN(int limit) {
        return dueBy(Long.MAX_VALUE, limit);
    }

    /** Clock, depth, next deadline and oldest pending timer, in O(1). Not counted as an operation. */
    public QueueStatus status() {
        return lock.call(() -> {
            requireServing();
            int root = heap.peek();
            int oldest = heap.records().oldest();
            boolean empty = oldest == IndexedTimerHeap.NONE;
            return new QueueStatus(clock.now(), heap.size(),
                    root == IndexedTimerHeap.NONE ? null : heap.fireTime(root),
                    empty ? null : heap.records().createdAt(oldest),
                    empty ? null : heap.records().createdAtWallMillis(oldest));
        });
    }

    public long now() {
        return lock.call(() -> {
            requireServing();
            return clock.now();
        });
    }

    /**
     * The {@link #bytesOf payload bytes} all pending timers hold together, against {@link #capacityBytes()}. O(1).
     */
    public long pendingBytes() {
        return lock.call(() -> {
            requireServing();
            return capacity.pendingBytes();
        });
    }

    /**
     * Why the scheduler stopped serving (fail-stop, see the class comment), or {@code null} while it serves. For
     * health checks: unlike every other call, this one answers after a stop.
     */
    public String stoppedBecause() {
        return lock.call(() -> failStop.stoppedBecause(log));
    }

    /**
     * The four invariants of the current state. A walk is O(n) and runs on a copy of the heap taken under the lock
     * (see {@link InvariantReports}); while the queue does not change, the last report is returned without a walk.
     * Never rate-bounded: for start-up and tests; requests go through {@link #invariants()}.
     */
    public InvariantReport checkInvariants() {
        return invariantReports.report(false);
    }

    /**
     * As {@link #checkInvariants()}, but within the bound set by {@link #limitInvariantChecks}: while it holds a
     * large queue's walks apart, the last report is returned, marked not {@link InvariantReport#current()}.
     */
    public InvariantReport invariants() {
        return invariantReports.report(true);
    }

    /**
     * Bounds how often {@link #invariants()} and {@link #heapView} walk a large queue: with more than
     * {@code aboveSize} timers pending, at most one walk starts per {@code minInterval}. Unbounded until called.
     */
    public void limitInvariantChecks(Duration minInterval, int aboveSize) {
        limitInvariantChecks(minInterval, aboveSize, System::nanoTime);
    }

    /** As {@link #limitInvariantChecks(Duration, int)}, timing walks on {@code nanoClock}; for tests. */
    void limitInvariantChecks(Duration minInterval, int aboveSize, LongSupplier nanoClock) {
        invariantReports.limit(minInterval, aboveSize, nanoClock);
    }

    /**
     * The first {@code limit} cells of the backing array and the index entries of their ids, read under the lock
     * without copying the rest of the heap, and the invariant report of {@link #invariants()}: of the same instant
     * unless the report is marked not current. The index entries are looked up in the id index, so a broken index
     * shows (an id mapped to another slot than the one it sits in, or to null when the index lacks it).
     */
    public HeapView heapView(int limit) {
        TimerRules.requireLimit(limit);
        return invariantReports.view(limit);
    }

    /**
     * Forgets every pending timer and continues on {@code freshClock}. Sequences keep counting, so no entity tag
     * issued before the reset can match a timer created after it. Destructive: the web layer allows it only for
     * the demo queue.
     */
    public void reset(SchedulerClock freshClock) {
        long position = lock.call(() -> {
            requireServing();
            log.requireWritable();
            return commit(new Mutation.Reset(), Trace.NONE, () -> {
                capacity.removedAll(heap.size());
                heap.clear();
                schedules.dropAll();
                clockDeliveries.drop();
                clock = clock.isVirtual() ? freshClock : clock; // a system clock's time is the wall clock's
                return null;
            }).position();
        });
        log.awaitDurable(position);
    }

    // ---- durability ----

    /**
     * Starts recording every accepted mutation into {@code mutationLog}. Call once, after {@link #recover} and
     * before serving.
     */
    public void attachLog(MutationLog mutationLog) {
        lock.run(() -> {
            if (log != MutationLog.NONE) {
                throw new IllegalStateException("a mutation log is already attached");
            }
            log = mutationLog;
            renewLeasesAfterRestart();
        });
    }

    /**
     * After a restart, every lease of a system clock that was in flight at the crash starts again for its full
     * length, measured from now: the worker that held it may still finish it, and if it does not, the delivery comes
     * back a full lease after the restart. Journaled, so a later recovery replays the same lease ends.
     */
    private void renewLeasesAfterRestart() {
        if (clock.isVirtual() || deliveries.inFlightCount() == 0 || log.failed()) {
            return;
        }
        long now = clock.now();
        commit(new Mutation.LeasesRenewed(now), Trace.NONE, () -> deliveries.renewLeases(now));
        clockDeliveries.changed();
    }

    /**
     * Rebuilds the state a log describes: loads {@code snapshot} (if any) with an O(n) bottom-up heapify, then
     * replays {@code journal} in order (see {@link SchedulerRecovery}). Call only on a fresh, empty scheduler, before
     * {@link #attachLog}.
     *
     * @throws IllegalStateException when a record does not fit the state it is applied to (a journal that does not
     *                               belong to this snapshot)
     */
    public void recover(RecoveredSnapshot snapshot, Iterable<Mutation> journal) {
        SchedulerRecovery recovery = beginRecovery(snapshot, 0);
        for (Mutation mutation : journal) {
            recovery.replay(mutation);
        }
        finishRecovery(recovery);
    }

    /**
     * Starts recovering a fresh scheduler of a {@link Clocks} registry, whose records arrive one by one among other
     * clocks' records: the caller replays them into the returned recovery, on one thread, then calls
     * {@link #finishRecovery}. Nothing is served in between.
     */
    SchedulerRecovery beginRecovery(RecoveredSnapshot snapshot, long firstSequence) {
        return lock.call(() -> {
            if (heap.size() != 0 || deliveries.size() != 0 || sequences.last() != 0 || log != MutationLog.NONE) {
                throw new IllegalStateException("recover needs a fresh scheduler");
            }
            SchedulerRecovery recovery = new SchedulerRecovery(heap, clock, deliveries, settings,
                    mode -> SchedulerClock.fresh(mode, wallClockMillis), schedules);
            recovery.startAfter(firstSequence);
            recovery.load(snapshot);
            return recovery;
        });
    }

    /** Takes over what {@code recovery} (from {@link #beginRecovery}) rebuilt. */
    void finishRecovery(SchedulerRecovery recovery) {
        lock.run(() -> takeOver(recovery));
    }

    private void takeOver(SchedulerRecovery recovery) {
        clock = recovery.clock();
        settings = recovery.settings();
        capacity.recovered(heap.size(), recovery.pendingBytes());
        capacity.recoveredDeliveries(deliveries.size(), deliveries.bytes());
        clockDeliveries.recount(false);
        sequences.recovered(recovery.lastSequence(), recovery.reservedSequences());
        schedules.recovered();
    }

    /**
     * A new clock's sequences start after {@code floor} (the highest sequence any deleted clock may have issued),
     * so no entity tag of a deleted clock matches a timer of a clock re-created under its name. Call before serving.
     */
    void startSequencesAfter(long floor) {
        lock.run(() -> {
            sequences.startAfter(floor);
        });
    }

    /**
     * Deletes the clock this scheduler runs: journals it, gives its pending timers' share of the budget back and
     * refuses every later call with {@code clock_not_found}. Returns the highest sequence it may have issued.
     */
    long deleteClock(String name) {
        Applied<Long> applied = lock.call(() -> {
            requireServing();
            log.requireWritable();
            return commit(new Mutation.ClockDeleted(), Trace.NONE, () -> {
                capacity.removedAll(heap.size());
                heap.clear();
                schedules.dropAll();
                clockDeliveries.drop();
                deletedClock = name;
                firing.forget(); // the firing thread must not keep a deleted clock until its old deadline
                clockDeliveries.wakeWaiters(); // long polls look again and hear clock_not_found
                return sequences.highestPossible();
            });
        });
        log.awaitDurable(applied.position());
        return applied.value();
    }

    /**
     * Sets a fresh scheduler's settings and the clock they call for: before serving, when a clock is created or
     * recovered.
     */
    void configure(ClockSettings clockSettings, SchedulerClock schedulerClock) {
        lock.run(() -> {
            settings = clockSettings;
            deliveries.policy(clockSettings.retry());
            clock = schedulerClock;
        });
    }

    /**
     * Gives the {@code default} clock the settings its configuration asks for at start-up, journaled. A new mode
     * needs an empty clock (no timer, no delivery), whose time starts again: the wall clock's, or 0.
     *
     * @throws IllegalStateException when the mode would change while the clock holds timers or deliveries
     */
    public void reconfigure(ClockSettings next) {
        Applied<Void> applied = lock.call(() -> {
            requireServing();
            if (next.equals(settings)) {
                return new Applied<>(null, 0, Applied.NO_LEVELS);
            }
            if (next.mode() != settings.mode() && (heap.size() > 0 || deliveries.size() > 0)) {
                throw new IllegalStateException("the default clock is " + settings.mode().name().toLowerCase(Locale.ROOT)
                        + " and holds " + heap.size() + " timers and " + deliveries.size() + " deliveries; it can"
                        + " become " + next.mode().name().toLowerCase(Locale.ROOT) + " (timeservice.clock.mode)"
                        + " only while empty. Start with the old mode and drain it, or start on a new data-dir");
            }
            log.requireWritable();
            return commit(new Mutation.ClockConfigured(next), Trace.NONE, () -> {
                if (next.mode() != settings.mode()) {
                    clock = SchedulerClock.fresh(next, wallClockMillis);
                }
                settings = next;
                deliveries.policy(next.retry());
                clockDeliveries.changed();
                return null;
            });
        });
        log.awaitDurable(applied.position());
    }

    /** Changes a scaled clock's rate from its time now on; see {@link ClockFiring#rerate}. */
    public ClockSettings rerate(ClockRate next) {
        return firing.rerate(next, changed -> settings = changed);
    }

    /**
     * Lets a system clock ask {@code wakeups} for rounds, and asks for the first one now. Call once before serving,
     * after recovery.
     */
    public void fireWith(Wakeups wakeups) {
        lock.run(() -> firing.fireWith(wakeups));
    }

    /** One firing round of a system clock, for the firing thread; see {@link ClockFiring#fireRound}. */
    int fireRound(int maxTimers) {
        return firing.fireRound(maxTimers);
    }

    /** Holds this scheduler's lock on the calling thread until {@link #releaseForSnapshot}: a multi-clock cut. */
    void holdForSnapshot() {
        lock.hold();
    }

    void releaseForSnapshot() {
        lock.release();
    }

    /** This scheduler's state for a snapshot; call holding the lock (between {@link #holdForSnapshot} and release). */
    SchedulerState stateForSnapshot() {
        return new SchedulerState(clock.now(), clock.firedThrough(), sequences.last(), sequences.reserved(),
                heap.image(), 0, settings, deliveries.image(), deliveries.recentAcks(), ScaledClock.timeOf(clock))
                .withSchedules(schedules.schedules().image());
    }

    /**
     * Takes the state under the lock in array copies ({@link #stateForSnapshot}) and hands it with its O(1) budget
     * weight to {@code whileHeld} there (which may journal it: no change comes between); the rest is built unlocked.
     */
    SchedulerState copied(BiConsumer<SchedulerState, ClockCopy.Weight> whileHeld) {
        return lock.call(() -> {
            requireServing();
            long start = System.nanoTime();
            SchedulerState state = stateForSnapshot();
            whileHeld.accept(state, new ClockCopy.Weight((long) state.size() + state.deliveries().size(),
                    capacity.pendingBytes() + deliveries.bytes(), state.deliveries().size()));
            return state.withCopyNanos(System.nanoTime() - start);
        });
    }

    // ---- helpers; call only while holding the lock unless said otherwise ----

    /**
     * Records {@code mutation}, then applies it with {@code apply} (its heap steps recorded into {@code trace}),
     * then starts a snapshot if the log asks for one; returns what {@code apply} returned, the record's position and
     * the levels the heap's sifts moved. Call only after every refusal has been decided (see the class comment): if the
     * append throws, nothing is recorded and nothing changes; if {@code apply} throws, memory may no longer be what
     * recovery rebuilds from the record, so the scheduler stops and the caller hears {@code storage_unavailable}.
     */
    private <T> Applied<T> commit(Mutation mutation, Trace trace, Supplier<T> apply) {
        long position = log.append(mutation);
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

    /**
     * Starts a snapshot when the log asks for one. The mutation before it is recorded and applied already, so a
     * failure here (no memory for the copy, any other error) costs only the compaction, which the next mutation
     * asks for again; it never turns the committed change into a refusal.
     */
    private void startSnapshotIfDue() {
        try {
            if (log.wantsSnapshot(heap.size() + deliveries.size())) {
                long start = System.nanoTime();
                SchedulerState state = stateForSnapshot();
                log.snapshot(state.withCopyNanos(System.nanoTime() - start));
            }
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "could not start a snapshot; the journal keeps every record", e);
        }
    }

    /** Refuses every call once the scheduler has stopped (fail-stop). Call first in every call under the lock. */
    private void requireServing() {
        if (deletedClock != null) {
            throw ClockRules.clockDeleted(deletedClock);
        }
        failStop.requireServing(log);
    }

    private int requirePending(String id) {
        int handle = id == null ? IndexedTimerHeap.NONE : heap.find(id);
        if (handle == IndexedTimerHeap.NONE) {
            throw TimerRules.timerNotFound(id);
        }
        return handle;
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

    /** The narrow view {@link ClockDeliveries} and {@link ClockFiring} have of this scheduler: each method as its namesake here. */
    private final class Kernel implements SchedulerKernel {

        @Override
        public <T> T mutate(Operation operation, Runnable validate, Supplier<Applied<T>> underLock) {
            return operations.mutate(operation, validate, underLock);
        }

        @Override
        public <T> T read(Operation operation, Supplier<T> underLock) {
            return operations.read(operation, underLock);
        }

        @Override
        public <T> T serving(Supplier<T> underLock) {
            return lock.call(() -> {
                requireServing();
                return underLock.get();
            });
        }

        @Override
        public <T> Applied<T> commit(Mutation mutation, Trace trace, Supplier<T> apply) {
            return TimerScheduler.this.commit(mutation, trace, apply);
        }

        @Override
        public SchedulerClock clock() {
            return clock;
        }

        @Override
        public ClockSettings settings() {
            return settings;
        }

        @Override
        public MutationLog log() {
            return log;
        }

        @Override
        public void tellNextDeadline() {
            firing.tellNextDeadline();
        }
    }
}
