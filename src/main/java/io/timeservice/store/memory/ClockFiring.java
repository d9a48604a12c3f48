package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.StoreMetrics.Outcome;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockDeliveries.DeliveryTally;
import io.timeservice.store.memory.heap.FiringOrderWalk;
import io.timeservice.store.memory.heap.IndexedTimerHeap;
import io.timeservice.store.memory.time.FiringRounds;
import io.timeservice.store.memory.time.ScaledClock;
import io.timeservice.store.memory.time.TimeSource;
import io.timeservice.store.memory.time.Wakeups;

/**
 * How one clock's due timers fire: an advance (its checks, and its firing into its answer, or into the ready queue of
 * a queueing clock within the delivery limit), a system clock's firing rounds, and the wake-ups it asks the firing
 * thread for.
 *
 * <p>Not thread-safe by itself: call every method under the clock's lock, except {@link #advance} and
 * {@link #fireRound}, which take it through the {@link ClockKernel}.
 */
final class ClockFiring implements FiringRounds {

    /** While the deliveries hold their limit, a system clock with due timers looks again this often. */
    static final long HELD_BACK_RETRY_MILLIS = 250;

    /** A refused firing round is tried again this long after it, doubling per refusal in a row ... */
    static final long REFUSED_RETRY_MILLIS = 10;

    /** ... up to this. */
    static final long REFUSED_RETRY_MAX_MILLIS = 1_000;


    private final ClockKernel kernel;
    private final IndexedTimerHeap heap;
    private final DeliveryQueue deliveries;
    private final Capacity capacity;
    private final ClockDeliveries clockDeliveries;
    private final LongSupplier wallClockMillis;
    private final StoreMetrics metrics;
    /** The clock's schedules, whose occurrences a firing step passes through one fireTime at a time. */
    private final ClockScheduleCalls scheduleCalls;
    /** Where a system clock asks for firing rounds; set by {@link #fireWith} before serving. */
    private Wakeups wakeups = Wakeups.NONE;
    /**
     * The earliest deadline told to {@link #wakeups} and not yet taken by a firing round, in wall-clock time (which a
     * scaled clock's deadlines are turned into, {@link TimeSource#wallTimeOf}).
     */
    private long toldDeadline = Long.MAX_VALUE;
    /** Firing rounds refused in a row (journal back-pressure); sets the backoff of the next try. */
    private int refusedRounds;
    /** The clock's name as the registry knows it, for {@link StoreMetrics#fired}. */
    private volatile String name = Limits.DEFAULT_CLOCK;

    ClockFiring(ClockKernel kernel, IndexedTimerHeap heap, DeliveryQueue deliveries, Capacity capacity,
                ClockDeliveries clockDeliveries, LongSupplier wallClockMillis, StoreMetrics metrics,
                ClockScheduleCalls scheduleCalls) {
        this.kernel = kernel;
        this.heap = heap;
        this.deliveries = deliveries;
        this.capacity = capacity;
        this.clockDeliveries = clockDeliveries;
        this.wallClockMillis = wallClockMillis;
        this.metrics = metrics;
        this.scheduleCalls = scheduleCalls;
    }

    void named(String name) {
        this.name = name;
    }

    /** See {@link MemoryClock#advance(Long, Long, int, Trace)}. */
    AdvanceResult advance(Long by, Long to, int limit, Trace trace) {
        DeliveryTally tally = new DeliveryTally();
        AdvanceResult result = kernel.mutate(Operation.ADVANCE, () -> {
            ClockRules.requireAdvanceForm(by, to);
            TimerRules.requireLimit(limit);
        }, () -> {
            TimeSource clock = requireVirtual();
            long now = by != null ? TimeRules.fireTimeAfter(clock.now(), by, ErrorCode.INVALID_ADVANCE, "by")
                    : TimeRules.advanceTarget(clock.now(), to);
            return advanceTo(now, limit, trace, tally);
        });
        metrics.advanced(result.fired().size());
        if (!result.fired().isEmpty()) {
            metrics.fired(name, result.fired());
        }
        tally.reportTo(metrics);
        return result;
    }

