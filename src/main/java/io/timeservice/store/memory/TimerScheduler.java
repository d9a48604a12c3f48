package io.timeservice.store.memory;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.timeservice.model.Ack;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.Precondition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Rules;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.LongPoll;
import io.timeservice.store.SchedulerMetrics.DeliveryEvent;
import io.timeservice.store.SchedulerMetrics.Operation;
import io.timeservice.store.SchedulerMetrics.Outcome;
import io.timeservice.store.SchedulerMetrics;

/**
 * The timer service's state: a clock, an {@link IndexedTimerHeap}, its {@link Capacity} in timers and bytes and the
 * {@link Sequences} counter, behind one lock; {@link FailStop} says whether it still serves and
 * {@link InvariantReports} checks it.
 *
 * <p>Thread-safe: every public method does its whole read or mutation under one {@link CombiningLock}, so each is
 * atomic and they are linearizable in the order they run (possibly on another caller's thread). The heap itself
 * knows nothing about threads (concurrency belongs outside the heap). Arguments are validated before anything
 * changes, and a refused call throws {@link SchedulerException} with the state untouched. Metrics are reported
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
 */
public final class TimerScheduler {

    private static final int[] NO_LEVELS = {};

    private static final System.Logger LOG = System.getLogger(TimerScheduler.class.getName());