    /**
     * Moves the clock to its earliest pending event (a timer coming due, a lease ending, a retry becoming ready; see
     * {@link NextEvent#earliest}) and advances there as {@link #advance} with {@code to} does, finding and reaching
     * the event under one hold of the lock. With nothing pending nothing changes and the event is null.
     *
     * @throws ProblemException {@code invalid_limit}, {@code clock_not_virtual}, {@code invalid_advance} (a
     *                            recording trace that would fire too many), {@code capacity_exceeded}
     */
    NextAdvance advanceToNext(int limit, Trace trace) {
        DeliveryTally tally = new DeliveryTally();
        NextEvent[] event = new NextEvent[1];
        AdvanceResult result = kernel.mutate(Operation.ADVANCE, () -> TimerRules.requireLimit(limit), () -> {
            TimeSource clock = requireVirtual();
            int root = heap.peek();
            event[0] = NextEvent.earliest(root == IndexedTimerHeap.NONE ? Long.MAX_VALUE : heap.fireTime(root),
                    deliveries.nextLeaseEnd(), deliveries.nextRetryAt());
            if (event[0] == null) {
                return new Applied<>(new AdvanceResult(clock.now(), List.of()), 0, Applied.NO_LEVELS);
            }
            // a timer due at now (delay 0, or left by a bounded advance) is reached where the clock stands
            return advanceTo(Math.max(clock.now(), event[0].at()), limit, trace, tally);
        });
        metrics.advanced(result.fired().size());
        if (!result.fired().isEmpty()) {
            metrics.fired(name, result.fired());
        }
        tally.reportTo(metrics);
        return new NextAdvance(result, event[0]);
    }

    /** Fires what is due by {@code now} into the clock's delivery mode; call holding the lock. */
    private Applied<AdvanceResult> advanceTo(long now, int limit, Trace trace, DeliveryTally tally) {
        return kernel.settings().queues() ? advanceIntoQueue(now, limit, trace, tally)
                : advanceWithin(now, limit, trace);
    }

    /** The clock, refused unless it is virtual (a clock on the wall clock fires by itself); call holding the lock. */
    private TimeSource requireVirtual() {
        TimeSource clock = kernel.clock();
        if (!clock.isVirtual()) {
            throw ClockRules.clockNotVirtual(kernel.settings().mode());
        }
        return clock;
    }

    /**
     * An advance of a queueing clock: its fired timers become deliveries, so it fires at most as many as the delivery
     * limit has room for (a bounded advance, {@code complete = false}, when that is fewer than are due). With no room
     * at all, the time still moves to {@code now} without firing ({@link #passHeldBack}).
     *
     * @throws ProblemException {@code capacity_exceeded} when timers are due, the deliveries hold their limit and
     *                            the clock is at {@code now} already
     */
    Applied<AdvanceResult> advanceIntoQueue(long now, int limit, Trace trace, DeliveryTally tally) {
        int wanted = wantedDeliveries(now, limit);
        int granted = capacity.budget().reserveDeliveries(wanted);
        try {
            Applied<AdvanceResult> advanced = wanted > 0 && granted == 0 ? passHeldBack(now)
                    : advanceWithin(now, wanted == 0 ? limit : granted, trace);
            int unused = granted - advanced.value().fired().size();
            capacity.budget().releaseDeliveries(unused);
            granted = 0;
            if (!advanced.value().fired().isEmpty()) {
                clockDeliveries.changed();
            }
            // leases and retries run on this clock's time too: the time it reached, short of now when bounded
            long settledAt = clockDeliveries.settle(kernel.clock().now(), tally);
            return settledAt == 0 ? advanced : new Applied<>(advanced.value(), settledAt, advanced.levels());
        } finally {
            capacity.budget().releaseDeliveries(granted);
        }
    }

    /**
     * The deliveries hold their limit, so nothing due can fire; the clock's time still moves to {@code now}, since
     * only on its time do leases end and retries come due (else a clock whose workers hold leases past its next due
     * timer could never move again). The due timers stay pending, overdue, and fire in order on a later advance once
     * there is room; {@link TimeSource#firedThrough} stays where firing stopped. Answers {@code complete = false}:
     * the same call again goes on.
     *
     * @throws ProblemException {@code capacity_exceeded} when the clock is at {@code now} already: nothing to change
     */
    private Applied<AdvanceResult> passHeldBack(long now) {
        if (now == kernel.clock().now()) {
            throw ClockRules.deliveriesHeldBack(now, capacity.budget().maxDeliveries());
        }
        kernel.log().requireWritable();
        Applied<Void> passed = kernel.commit(new Mutation.Passed(now), () -> {
            kernel.clock().passTo(now);
            return null;
        });
        return new Applied<>(new AdvanceResult(now, List.of(), false), passed.position(), Applied.NO_LEVELS);
    }

    /** Fires what is due by {@code now}, at most {@code limit}, as one record; see {@link MemoryClock#advance}. */
    Applied<AdvanceResult> advanceWithin(long now, int limit, Trace trace) {
        // unbounded (the library's advance(by)): no count, fire whatever is due
        boolean complete = limit == Integer.MAX_VALUE || FiringOrderWalk.countDue(heap, now, limit + 1) <= limit;
        return advanceWithin(now, limit, trace, complete);
    }

    /** As {@link #advanceWithin(long, int, Trace)}, when the caller counted already whether all due fit {@code limit}. */
    private Applied<AdvanceResult> advanceWithin(long now, int limit, Trace trace, boolean complete) {
        if (trace.isRecording() && limit > Limits.MAX_TRACED_FIRES
                && FiringOrderWalk.countDue(heap, now, Limits.MAX_TRACED_FIRES + 1) > Limits.MAX_TRACED_FIRES) {
            throw ClockRules.tracedAdvanceTooLarge(now);
        }
        kernel.log().requireWritable();
        int root = heap.peek();
        if (now == kernel.clock().now() && (root == IndexedTimerHeap.NONE || heap.fireTime(root) > now)) {
            // changes nothing, so nothing to record
            return new Applied<>(new AdvanceResult(now, List.of()), 0, Applied.NO_LEVELS);
        }
        if (scheduleCalls.schedules().hasOccurrences()) {
            // successors come due within the step: fired one fireTime at a time, in one record with their firing
            long wall = wallClockMillis.getAsLong();
            Applied<Fired> fired = kernel.commit(new Mutation.ScheduledFiring(now, limit, scheduleCalls.nextSequence(),
                    wall), trace, () -> fireScheduled(now, limit, wall));
            return new Applied<>(fired.value().result(), fired.position(), fired.value().levels());
        }
        if (complete) {
            Applied<Fired> fired = kernel.commit(new Mutation.Advanced(now), trace, () -> fireDue(now));
            return new Applied<>(fired.value().result(), fired.position(), fired.value().levels());
        }
        int[] first = FiringOrderWalk.firstInOrder(heap, limit);
        long stop = heap.fireTime(first[first.length - 1]);
        Applied<Fired> fired = kernel.commit(new Mutation.AdvancedFiring(stop, limit), trace,
                () -> fireFirst(stop, limit));
        return new Applied<>(fired.value().result(), fired.position(), fired.value().levels());
    }