    private final CombiningLock lock = new CombiningLock();
    private final IndexedTimerHeap heap;
    private final InvariantReports invariantReports;
    /** Replaced only by {@link #reset}; guarded by the lock. */
    private SchedulerClock clock;
    private final LongSupplier wallClockMillis;
    private final SchedulerMetrics metrics;
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
    private final DeliveryQueue deliveries = new DeliveryQueue(RetryPolicy.DEFAULT);
    private final ReadySignal readySignal = new ReadySignal();
    /** Set when the service shuts down: long polls answer at once instead of holding their threads. */
    private volatile boolean waitsEnded;
    /** Where a system clock asks for firing rounds; set by {@link #fireWith} before serving. */
    private Wakeups wakeups = Wakeups.NONE;
    /** The earliest deadline told to {@link #wakeups} and not yet taken by a firing round; guarded by the lock. */
    private long toldDeadline = Long.MAX_VALUE;
    /** Delivery counts for gauges, written under the lock, read without it. */
    private volatile DeliveryCounts deliveryCounts = DeliveryCounts.NONE;

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
        this.heap = new IndexedTimerHeap(arity);
        this.clock = clock;
        this.wallClockMillis = wallClockMillis;
        this.metrics = metrics;
        this.invariantReports = new InvariantReports(lock, heap, () -> this.clock.firedThrough(), wallClockMillis,
                this::requireServing);
    }

    /** A scheduler on a fresh virtual clock at 0, without metrics: for tests and embedding. */
    public static TimerScheduler withVirtualClock(int arity, int capacity) {
        return new TimerScheduler(new VirtualClock(0), arity, capacity, System::currentTimeMillis,
                SchedulerMetrics.NONE);
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

    /**
     * Adds a timer due at {@code now + delay}, recording the heap's steps into {@code trace}.
     *
     * @throws SchedulerException {@code invalid_id}, {@code invalid_delay}, {@code duplicate_id} or
     *                            {@code capacity_exceeded} (too many timers, or too many payload bytes)
     */
    public Timer add(String id, long delay, int priority, String payload, Trace trace) {
        return mutate(Operation.ADD, () -> Rules.requireValidId(id), () -> {
            long now = clock.now();
            long fireTime = Rules.fireTimeAfter(now, delay, ErrorCode.INVALID_DELAY, "delay");
            if (heap.find(id) != IndexedTimerHeap.NONE) {
                throw new SchedulerException(ErrorCode.DUPLICATE_ID, "a pending timer already has id " + id);
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

    /**
     * Cancels a pending timer if {@code precondition} accepts its current revision, and returns it as it was.
     *
     * @throws SchedulerException {@code timer_not_found} or {@code precondition_failed}
     */
    public Timer cancel(String id, Precondition precondition, Trace trace) {
        return mutate(Operation.CANCEL, () -> { }, () -> {
            int handle = requirePending(id);
            Timer cancelled = heap.timerAt(handle);
            if (!precondition.accepts(cancelled.revision())) {
                throw Rules.preconditionFailed(cancelled);
            }
            log.requireWritable();
            return commit(new Mutation.Cancelled(id, cancelled.sequence()), trace, () -> {
                heap.remove(handle);
                capacity.removed(cancelled);
                return cancelled;
            });
        });
    }

    /**
     * Gives a pending timer a new delay, priority or both if {@code precondition} accepts its current revision,
     * keeping its sequence and counting one more version. The new fireTime is {@code now + newDelay}, not relative
     * to the old fireTime.
     *
     * @param newDelay    the new delay from now, or {@code null} to keep the fireTime
     * @param newPriority the new priority, or {@code null} to keep it
     * @throws SchedulerException {@code invalid_request} (nothing to change), {@code invalid_delay},
     *                            {@code timer_not_found}, {@code precondition_failed} or
     *                            {@code version_limit_reached}
     */
    public Timer edit(String id, Long newDelay, Integer newPriority, Precondition precondition, Trace trace) {
        return mutate(Operation.EDIT, () -> {
            if (newDelay == null && newPriority == null) {
                throw new SchedulerException(ErrorCode.INVALID_REQUEST, "an edit needs a delay, a priority or both");
            }
        }, () -> {
            long fireTime = newDelay == null ? 0
                    : Rules.fireTimeAfter(clock.now(), newDelay, ErrorCode.INVALID_DELAY, "delay");
            int handle = requirePending(id);
            Timer current = heap.timerAt(handle);
            if (!precondition.accepts(current.revision())) {
                throw Rules.preconditionFailed(current);
            }
            Rules.requireVersionLeft(current);
            log.requireWritable();
            Timer edited = new Timer(id, newDelay == null ? current.fireTime() : fireTime,
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
     * Applies {@code ops} in order, all or nothing, as one journal record waited for once. Every operation is decided
     * first, under one lock hold, against the state the operations before it would leave (an add then an edit of one
     * id works, two adds of one id do not; the shared budget is taken for the running total's peak), exactly as the
     * single call would decide it; if any is refused, nothing changes. Then one {@link Mutation.Batch} record is
     * appended and every operation applied.
     *
     * @return each operation's result in order: the added or edited timer, or the cancelled timer as it was
     * @throws SchedulerException {@code invalid_request} for no or more than {@link Limits#MAX_BATCH_OPS} operations, else
     *                            the first refused operation's refusal with its {@link SchedulerException#opIndex}
     */
    public List<Timer> batch(List<? extends BatchOp> ops) {
        return mutate(Operation.BATCH, () -> {
            Rules.requireBatchSize(ops);
        }, () -> {
            BatchPlan plan = new BatchPlan(clock.now(), wallClockMillis.getAsLong(), ops.size());
            try {
                for (int i = 0; i < ops.size(); i++) {
                    try {
                        plan.decide(ops.get(i));
                    } catch (SchedulerException refused) {
                        throw refused.atOp(i);
                    }
                }
                log.requireWritable();
                if (plan.adds > 0 && sequences.reserveNext(log, plan.adds) != sequences.last() + 1) {
                    throw new IllegalStateException("sequences moved during a batch");
                }
                return commit(new Mutation.Batch(plan.mutations), Trace.NONE, () -> {
                    plan.apply();
                    return List.copyOf(plan.results);
                });
            } catch (RuntimeException | Error refused) {
                plan.giveBackReserved();
                throw refused;
            }
        });
    }

    /**
     * A batch being decided, then applied: what each operation would see ({@link #current}), its records and results
     * in order, the adds' sequences (after {@code sequences.last()}) and what it took from the budget. Use only under
     * the lock, within one {@link #batch} call.
     */
    private final class BatchPlan {

        private final long now;
        private final long createdAtWall;
        /** The timers the batch changed so far, by id; a null value: cancelled by the batch. */
        private final Map<String, Timer> changed = new HashMap<>();
        private final List<Mutation> mutations;
        private final List<Timer> results;
        private int adds;
        private long netTimers;
        private long netBytes;
        private long reservedTimers;
        private long reservedBytes;
        private boolean applied;

        BatchPlan(long now, long createdAtWall, int size) {
            this.now = now;
            this.createdAtWall = createdAtWall;
            this.mutations = new ArrayList<>(size);
            this.results = new ArrayList<>(size);
        }

        /** Decides one operation as its single call would, against the state the ones before it leave. */
        void decide(BatchOp op) {
            if (op instanceof BatchOp.Add add) {
                Rules.requireValidId(add.id());
                long fireTime = Rules.fireTimeAfter(now, add.delay(), ErrorCode.INVALID_DELAY, "delay");
                if (current(add.id()) != null) {
                    throw new SchedulerException(ErrorCode.DUPLICATE_ID, "a pending timer already has id "
                            + add.id());
                }
                long bytes = Capacity.bytesOf(add.id(), add.payload());
                netTimers++;
                netBytes += bytes;
                reserveRunningPeak();
                adds++;
                Timer added = new Timer(add.id(), fireTime, add.priority(), sequences.last() + adds, 1, now,
                        add.payload());
                decided(added, new Mutation.Added(added, createdAtWall), added);
            } else if (op instanceof BatchOp.Edit edit) {
                if (edit.delay() == null && edit.priority() == null) {
                    throw new SchedulerException(ErrorCode.INVALID_REQUEST,
                            "an edit needs a delay, a priority or both");
                }
                long fireTime = edit.delay() == null ? 0
                        : Rules.fireTimeAfter(now, edit.delay(), ErrorCode.INVALID_DELAY, "delay");
                Timer current = requireCurrent(edit.id(), edit.precondition());
                Rules.requireVersionLeft(current);
                Timer edited = new Timer(current.id(), edit.delay() == null ? current.fireTime() : fireTime,
                        edit.priority() == null ? current.priority() : edit.priority(), current.sequence(),
                        current.version() + 1, current.createdAt(), current.payload());
                decided(edited, new Mutation.Edited(edited.id(), edited.sequence(), edited.fireTime(),
                        edited.priority(), edited.version()), edited);
            } else if (op instanceof BatchOp.Cancel cancel) {
                Timer current = requireCurrent(cancel.id(), cancel.precondition());
                netTimers--;
                netBytes -= Capacity.bytesOf(current);
                changed.put(current.id(), null);
                mutations.add(new Mutation.Cancelled(current.id(), current.sequence()));
                results.add(current);
            } else {
                throw new SchedulerException(ErrorCode.INVALID_REQUEST, "a batch operation may not be null");
            }
        }

        private void decided(Timer timer, Mutation mutation, Timer result) {
            changed.put(timer.id(), timer);
            mutations.add(mutation);
            results.add(result);
        }

        /** The timer {@code id} as the operations decided so far leave it, or null. */
        private Timer current(String id) {
            if (changed.containsKey(id)) {
                return changed.get(id);
            }
            int handle = id == null ? IndexedTimerHeap.NONE : heap.find(id);
            return handle == IndexedTimerHeap.NONE ? null : heap.timerAt(handle);
        }

        private Timer requireCurrent(String id, Precondition precondition) {
            Timer current = current(id);
            if (current == null) {
                throw new SchedulerException(ErrorCode.TIMER_NOT_FOUND, "no pending timer has id "
                        + Rules.abbreviate(id));
            }
            if (!precondition.accepts(current.revision())) {
                throw Rules.preconditionFailed(current);
            }
            return current;
        }

        /** Takes from the shared budget what the running totals need beyond what the batch took already. */
        private void reserveRunningPeak() {
            int timers = netTimers > reservedTimers ? 1 : 0;
            long bytes = Math.max(0, netBytes - reservedBytes);
            if (timers > 0 || bytes > 0) {
                capacity.reserve(timers, bytes);
                reservedTimers += timers;
                reservedBytes += bytes;
            }
        }

        /** Applies every decided record to the heap in order; nothing here refuses. */
        void apply() {
            for (Mutation mutation : mutations) {
                if (mutation instanceof Mutation.Added added) {
                    Timer t = added.timer();
                    heap.insert(t.id(), t.fireTime(), t.priority(), t.sequence(), 1, t.createdAt(), createdAtWall,
                            t.payload());
                } else if (mutation instanceof Mutation.Edited edited) {
                    heap.update(heap.find(edited.id()), edited.fireTime(), edited.priority());
                } else if (mutation instanceof Mutation.Cancelled cancelled) {
                    heap.remove(heap.find(cancelled.id()));
                }
            }
            if (adds > 0) {
                sequences.issued(sequences.last() + adds);
            }
            capacity.batchApplied(reservedTimers, reservedBytes, netTimers, netBytes);
            applied = true;
        }

        /** Gives the budget back what a refused batch took. */
        void giveBackReserved() {
            if (!applied) {
                capacity.unreserve(reservedTimers, reservedBytes);
            }
        }
    }

    /**
     * Moves the clock to {@code now + by} and fires every timer whose fireTime is at or before the new now, in
     * firing order. {@code by = 0} fires the timers due exactly now.
     *
     * @throws SchedulerException {@code invalid_advance} for a negative or too large {@code by}, or with a
     *                            recording {@code trace} when the advance would fire more than
     *                            {@link Limits#MAX_TRACED_FIRES}
     */
    public AdvanceResult advance(long by, Trace trace) {
        return advance(by, null, Integer.MAX_VALUE, trace);
    }

    /**
     * A bounded advance: moves the clock to {@code to} (or {@code now + by}: exactly one of them is given) and fires
     * the due timers in firing order, at most {@code limit} of them. When more are due, it fires the first
     * {@code limit}, moves the clock only to the last fired one's fireTime and answers {@code complete = false}; the
     * same call again ({@code to}) continues where it stopped.
     *
     * @throws SchedulerException {@code invalid_request} (both or neither of by and to), {@code invalid_limit},
     *                            {@code invalid_advance} (by out of range, to before now or more than
     *                            {@link Limits#MAX_DELAY} after it, or a recording trace that would fire more than
     *                            {@link Limits#MAX_TRACED_FIRES})
     */
    public AdvanceResult advance(Long by, Long to, int limit, Trace trace) {
        DeliveryTally tally = new DeliveryTally();
        AdvanceResult result = mutate(Operation.ADVANCE, () -> {
            if ((by == null) == (to == null)) {
                throw new SchedulerException(ErrorCode.INVALID_REQUEST, "an advance needs exactly one of by and to");
            }
            requireAdvanceLimit(limit);
        }, () -> {
            requireVirtual();
            long now = by != null ? Rules.fireTimeAfter(clock.now(), by, ErrorCode.INVALID_ADVANCE, "by")
                    : requireReachable(to);
            if (settings.queues()) {
                return advanceIntoQueue(now, limit, trace, tally);
            }
            return advanceWithin(now, limit, trace);
        });
        metrics.advanced(result.fired().size());
        tally.reportTo(metrics);
        return result;
    }

    /**
     * Moves the clock to its earliest pending event (a timer coming due, a lease ending, a retry becoming ready; see
     * {@link NextEvent#earliest}) and advances there as {@link #advance} with {@code to} does, finding and reaching
     * the event under one hold of the lock. With nothing pending nothing changes and the event is null.
     *
     * @throws SchedulerException {@code invalid_limit}, {@code clock_not_virtual}, {@code invalid_advance} (a
     *                            recording trace that would fire too many), {@code capacity_exceeded}
     */
    public NextAdvance advanceToNext(int limit, Trace trace) {
        DeliveryTally tally = new DeliveryTally();
        NextEvent[] event = new NextEvent[1];
        AdvanceResult result = mutate(Operation.ADVANCE, () -> requireAdvanceLimit(limit), () -> {
            requireVirtual();
            int root = heap.peek();
            event[0] = NextEvent.earliest(root == IndexedTimerHeap.NONE ? Long.MAX_VALUE : heap.fireTime(root),
                    deliveries.nextLeaseEnd(), deliveries.nextRetryAt());
            if (event[0] == null) {
                return new Applied<>(new AdvanceResult(clock.now(), List.of()), 0, NO_LEVELS);
            }
            // a timer due at now (delay 0, or left by a bounded advance) is reached where the clock stands
            long now = Math.max(clock.now(), event[0].at());
            return settings.queues() ? advanceIntoQueue(now, limit, trace, tally) : advanceWithin(now, limit, trace);
        });
        metrics.advanced(result.fired().size());
        tally.reportTo(metrics);
        return new NextAdvance(result, event[0]);
    }

    private static void requireAdvanceLimit(int limit) {
        if (limit < 1) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "limit must be >= 1: " + limit);
        }
    }

    /** Refuses an advance of a clock that runs on the wall clock; call holding the lock. */
    private void requireVirtual() {
        if (!clock.isVirtual()) {
            throw new SchedulerException(ErrorCode.CLOCK_NOT_VIRTUAL, "this clock runs on the system clock and"
                    + " fires by itself; only a virtual clock can be advanced");
        }
    }

    /**
     * An advance of a queueing clock: its fired timers become deliveries, so it fires at most as many as the delivery
     * limit has room for (a bounded advance, {@code complete = false}, when that is fewer than are due).
     *
     * @throws SchedulerException {@code capacity_exceeded} when timers are due and the deliveries hold their limit
     */
    private Applied<AdvanceResult> advanceIntoQueue(long now, int limit, Trace trace, DeliveryTally tally) {
        int wanted = FiringOrderWalk.countDue(heap, now, limit);
        int granted = capacity.budget().reserveDeliveries(wanted);
        try {
            if (wanted > 0 && granted == 0) {
                throw new SchedulerException(ErrorCode.CAPACITY_EXCEEDED, "the deliveries hold their limit of "
                        + capacity.budget().maxDeliveries() + " (timeservice.deliveries.max); acknowledge or delete"
                        + " some before advancing further");
            }
            Applied<AdvanceResult> advanced = advanceWithin(now, wanted == 0 ? limit : granted, trace);
            int unused = granted - advanced.value().fired().size();
            capacity.budget().releaseDeliveries(unused);
            granted = 0;
            if (!advanced.value().fired().isEmpty()) {
                deliveriesChanged();
            }
            // leases and retries run on this clock's time too: the time it reached, short of now when bounded
            long settledAt = settleDeliveries(clock.now(), tally);
            return settledAt == 0 ? advanced : new Applied<>(advanced.value(), settledAt, advanced.levels());
        } finally {
            capacity.budget().releaseDeliveries(granted);
        }
    }

    /** Fires what is due by {@code now}, at most {@code limit}, as one record; see {@link #advance}. */
    private Applied<AdvanceResult> advanceWithin(long now, int limit, Trace trace) {
        // unbounded (the library's advance(by)): no count, fire whatever is due
        boolean complete = limit == Integer.MAX_VALUE || FiringOrderWalk.countDue(heap, now, limit + 1) <= limit;
        return advanceWithin(now, limit, trace, complete);
    }

    /** As {@link #advanceWithin(long, int, Trace)}, when the caller counted already whether all due fit {@code limit}. */
    private Applied<AdvanceResult> advanceWithin(long now, int limit, Trace trace, boolean complete) {
        if (trace.isRecording() && limit > Limits.MAX_TRACED_FIRES
                && FiringOrderWalk.countDue(heap, now, Limits.MAX_TRACED_FIRES + 1) > Limits.MAX_TRACED_FIRES) {
            throw new SchedulerException(ErrorCode.INVALID_ADVANCE, "a traced advance fires at most "
                    + Limits.MAX_TRACED_FIRES + " timers, and advancing to " + now + " would fire more; advance"
                    + " in smaller steps, with a lower limit or without trace");
        }
        log.requireWritable();
        int root = heap.peek();
        if (now == clock.now() && (root == IndexedTimerHeap.NONE || heap.fireTime(root) > now)) {
            // changes nothing, so nothing to record
            return new Applied<>(new AdvanceResult(now, List.of()), 0, NO_LEVELS);
        }
        if (complete) {
            Applied<Fired> fired = commit(new Mutation.Advanced(now), trace, () -> fireDue(now));
            return new Applied<>(fired.value().result(), fired.position(), fired.value().levels());
        }
        int[] first = FiringOrderWalk.firstInOrder(heap, limit);
        long stop = heap.fireTime(first[first.length - 1]);
        Applied<Fired> fired = commit(new Mutation.AdvancedFiring(stop, limit), trace,
                () -> fireFirst(stop, limit));
        return new Applied<>(fired.value().result(), fired.position(), fired.value().levels());
    }

    /** {@code to} as the clock's new time: not before now, at most {@link Limits#MAX_DELAY} after it. */
    private long requireReachable(long to) {
        long now = clock.now();
        if (to < now) {
            throw new SchedulerException(ErrorCode.INVALID_ADVANCE, "to (" + to + ") is before now (" + now
                    + "); the clock never goes back");
        }
        if (to - now > Limits.MAX_DELAY) {
            throw new SchedulerException(ErrorCode.INVALID_ADVANCE, "to (" + to + ") is more than " + Limits.MAX_DELAY
                    + " after now (" + now + ")");
        }
        return to;
    }

    /**
     * The pending timers due at or before {@code dueBy}, at most {@code limit}, in firing order, changing nothing:
     * what an advance to {@code dueBy} would fire.
     */
    public QueueListing dueBy(long dueBy, int limit) {
        if (limit < 1) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "limit must be >= 1: " + limit);
        }
        return read(Operation.LIST, () -> {
            int[] handles = FiringOrderWalk.firstInOrder(heap, limit);
            List<Timer> timers = new ArrayList<>(handles.length);
            for (int handle : handles) {
                if (heap.fireTime(handle) > dueBy) {
                    break;
                }
                timers.add(heap.timerAt(handle));
            }
            return new QueueListing(clock.now(), heap.size(), timers);
        });
    }

    // ---- deliveries (see DeliveryQueue) ----

    /** While the deliveries hold their limit, a system clock with due timers looks again this often. */
    static final long HELD_BACK_RETRY_MILLIS = 250;

    private static final SecureRandom CLAIM_RANDOM = new SecureRandom();

    /** This clock's settings. */
    public ClockSettings settings() {
        return lock.call(() -> {
            requireServing();
            return settings;
        });
    }

    /** This clock's deliveries by state, as of its last change; O(1), no lock. */
    public DeliveryCounts deliveryCounts() {
        return deliveryCounts;
    }

    /**
     * Leases up to {@code max} ready deliveries for {@code leaseMillis}, longest-ready first (first attempts in firing
     * order), each with its own claim token. With {@code waitMillis > 0} and nothing ready, waits until something
     * becomes ready or the wait ends (a long poll), outside the lock.
     *
     * @throws SchedulerException {@code invalid_limit}, {@code invalid_request} (lease or wait out of range),
     *                            {@code clock_not_queued}
     */
    public List<Delivery> claim(int max, long leaseMillis, long waitMillis) {
        Rules.requireClaim(max, leaseMillis, waitMillis);
        return LongPoll.claim(waitMillis, readySignal, () -> waitsEnded, () -> claimReady(max, leaseMillis));
    }

    private List<Delivery> claimReady(int max, long leaseMillis) {
        String claimPrefix = newClaimPrefix(); // outside the lock: the only random draw of a claim
        return deliveryCall(Operation.CLAIM, tally -> {
            requireQueue();
            long now = clock.now();
            long settledAt = settleDeliveries(now, tally);
            int count = Math.min(max, deliveries.readyCount());
            if (count == 0) {
                return new Applied<>(List.<Delivery>of(), settledAt, NO_LEVELS);
            }
            log.requireWritable();
            List<String> claims = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                claims.add(claimPrefix + Integer.toString(i, 36));
            }
            Applied<List<Delivery>> leased = commit(new Mutation.Claimed(now, leaseMillis, claims), Trace.NONE,
                    () -> deliveries.claim(now, leaseMillis, claims));
            tally.claimed(leased.value(), now, clock.isVirtual());
            deliveriesChanged();
            return leased;
        });
    }

    /**
     * Ends every long poll of this clock now and every later one at once (a claim still takes what is ready): the
     * service is shutting down, and a graceful shutdown should not wait out the polls.
     */
    public void endWaits() {
        waitsEnded = true;
        readySignal.signal();
    }

    /** Lets long polls of this clock wait again after {@link #endWaits} (the service was stopped and started). */
    public void allowWaits() {
        waitsEnded = false;
    }

    /** 128 random bits, URL-safe: every claim of one call is this plus its index, so no claim can be guessed. */
    private static String newClaimPrefix() {
        byte[] random = new byte[16];
        CLAIM_RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random) + ".";
    }

    /**
     * Acknowledges the delivery {@code id} leased by {@code claim}: it leaves the queue for good. Acknowledging a
     * recently acknowledged claim again succeeds and changes nothing.
     *
     * @throws SchedulerException {@code claim_lost} (see {@link #nack}), {@code clock_not_queued}
     */
    public void ack(String id, String claim) {
        deliveryCall(Operation.ACK, tally -> {
            requireQueue();
            Delivery leased = deliveries.requireClaim(id, claim, clock.now(), true);
            if (leased == null) {
                // acknowledged before: nothing to change, but the answer confirms that ack, so it waits for it too
                return new Applied<>(null, log.lastAppended(), NO_LEVELS);
            }
            log.requireWritable();
            Applied<Delivery> acked = commit(new Mutation.Acked(claim), Trace.NONE, () -> {
                Delivery gone = deliveries.ack(claim);
                capacity.deliveriesGone(1, Capacity.bytesOf(gone.id(), gone.payload()));
                deliveriesChanged();
                return gone;
            });
            tally.add(DeliveryEvent.ACKED, 1);
            return acked;
        });
    }

    /**
     * Acknowledges up to {@link Limits#MAX_CLAIM} deliveries in one journal record, waited for once: each as {@link #ack}
     * decides it, on its own. Returns, in order, null for each acknowledged (now or recently before) and
     * {@link ErrorCode#CLAIM_LOST} for each whose claim holds no lease, which changes nothing; a claim named twice
     * counts once.
     *
     * @throws SchedulerException {@code invalid_request} for no or more than {@link Limits#MAX_CLAIM} acks,
     *                            {@code clock_not_queued}
     */
    public List<ErrorCode> ackAll(List<Ack> acks) {
        Rules.requireAckCount(acks);
        return deliveryCall(Operation.ACK, tally -> {
            requireQueue();
            long now = clock.now();
            List<ErrorCode> outcomes = new ArrayList<>(acks.size());
            Set<String> accepted = new LinkedHashSet<>();
            for (Ack ack : acks) {
                try {
                    // a claim named again is still leased here (acks apply below), so another id is claim_lost
                    Delivery leased = deliveries.requireClaim(ack.id(), ack.claim(), now, true);
                    if (leased != null) {
                        accepted.add(ack.claim()); // a set: a claim named twice counts once
                    }
                    outcomes.add(null);
                } catch (SchedulerException lost) {
                    outcomes.add(lost.code());
                }
            }
            if (accepted.isEmpty()) {
                // each one lost or acknowledged before: those confirmed wait for their earlier acks as ack does
                return new Applied<>(outcomes, outcomes.contains(null) ? log.lastAppended() : 0, NO_LEVELS);
            }
            log.requireWritable();
            List<String> claims = List.copyOf(accepted);
            Applied<List<ErrorCode>> applied = commit(new Mutation.AckedAll(claims), Trace.NONE, () -> {
                long bytes = 0;
                for (String claim : claims) {
                    Delivery gone = deliveries.ack(claim);
                    bytes += Capacity.bytesOf(gone.id(), gone.payload());
                }
                capacity.deliveriesGone(claims.size(), bytes);
                deliveriesChanged();
                return outcomes;
            });
            tally.add(DeliveryEvent.ACKED, claims.size());
            return applied;
        });
    }

    /**
     * Gives the delivery {@code id} leased by {@code claim} back: ready again after {@code retryAfterMillis} (null:
     * the clock's backoff) with one more attempt, or dead if this was its last attempt. Returns it as it is now.
     *
     * @throws SchedulerException {@code claim_lost}: the claim holds no lease on a delivery of {@code id} (wrong
     *                            token, expired lease, acknowledged, or redelivered since), and nothing changed;
     *                            {@code invalid_request} for a retryAfter out of range; {@code clock_not_queued}
     */
    public Delivery nack(String id, String claim, Long retryAfterMillis) {
        if (retryAfterMillis != null && (retryAfterMillis < 0 || retryAfterMillis > RetryPolicy.MAX_BACKOFF_MILLIS)) {
            throw new SchedulerException(ErrorCode.INVALID_REQUEST, "retryAfter must be 0 to "
                    + RetryPolicy.MAX_BACKOFF_MILLIS + " ms: " + retryAfterMillis);
        }
        return deliveryCall(Operation.NACK, tally -> {
            requireQueue();
            long now = clock.now();
            Delivery leased = deliveries.requireClaim(id, claim, now, false);
            long retryAt = now + (retryAfterMillis != null ? retryAfterMillis
                    : settings.retry().backoffMillis(leased.sequence(), leased.attempt() + 1));
            log.requireWritable();
            Applied<Delivery> nacked = commit(new Mutation.Nacked(claim, now, retryAt), Trace.NONE, () -> {
                Delivery after = deliveries.nack(claim, now, retryAt);
                deliveriesChanged();
                return after;
            });
            tally.add(DeliveryEvent.NACKED, 1);
            if (nacked.value().state() == Delivery.State.DEAD) {
                tally.add(DeliveryEvent.DEAD, 1);
            }
            return nacked;
        });
    }

    /**
     * The lease {@code claim} holds on the delivery {@code id} ends {@code leaseMillis} from now instead.
     *
     * @throws SchedulerException {@code claim_lost} (see {@link #nack}), {@code invalid_request} for a lease out of
     *                            range, {@code clock_not_queued}
     */
    public Delivery extend(String id, String claim, long leaseMillis) {
        Rules.requireLease(leaseMillis);
        return mutate(Operation.EXTEND, () -> { }, () -> {
            requireQueue();
            long now = clock.now();
            deliveries.requireClaim(id, claim, now, false);
            log.requireWritable();
            return commit(new Mutation.Extended(claim, now, leaseMillis), Trace.NONE, () -> {
                Delivery extended = deliveries.extend(claim, now, leaseMillis);
                deliveriesChanged();
                return extended;
            });
        });
    }

    /** Every delivery of this clock in any state, by sequence: O(n log n) under the lock, for diagnostics and tests. */
    public List<Delivery> allDeliveries() {
        return lock.call(() -> {
            requireServing();
            List<Delivery> all = new ArrayList<>(deliveries.size());
            for (SavedDelivery saved : deliveries.image()) {
                all.add(saved.delivery());
            }
            all.sort(java.util.Comparator.comparingLong(Delivery::sequence));
            return all;
        });
    }

    /** Up to {@code limit} dead deliveries in sequence order, after {@code afterSequence} (0: from the first). */
    public List<Delivery> deadDeliveries(int limit, long afterSequence) {
        if (limit < 1) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "limit must be >= 1: " + limit);
        }
        return read(Operation.DEAD_LETTERS, () -> {
            requireQueue();
            return deliveries.deadPage(limit, afterSequence);
        });
    }

    /**
     * Makes the dead deliveries of {@code id} (only the one with {@code sequence} when it is not null) ready again,
     * from attempt 1. Returns them as they are now.
     *
     * @throws SchedulerException {@code delivery_not_found}, {@code clock_not_queued}
     */
    public List<Delivery> redrive(String id, Long sequence) {
        return deliveryCall(Operation.DEAD_LETTERS, tally -> {
            List<Long> sequences = requireDead(id, sequence);
            long now = clock.now();
            log.requireWritable();
            Applied<List<Delivery>> applied = commit(new Mutation.Redriven(now, sequences), Trace.NONE, () -> {
                List<Delivery> ready = deliveries.redrive(sequences, now);
                deliveriesChanged();
                return ready;
            });
            tally.add(DeliveryEvent.REDRIVEN, sequences.size());
            return applied;
        });
    }

    /**
     * Deletes the dead deliveries of {@code id} (only the one with {@code sequence} when it is not null). Returns
     * them as they were.
     *
     * @throws SchedulerException {@code delivery_not_found}, {@code clock_not_queued}
     */
    public List<Delivery> deleteDead(String id, Long sequence) {
        return deliveryCall(Operation.DEAD_LETTERS, tally -> {
            List<Long> sequences = requireDead(id, sequence);
            List<Delivery> before = deliveries.deadOf(id, sequence);
            log.requireWritable();
            Applied<List<Delivery>> applied = commit(new Mutation.DeadDeleted(sequences), Trace.NONE, () -> {
                long bytes = deliveries.deleteDead(sequences);
                capacity.deliveriesGone(sequences.size(), bytes);
                deliveriesChanged();
                return before;
            });
            tally.add(DeliveryEvent.DELETED, sequences.size());
            return applied;
        });
    }

    /**
     * One firing round of a system clock, for the firing thread: settles leases and retries, then fires what is due
     * by the wall clock's now (at most {@code maxTimers}, and no more than the deliveries have room for) into the
     * ready queue, and tells {@link #wakeups} when it next needs a round. Waits for nothing: a claim waits for its
     * own record, which follows. Returns how many timers it fired.
     */
    int fireRound(int maxTimers) {
        DeliveryTally tally = new DeliveryTally();
        long start = System.nanoTime();
        int fired = lock.call(() -> {
            requireServing();
            toldDeadline = Long.MAX_VALUE; // the firing thread took this clock's wake-up
            long now = clock.now();
            settleDeliveries(now, tally);
            int due = FiringOrderWalk.countDue(heap, now, maxTimers + 1); // one more tells whether all fit the round
            int wanted = Math.min(due, maxTimers);
            int granted = wanted == 0 ? 0 : capacity.budget().reserveDeliveries(wanted);
            int firedNow = 0;
            try {
                if (granted > 0) {
                    log.requireWritable();
                    List<Timer> timers = advanceWithin(now, granted, Trace.NONE, granted == due).value().fired();
                    firedNow = timers.size();
                    tally.fired(timers, wallClockMillis.getAsLong());
                }
            } finally {
                capacity.budget().releaseDeliveries(granted - firedNow);
            }
            boolean heldBack = firedNow < wanted;
            if (firedNow > 0) {
                deliveriesChanged();
            }
            deliveryCounts = countDeliveries(heldBack);
            long next = heldBack ? Math.min(nextDeadline(false), now + HELD_BACK_RETRY_MILLIS) : nextDeadline(true);
            if (next != Long.MAX_VALUE) {
                toldDeadline = next;
                wakeups.wakeAt(this, next);
            }
            return firedNow;
        });
        metrics.operation(Operation.ADVANCE, Outcome.SUCCESS, System.nanoTime() - start);
        metrics.advanced(fired);
        tally.reportTo(metrics);
        return fired;
    }

    /**
     * Records and applies a settle when a lease ended or a retry came due by {@code now}; returns the record's
     * position, 0 when there was nothing to settle.
     */
    private long settleDeliveries(long now, DeliveryTally tally) {
        if (!deliveries.needsSettle(now)) {
            return 0;
        }
        log.requireWritable();
        Applied<DeliveryQueue.Settled> settled = commit(new Mutation.DeliveriesSettled(now), Trace.NONE,
                () -> deliveries.settle(now));
        tally.settled(settled.value());
        deliveriesChanged();
        return settled.position();
    }

    /**
     * After any change of the deliveries: refreshes the counts gauges read, wakes long polls when something is
     * ready, and tells the firing thread if a lease or retry now comes due sooner than it knows.
     */
    private void deliveriesChanged() {
        deliveryCounts = countDeliveries(deliveryCounts.firingHeldBack());
        if (deliveries.readyCount() > 0) {
            readySignal.signal();
        }
        tellNextDeadline();
    }

    /** Tells the firing thread about a sooner deadline of this system clock. */
    private void tellNextDeadline() {
        if (clock.isVirtual()) {
            return;
        }
        long next = nextDeadline(!deliveryCounts.firingHeldBack());
        if (next < toldDeadline) {
            toldDeadline = next;
            wakeups.wakeAt(this, next);
        }
    }

    /** The earliest due timer (when {@code withTimers}), lease end or retry; {@link Long#MAX_VALUE} for none. */
    private long nextDeadline(boolean withTimers) {
        int root = heap.peek();
        long timers = withTimers && root != IndexedTimerHeap.NONE ? heap.fireTime(root) : Long.MAX_VALUE;
        return Math.min(timers, deliveries.nextDeadline());
    }

    private DeliveryCounts countDeliveries(boolean heldBack) {
        long oldest = deliveries.oldestReadyAt();
        return new DeliveryCounts(deliveries.readyCount(), deliveries.inFlightCount(), deliveries.waitingCount(),
                deliveries.deadCount(), oldest == Long.MAX_VALUE ? null : oldest, heldBack);
    }

    private void requireQueue() {
        if (!settings.queues()) {
            throw new SchedulerException(ErrorCode.CLOCK_NOT_QUEUED, "this clock returns fired timers from advance"
                    + " (delivery \"response\"); create a clock with delivery \"queue\" to claim deliveries");
        }
    }

    private List<Long> requireDead(String id, Long sequence) {
        requireQueue();
        List<Delivery> dead = id == null ? List.of() : deliveries.deadOf(id, sequence);
        if (dead.isEmpty()) {
            throw new SchedulerException(ErrorCode.DELIVERY_NOT_FOUND, "no dead delivery has id " + Rules.abbreviate(id)
                    + (sequence == null ? "" : " and sequence " + sequence));
        }
        List<Long> sequences = new ArrayList<>(dead.size());
        for (Delivery delivery : dead) {
            sequences.add(delivery.sequence());
        }
        return sequences;
    }

    /**
     * Runs one delivery call as {@link #mutate} does, handing {@code underLock} a tally of the delivery events it
     * causes, which is reported after the lock is released.
     */
    private <T> T deliveryCall(Operation operation, Function<DeliveryTally, Applied<T>> underLock) {
        DeliveryTally tally = new DeliveryTally();
        T result = mutate(operation, () -> { }, () -> underLock.apply(tally));
        tally.reportTo(metrics);
        return result;
    }

    /** Delivery events and latenesses one call collected under the lock, reported after it is released. */
    private static final class DeliveryTally {
        private final int[] counts = new int[DeliveryEvent.values().length];
        private long[] lateness = new long[0];
        private long[] lags = new long[0];

        void add(DeliveryEvent event, int count) {
            counts[event.ordinal()] += count;
        }

        void settled(DeliveryQueue.Settled settled) {
            add(DeliveryEvent.EXPIRED, settled.expired());
            add(DeliveryEvent.DEAD, settled.died());
            add(DeliveryEvent.REDELIVERED, settled.readied());
        }

        void claimed(List<Delivery> claimed, long now, boolean virtual) {
            add(DeliveryEvent.CLAIMED, claimed.size());
            if (!virtual) {
                lateness = new long[claimed.size()];
                for (int i = 0; i < lateness.length; i++) {
                    lateness[i] = Math.max(0, now - claimed.get(i).readyAt());
                }
            }
        }

        void fired(List<Timer> fired, long wallNow) {
            lags = new long[fired.size()];
            for (int i = 0; i < lags.length; i++) {
                lags[i] = Math.max(0, wallNow - fired.get(i).fireTime());
            }
        }

        void reportTo(SchedulerMetrics metrics) {
            for (DeliveryEvent event : DeliveryEvent.values()) {
                if (counts[event.ordinal()] > 0) {
                    metrics.deliveries(event, counts[event.ordinal()]);
                }
            }
            for (long millis : lateness) {
                metrics.deliveryLateness(millis);
            }
            for (long millis : lags) {
                metrics.fireLag(millis);
            }
        }
    }

    // ---- reads ----

    /** @throws SchedulerException {@code timer_not_found} */
    public Timer get(String id) {
        return read(Operation.GET, () -> heap.timerAt(requirePending(id)));
    }

    /**
     * The next timer to fire, without removing it. O(1).
     *
     * @throws SchedulerException {@code queue_empty}
     */
    public Timer peek() {
        return read(Operation.PEEK, () -> {
            int root = heap.peek();
            if (root == IndexedTimerHeap.NONE) {
                throw new SchedulerException(ErrorCode.QUEUE_EMPTY, "no timer is pending");
            }
            return heap.timerAt(root);
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
        if (limit < 1) {
            throw new SchedulerException(ErrorCode.INVALID_LIMIT, "limit must be >= 1: " + limit);
        }
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
                dropDeliveries();
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
        deliveriesChanged();
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
        lock.run(() -> {
            if (heap.size() != 0 || deliveries.size() != 0 || sequences.last() != 0 || log != MutationLog.NONE) {
                throw new IllegalStateException("recover needs a fresh scheduler");
            }
            SchedulerRecovery recovery = new SchedulerRecovery(heap, clock, deliveries, settings, this::clockFor);
            recovery.load(snapshot);
            for (Mutation mutation : journal) {
                recovery.replay(mutation);
            }
            takeOver(recovery);
        });
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
            SchedulerRecovery recovery = new SchedulerRecovery(heap, clock, deliveries, settings, this::clockFor);
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
        deliveryCounts = countDeliveries(false);
        sequences.recovered(recovery.lastSequence(), recovery.reservedSequences());
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
                dropDeliveries();
                deletedClock = name;
                readySignal.signal(); // long polls look again and hear clock_not_found
                return sequences.highestPossible();
            });
        });
        log.awaitDurable(applied.position());
        return applied.value();
    }

    /** Forgets every delivery, giving their share of the budget back (reset, clock deletion). */
    private void dropDeliveries() {
        capacity.deliveriesGone(deliveries.size(), deliveries.bytes());
        deliveries.clear();
        deliveriesChanged();
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
                return new Applied<>(null, 0, NO_LEVELS);
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
                    clock = clockFor(next);
                }
                settings = next;
                deliveries.policy(next.retry());
                deliveriesChanged();
                return null;
            });
        });
        log.awaitDurable(applied.position());
    }

    /** A fresh clock for {@code clockSettings}: the wall clock's time, or virtual time from 0. */
    SchedulerClock clockFor(ClockSettings clockSettings) {
        return clockSettings.isSystem() ? new SystemClock(wallClockMillis) : new VirtualClock(0);
    }

    /**
     * Lets a system clock ask {@code firing} for rounds, and asks for the first one now. Call once before serving,
     * after recovery.
     */
    public void fireWith(Wakeups firing) {
        lock.run(() -> {
            wakeups = firing;
            toldDeadline = Long.MAX_VALUE;
            if (!clock.isVirtual()) {
                // at once: whatever came due while the service was down fires now (catch-up)
                toldDeadline = Long.MIN_VALUE;
                firing.wakeAt(this, Long.MIN_VALUE);
            }
        });
    }

    /** Holds this scheduler's lock on the calling thread until {@link #releaseForSnapshot}: a multi-clock cut. */
    void holdForSnapshot() {
        lock.hold();
    }

    void releaseForSnapshot() {
        lock.release();
    }

    /** This scheduler's state for a snapshot; call between {@link #holdForSnapshot} and its release. */
    SchedulerState stateForSnapshot() {
        return new SchedulerState(clock.now(), sequences.last(), sequences.reserved(), heap.image(), 0, settings,
                deliveries.image(), deliveries.recentAcks());
    }

    /**
     * Hands this clock's state to {@code whileHeld} under the lock (which journals a copy of it, so no change of
     * this clock comes between the state and the record) and returns what it returns. O(n) under the lock.
     */
    <T> T copied(Function<SchedulerState, T> whileHeld) {
        return lock.call(() -> {
            requireServing();
            return whileHeld.apply(stateForSnapshot());
        });
    }

    /** Whether the clock is deleted; call holding the lock (between hold and release for a snapshot). */
    boolean deletedWhileHeld() {
        return deletedClock != null;
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
        tellNextDeadline(); // a system clock's new earliest timer, lease or retry wakes the firing thread sooner
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
                HeapImage image = heap.image();
                List<SavedDelivery> saved = deliveries.image();
                List<RecentAck> acks = deliveries.recentAcks();
                log.snapshot(new SchedulerState(clock.now(), sequences.last(), sequences.reserved(), image,
                        System.nanoTime() - start, settings, saved, acks));
            }
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "could not start a snapshot; the journal keeps every record", e);
        }
    }

    /** Refuses every call once the scheduler has stopped (fail-stop). Call first in every call under the lock. */
    private void requireServing() {
        if (deletedClock != null) {
            throw new SchedulerException(ErrorCode.CLOCK_NOT_FOUND, "clock " + deletedClock + " was deleted");
        }
        failStop.requireServing(log);
    }

    /** Moves the clock to {@code now} and fires every due timer, noting the levels each one's repair moved. */
    private Fired fireDue(long now) {
        clock.advanceTo(now);
        FiredCollector fired = new FiredCollector(Math.min(heap.size(), 8));
        heap.popDue(now, Integer.MAX_VALUE, fired);
        fired.release();
        return new Fired(new AdvanceResult(now, fired.timers), fired.levels());
    }

    /** Moves the clock to {@code now} and fires exactly the first {@code count} timers (all due by then). */
    private Fired fireFirst(long now, int count) {
        clock.advanceTo(now);
        FiredCollector fired = new FiredCollector(count);
        heap.popDue(now, count, fired);
        fired.release();
        return new Fired(new AdvanceResult(now, fired.timers, false), fired.levels());
    }

    /**
     * Collects what {@link IndexedTimerHeap#popDue} fires: the timers, their bytes and each one's repair levels; a
     * queueing clock's fired timers become deliveries as they come.
     */
    private final class FiredCollector implements IndexedTimerHeap.FiredTimers {
        private final List<Timer> timers;
        private int[] levels;
        private long bytes;

        FiredCollector(int expected) {
            timers = new ArrayList<>(expected);
            levels = new int[expected];
        }

        @Override
        public void fired(int handle, long fireTime, int priority, long sequence, int levelsMoved) {
            Timer timer = heap.records().timer(handle, fireTime, priority, sequence);
            if (timers.size() == levels.length) {
                levels = Arrays.copyOf(levels, Math.max(8, levels.length * 2));
            }
            levels[timers.size()] = levelsMoved;
            timers.add(timer);
            bytes += Capacity.bytesOf(timer);
            if (settings.queues()) {
                deliveries.fired(timer);
            }
        }

        /** The fired timers leave the heap's budget share: given back, or kept by their deliveries. */
        void release() {
            if (settings.queues()) {
                capacity.firedToDeliveries(bytes);
            } else {
                capacity.removed(timers.size(), bytes);
            }
        }

        int[] levels() {
            return Arrays.copyOf(levels, timers.size());
        }
    }

    /** What an advance's apply step hands back: the result and each fired timer's repair levels, in firing order. */
    private record Fired(AdvanceResult result, int[] levels) {
    }

    private int requirePending(String id) {
        int handle = id == null ? IndexedTimerHeap.NONE : heap.find(id);
        if (handle == IndexedTimerHeap.NONE) {
            throw new SchedulerException(ErrorCode.TIMER_NOT_FOUND, "no pending timer has id " + Rules.abbreviate(id));
        }
        return handle;
    }

    /**
     * Runs one mutation: {@code validate} outside the lock, {@code underLock} under it, then waits until the log has
     * it; timed and counted as {@link #measured}.
     */
    private <T> T mutate(Operation operation, Runnable validate, Supplier<Applied<T>> underLock) {
        return measured(operation, validate, true, underLock);
    }

    /** Runs one read under the lock; timed and counted as {@link #measured}. */
    private <T> T read(Operation operation, Supplier<T> underLock) {
        return measured(operation, () -> { }, false, () -> new Applied<>(underLock.get(), 0, NO_LEVELS));
    }

    /**
     * The one shape of every counted operation: {@code validate} outside the lock, {@code underLock} under it after
     * the fail-stop check, then (a change) the wait until the log has it; the operation, refusals included, and its
     * sift levels are reported after the lock is released.
     */
    private <T> T measured(Operation operation, Runnable validate, boolean durable, Supplier<Applied<T>> underLock) {
        long start = System.nanoTime();
        Outcome outcome = Outcome.REJECTED;
        int[] levels = NO_LEVELS;
        try {
            validate.run();
            Applied<T> applied = lock.call(() -> {
                requireServing();
                return underLock.get();
            });
            levels = applied.levels();
            if (durable) {
                log.awaitDurable(applied.position());
            }
            outcome = Outcome.SUCCESS;
            return applied.value();
        } catch (SchedulerException refused) {
            outcome = Outcome.of(refused.code());
            throw refused;
        } finally {
            report(operation, outcome, start, levels);
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

    /**
     * What an operation under the lock hands back: its result, its log position (0: nothing to wait for) and the
     * levels each of its heap sifts moved.
     */
    private record Applied<T>(T value, long position, int[] levels) {
    }

    /** Reports one operation; call after releasing the lock. */
    private void report(Operation operation, Outcome outcome, long startNanos, int[] siftLevels) {
        metrics.operation(operation, outcome, System.nanoTime() - startNanos);
        for (int levels : siftLevels) {
            metrics.siftLevels(levels);
        }
    }
}