    /**
     * One firing round of a system clock, for the firing thread: settles leases and retries, then fires what is due
     * by the wall clock's now (at most {@code maxTimers}, and no more than the deliveries have room for) into the
     * ready queue, and tells {@link #wakeups} when it next needs a round. Waits for nothing: a claim waits for its
     * own record, which follows. Returns how many timers it fired. A round the journal refuses (back-pressure:
     * {@code storage_unavailable}) changes nothing, asks for another after a backoff that doubles up to
     * {@link #REFUSED_RETRY_MAX_MILLIS}, and throws, so that the firing thread shows it in health and metrics.
     */
    @Override
    public int fireRound(int maxTimers) {
        DeliveryTally tally = new DeliveryTally();
        long start = System.nanoTime();
        Outcome outcome = Outcome.SUCCESS;
        int fired = 0;
        List<Timer> firedTimers = new ArrayList<>(0);
        try {
            fired = kernel.serving(() -> {
                toldDeadline = Long.MAX_VALUE; // the firing thread took this clock's wake-up
                long now = kernel.clock().now();
                try {
                    int firedNow = fireDueRound(now, maxTimers, tally, firedTimers);
                    refusedRounds = 0;
                    return firedNow;
                } catch (ProblemException refused) {
                    // journal back-pressure refused a step (each step is all or nothing): without a new wake-up this
                    // clock would never get another round, so it asks for one after a backoff (in wall time)
                    long retryAt = wallClockMillis.getAsLong() + Math.min(REFUSED_RETRY_MAX_MILLIS,
                            REFUSED_RETRY_MILLIS << Math.min(refusedRounds, 20));
                    refusedRounds++;
                    toldDeadline = retryAt;
                    wakeups.wakeAt(this, retryAt);
                    throw refused;
                }
            });
            return fired;
        } catch (ProblemException refused) {
            outcome = Outcome.of(refused.code());
            throw refused;
        } finally {
            metrics.operation(Operation.ADVANCE, outcome, System.nanoTime() - start);
            metrics.advanced(fired);
            if (!firedTimers.isEmpty()) {
                metrics.fired(name, firedTimers);
            }
            tally.reportTo(metrics);
        }
    }

    /** The body of {@link #fireRound} under the lock: settles, fires, and asks for the next round. */
    private int fireDueRound(long now, int maxTimers, DeliveryTally tally, List<Timer> firedTimers) {
        clockDeliveries.settle(now, tally);
        int due = FiringOrderWalk.countDue(heap, now, maxTimers + 1); // one more tells whether all fit the round
        int wanted = due == 0 ? 0 : wantedDeliveries(now, maxTimers);
        int granted = wanted == 0 ? 0 : capacity.budget().reserveDeliveries(wanted);
        int firedNow = 0;
        try {
            if (granted > 0) {
                kernel.log().requireWritable();
                List<Timer> timers = advanceWithin(now, granted, Trace.NONE, granted == due).value().fired();
                firedNow = timers.size();
                firedTimers.addAll(timers);
                if (kernel.settings().isSystem()) { // fire lag is wall-clock time, which only a system clock keeps
                    tally.fired(timers, wallClockMillis.getAsLong());
                }
            }
        } finally {
            capacity.budget().releaseDeliveries(granted - firedNow);
        }
        // held back only while due timers wait for room: a skipped occurrence takes none, a successor may need one
        int root = heap.peek();
        boolean heldBack = granted < wanted && root != IndexedTimerHeap.NONE && heap.fireTime(root) <= now;
        if (firedNow > 0) {
            clockDeliveries.changed();
        }
        clockDeliveries.recount(heldBack);
        long next = kernel.clock().wallTimeOf(nextDeadline(!heldBack));
        if (heldBack) {
            next = Math.min(next, wallClockMillis.getAsLong() + HELD_BACK_RETRY_MILLIS);
        }
        if (next != Long.MAX_VALUE) { // a frozen scaled clock waits for a rate change (or a new deadline)
            toldDeadline = next;
            wakeups.wakeAt(this, next);
        }
        return firedNow;
    }

    /**
     * Changes a scaled clock's rate from now on, journaled first: its time function is anchored anew at the wall
     * clock's now and the clock's time there, so the time is continuous; the firing thread's wake-up is worked out
     * again at the new rate (an earlier one told before only costs a round that finds nothing due). Hands the new
     * settings to {@code settled} under the lock and answers them once the journal holds the change.
     *
     * @throws ProblemException {@code clock_not_scaled}, {@code storage_unavailable}
     */
    ClockSettings rerate(ClockRate next, Consumer<ClockSettings> settled) {
        Applied<ClockSettings> applied = kernel.serving(() -> {
            if (!(kernel.clock() instanceof ScaledClock scaled)) {
                throw ClockRules.clockNotScaled(kernel.settings().mode());
            }
            kernel.log().requireWritable();
            ScaledTime time = scaled.rerated(next);
            ClockSettings changed = kernel.settings().withRate(next);
            return kernel.commit(new Mutation.RateChanged(time), () -> {
                scaled.follow(time);
                settled.accept(changed);
                toldDeadline = Long.MAX_VALUE; // told at the old rate: the commit tells the new one
                return changed;
            });
        });
        kernel.log().awaitDurable(applied.position());
        return applied.value();
    }

    /**
     * How many deliveries a step to {@code now} may need, at most {@code limit}: the timers due, and on a clock with
     * schedules room for the successors that come due within the step too (each schedule fires at most max-catch-up
     * per step, and is popped once more when the rest is skipped). Call under the lock.
     */
    private int wantedDeliveries(long now, int limit) {
        int due = FiringOrderWalk.countDue(heap, now, limit);
        ClockSchedules schedules = scheduleCalls.schedules();
        if (due == 0 || !schedules.hasOccurrences()) {
            return due;
        }
        long bound = due + (long) schedules.occurrenceCount() * (scheduleCalls.maxCatchUp() + 1L);
        return (int) Math.min(limit, bound);
    }

    /** The clock was deleted: the firing thread forgets it. Call under the lock. */
    void forget() {
        toldDeadline = Long.MAX_VALUE;
        wakeups.forget(this);
    }


    /** Tells the firing thread about a sooner deadline of this clock, when it fires by itself. */
    void tellNextDeadline() {
        if (kernel.clock().isVirtual()) {
            return;
        }
        long next = kernel.clock().wallTimeOf(nextDeadline(!clockDeliveries.counts().firingHeldBack()));
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

    /**
     * Lets a system clock ask {@code firing} for rounds, and asks for the first one now. Call under the lock,
     * once before serving, after recovery.
     */
    void fireWith(Wakeups firing) {
        wakeups = firing;
            toldDeadline = Long.MAX_VALUE;
        if (!kernel.clock().isVirtual()) {
            // at once: whatever came due while the service was down fires now (catch-up)
            toldDeadline = Long.MIN_VALUE;
            firing.wakeAt(this, Long.MIN_VALUE);
        }
    }

    /** Moves the clock to {@code now} and fires every due timer, noting the levels each one's repair moved. */
    private Fired fireDue(long now) {
        kernel.clock().advanceTo(now);
        FiredCollector fired = new FiredCollector(Math.min(heap.size(), 8));
        heap.popDue(now, Integer.MAX_VALUE, fired);
        fired.release();
        return new Fired(new AdvanceResult(now, fired.timers), fired.levels());
    }

    /**
     * Fires what is due by {@code now}, at most {@code maxPops} timers (fired or skipped), on a clock with schedules:
     * one fireTime at a time, each occurrence's successor added after its fireTime's timers, so a successor due by
     * {@code now} fires in its place in the firing order. Moves the clock to {@code now}, or to the last fireTime
     * reached when {@code maxPops} stopped it. {@link ClockRecovery} replays the same steps.
     */
    private Fired fireScheduled(long now, int maxPops, long wall) {
        ClockSchedules schedules = scheduleCalls.schedules();
        scheduleCalls.live().at(now, wall, -1);
        schedules.beginStep();
        FiredCollector fired = new FiredCollector(8);
        fired.stepAt(now);
        int popped = 0;
        long last = kernel.clock().now();
        while (popped < maxPops) {
            int root = heap.peek();
            if (root == IndexedTimerHeap.NONE || heap.fireTime(root) > now) {
                break;
            }
            last = heap.fireTime(root);
            popped += heap.popDue(last, maxPops - popped, fired);
            schedules.addSuccessors(last);
        }
        int root = heap.peek();
        boolean complete = root == IndexedTimerHeap.NONE || heap.fireTime(root) > now;
        kernel.clock().advanceTo(complete ? now : Math.max(last, kernel.clock().now()));
        long skippedAtEnd = schedules.endStep(complete ? now : last); // where the firing reached
        fired.release();
        metrics.scheduleOccurrences(fired.occurrencesFired, (int) Math.min(Integer.MAX_VALUE,
                fired.skipped + skippedAtEnd));
        return new Fired(new AdvanceResult(kernel.clock().now(), fired.timers, complete), fired.levels());
    }

    /**
     * Fires exactly the first {@code count} timers (all due by {@code now}) and moves the clock to {@code now}, or
     * leaves it where it is when it had passed on ({@link #passHeldBack}).
     */
    private Fired fireFirst(long now, int count) {
        kernel.clock().advanceTo(now);
        FiredCollector fired = new FiredCollector(count);
        heap.popDue(now, count, fired);
        fired.release();
        return new Fired(new AdvanceResult(kernel.clock().now(), fired.timers, false), fired.levels());
    }

    /**
     * Collects what {@link IndexedTimerHeap#popDue} fires: the timers, their bytes and each one's repair levels; a
     * queueing clock's fired timers become deliveries as they come.
     */
    private final class FiredCollector implements IndexedTimerHeap.FiredTimers {
        private final List<Timer> timers;
        private int[] levels;
        private long bytes;
        /** A scheduled step's target time, or {@link Long#MIN_VALUE} when the clock's schedules play no part. */
        private long stepNow = Long.MIN_VALUE;
        private int skipped;
        private long skippedBytes;
        private int occurrencesFired;

        FiredCollector(int expected) {
            timers = new ArrayList<>(expected);
            levels = new int[expected];
        }

        /** Each popped timer is told to the schedules, for a step to {@code now}. */
        void stepAt(long now) {
            stepNow = now;
        }

        @Override
        public void fired(int handle, long fireTime, int priority, long sequence, int levelsMoved) {
            Timer timer = heap.records().timer(handle, fireTime, priority, sequence);
            if (stepNow != Long.MIN_VALUE) {
                String owner = scheduleCalls.ownerOf(timer.id());
                ClockSchedules.Reached reached = scheduleCalls.schedules().reached(timer.id(), fireTime, stepNow,
                        kernel.clock().isVirtual(), scheduleCalls.maxCatchUp());
                if (reached == ClockSchedules.Reached.SKIP) {
                    skipped++;
                    skippedBytes += Capacity.bytesOf(timer);
                    return;
                }
                if (reached == ClockSchedules.Reached.FIRE) {
                    timer = timer.ofSchedule(owner);
                    occurrencesFired++;
                }
            }
            if (timers.size() == levels.length) {
                levels = Arrays.copyOf(levels, Math.max(8, levels.length * 2));
            }
            levels[timers.size()] = levelsMoved;
            timers.add(timer);
            bytes += Capacity.bytesOf(timer);
            kernel.reservations().fired(timer);
            if (kernel.settings().queues()) {
                deliveries.fired(timer);
            }
        }

        /** The fired timers leave the heap's budget share: given back, or kept by their deliveries. */
        void release() {
            if (kernel.settings().queues()) {
                capacity.firedToDeliveries(bytes);
            } else {
                capacity.removed(timers.size(), bytes);
            }
            if (skipped > 0) {
                capacity.removed(skipped, skippedBytes);
            }
        }

        int[] levels() {
            return Arrays.copyOf(levels, timers.size());
        }
    }

    /** What an advance's apply step hands back: the result and each fired timer's repair levels, in firing order. */
    private record Fired(AdvanceResult result, int[] levels) {
    }
}
