package io.timeservice.store.memory;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import io.timeservice.model.Ack;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.CronParser;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.Precondition;
import io.timeservice.model.OnConflict;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.Reservation;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.heap.IndexedTimerHeap;
import io.timeservice.store.memory.time.TimeSource;
import io.timeservice.store.memory.time.VirtualClock;
import io.timeservice.store.memory.time.Wakeups;

/**
 * One clock of the memory store: its time, its pending timers in an {@link IndexedTimerHeap}, its deliveries and
 * schedules, behind one lock. This class is the clock's face and its lifecycle (configuration, recovery, snapshot
 * copies, deletion); the work is done by one class per job, all under the lock of the clock's {@link ClockKernel},
 * which also keeps the all-or-nothing, journal-first rule and the fail-stop:
 *
 * <ul>
 * <li>{@link TimerChanges}: add, cancel, edit, batch, reset;</li>
 * <li>{@link TimerReads}: get, peek, listings in firing order, status, heap views and invariant reports;</li>
 * <li>{@link ClockFiring}: advances, a running clock's firing rounds and the wake-ups it asks for;</li>
 * <li>{@link ClockDeliveries}: a queueing clock's claims, acks, nacks, leases and dead letters;</li>
 * <li>{@link ClockScheduleCalls}: the clock's schedules, whose occurrences are timers of its heap.</li>
 * </ul>
 *
 * <p>Thread-safe: every public method does its whole read or mutation under the one lock, so each is atomic and
 * they are linearizable in the order they run. Arguments are validated before anything changes, and a refused call
 * throws {@link ProblemException} with the state untouched. Firing order is (fireTime, priority, sequence)
 * ascending.
 */
public final class MemoryClock {

    private final ClockKernel kernel;
    private final LongSupplier wallClockMillis;
    private final TimerChanges changes;
    private final TimerReads reads;
    /** Advances' and firing rounds' firing and a system clock's wake-ups. */
    private final ClockFiring firing;
    /** Claims, acks, nacks, leases and dead letters of a queueing clock's deliveries. */
    private final ClockDeliveries clockDeliveries;
    /** The clock's schedules, whose occurrences are timers of this heap. */
    private final ClockScheduleCalls schedules;
    private final ClockLifecycle lifecycle;
    /** Overrides of single keys' flow control. */
    private final ClockFlowKeys flowKeys;

    /** A clock without a byte budget. */
    public MemoryClock(TimeSource clock, int arity, int capacity, LongSupplier wallClockMillis,
                       StoreMetrics metrics) {
        this(clock, arity, capacity, Long.MAX_VALUE, wallClockMillis, metrics);
    }

    /**
     * @param capacity      the most pending timers
     * @param capacityBytes the most {@link Limits#bytesOf payload bytes} all pending timers may hold together
     */
    public MemoryClock(TimeSource clock, int arity, int capacity, long capacityBytes,
                       LongSupplier wallClockMillis, StoreMetrics metrics) {
        this(clock, arity, new PendingBudget(capacity, capacityBytes), wallClockMillis, metrics);
    }

    /** A clock whose pending timers count against {@code budget}, which other clocks may share. */
    public MemoryClock(TimeSource clock, int arity, PendingBudget budget, LongSupplier wallClockMillis,
                       StoreMetrics metrics) {
        this.kernel = new ClockKernel(clock, arity, budget, metrics);
        this.wallClockMillis = wallClockMillis;
        IndexedTimerHeap heap = kernel.heap();
        this.clockDeliveries = new ClockDeliveries(kernel, kernel.deliveries(), kernel.capacity(), metrics);
        this.schedules = new ClockScheduleCalls(kernel, heap, kernel.capacity(), kernel.sequences(),
                wallClockMillis);
        this.firing = new ClockFiring(kernel, heap, kernel.deliveries(), kernel.capacity(), clockDeliveries,
                wallClockMillis, metrics, schedules);
        kernel.attach(schedules, firing);
        this.changes = new TimerChanges(kernel, wallClockMillis, schedules, clockDeliveries);
        this.reads = new TimerReads(kernel, wallClockMillis, schedules);
        this.lifecycle = new ClockLifecycle(kernel, wallClockMillis, clockDeliveries, schedules, firing);
        this.flowKeys = new ClockFlowKeys(kernel, clockDeliveries);
    }

    /** A clock on a fresh virtual clock at 0, without metrics: for tests and embedding. */
    public static MemoryClock withVirtualClock(int arity, int capacity) {
        return new MemoryClock(new VirtualClock(0), arity, capacity, System::currentTimeMillis,
                StoreMetrics.NONE);
    }

    /** Lets this clock's schedules read cron with {@code parser}, firing at most {@code maxCatchUp} per step. */
    public void scheduleWith(CronParser parser, int maxCatchUp) {
        kernel.lock().run(() -> schedules.configure(parser, maxCatchUp));
    }

    ClockScheduleCalls schedules() {
        return schedules;
    }

    public int arity() {
        return kernel.heap().arity();
    }

    public int capacity() {
        return kernel.capacity().timers();
    }

    public long capacityBytes() {
        return kernel.capacity().bytes();
    }

    // ---- timer changes (see TimerChanges) ----

    public Timer add(String id, long delay, int priority, String payload, Trace trace) {
        return add(id, Due.after(delay), priority, payload, trace);
    }

    /** See {@link TimerChanges#add}. */
    public Timer add(String id, Due due, int priority, String payload, Trace trace) {
        return add(id, due, priority, payload, null, null, trace);
    }

    /** See {@link TimerChanges#add}, with the adding request's trace context and flow-control key (null: none). */
    public Timer add(String id, Due due, int priority, String payload, String traceContext, String key,
                     Trace trace) {
        return changes.add(id, due, priority, payload, traceContext, key, trace);
    }

    /** See {@link TimerChanges#cancel}. */
    public Timer cancel(String id, Precondition precondition, Trace trace) {
        return changes.cancel(id, precondition, trace);
    }

    /** The ids the clock keeps reserved now (its dedupe window), by the time their windows began. */
    public List<Reservation> reservations() {
        return kernel.serving(() -> kernel.reservations().image()).list(); // sorted after the lock
    }

    /** An add deciding by {@code onConflict}; see {@link io.timeservice.store.TimerStore}. */
    public AddOutcome add(String id, Due due, int priority, String payload, OnConflict onConflict) {
        return add(id, due, priority, payload, null, null, onConflict);
    }

    /** As {@link #add(String, Due, int, String, OnConflict)}, a timer added keeping {@code traceContext} and key. */
    public AddOutcome add(String id, Due due, int priority, String payload, String traceContext, String key,
                          OnConflict onConflict) {
        return changes.add(id, due, priority, payload, traceContext, key, onConflict);
    }

    /** Releases the reservation of {@code id}; see {@link io.timeservice.store.TimerStore#releaseReservation}. */
    public Reservation releaseReservation(String id) {
        return changes.releaseReservation(id);
    }

    public Timer edit(String id, Long newDelay, Integer newPriority, Precondition precondition, Trace trace) {
        return edit(id, newDelay == null ? null : Due.after(newDelay), newPriority, precondition, trace);
    }

    /** See {@link TimerChanges#edit}. */
    public Timer edit(String id, Due newDue, Integer newPriority, Precondition precondition, Trace trace) {
        return changes.edit(id, newDue, newPriority, precondition, trace);
    }

    /** See {@link TimerChanges#batch}: each operation's timer (an add that kept a reservation: null). */
    public List<Timer> batch(List<? extends BatchOp> ops) {
        return changes.batch(ops).stream().map(AddOutcome::timer).toList();
    }

    /** See {@link TimerChanges#batch}: what each operation did. */
    public List<AddOutcome> batchOutcomes(List<? extends BatchOp> ops) {
        return changes.batch(ops);
    }

    /** See {@link TimerChanges#reset}. */
    public void reset(TimeSource freshClock) {
        changes.reset(freshClock);
    }

    // ---- firing (see ClockFiring) ----

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

    /** Changes a scaled clock's rate from its time now on; see {@link ClockFiring#rerate}. */
    public ClockSettings rerate(ClockRate next) {
        return firing.rerate(next, kernel::useSettings);
    }

    /** Changes the live clock's settings; see {@link ClockLifecycle#change}. */
    public ClockSettings change(io.timeservice.model.ClockChange change) {
        return lifecycle.change(change);
    }

    // ---- overrides of single keys' flow control (see ClockFlowKeys) ----

    /** Sets {@code key}'s flow-control override; see {@link ClockFlowKeys#put}. */
    public ClockFlowKeys.Put putFlowKey(String key, FlowOverride override) {
        return flowKeys.put(key, override);
    }

    /** See {@link ClockFlowKeys#get}. */
    public FlowOverride flowKey(String key) {
        return flowKeys.get(key);
    }

    /** See {@link ClockFlowKeys#delete}. */
    public ClockSettings deleteFlowKey(String key) {
        return flowKeys.delete(key);
    }

    /** See {@link ClockFlowKeys#busiest}. */
    public List<FlowKeyState> busiestFlowKeys(int n) {
        return flowKeys.busiest(n);
    }

    /**
     * Lets a system clock ask {@code wakeups} for rounds, and asks for the first one now. Call once before serving,
     * after recovery.
     */
    public void fireWith(Wakeups wakeups) {
        kernel.lock().run(() -> firing.fireWith(wakeups));
    }

    /** The clock's name, which its firings report to the metrics (and so to tracing). */
    void named(String name) {
        firing.named(name);
    }

    /** One firing round of a system clock, for the firing thread; see {@link ClockFiring#fireRound}. */
    int fireRound(int maxTimers) {
        return firing.fireRound(maxTimers);
    }

    // ---- reads (see TimerReads) ----

    /** See {@link TimerReads#page}. */
    public QueueListing page(io.timeservice.model.FiringPosition after, String idPrefix, int limit) {
        return reads.page(after, idPrefix, limit);
    }

    /** See {@link TimerReads#dueBy}. */
    public QueueListing dueBy(long dueBy, int limit) {
        return reads.dueBy(dueBy, limit);
    }

    /** See {@link TimerReads#get}. */
    public Timer get(String id) {
        return reads.get(id);
    }

    /** See {@link TimerReads#peek}. */
    public Timer peek() {
        return reads.peek();
    }

    /** The first {@code limit} pending timers in firing order, found without sorting the heap. */
    public QueueListing firstN(int limit) {
        return dueBy(Long.MAX_VALUE, limit);
    }

    /** See {@link TimerReads#status}. */
    public QueueStatus status() {
        return reads.status();
    }

    /** How many schedules the clock has (active, paused and done), in O(1). */
    public int scheduleCount() {
        return schedules.count();
    }

    public long now() {
        return kernel.serving(() -> kernel.clock().now());
    }

    /** The {@link Limits#bytesOf payload bytes} all pending timers hold together, against {@link #capacityBytes()}. */
    public long pendingBytes() {
        return kernel.serving(() -> kernel.capacity().pendingBytes());
    }

    /** This clock's settings. */
    public ClockSettings settings() {
        return kernel.serving(kernel::settings);
    }

    /**
     * Why the clock stopped serving (fail-stop, see {@link ClockKernel}), or {@code null} while it serves. For
     * health checks: unlike every other call, this one answers after a stop.
     */
    public String stoppedBecause() {
        return kernel.lock().call(kernel::stoppedBecause);
    }

    /** The four invariants of the current state, never rate-bounded: see {@link TimerReads#invariants}. */
    public InvariantReport checkInvariants() {
        return reads.invariants(false);
    }

    /** As {@link #checkInvariants()}, within the bound of {@link #limitInvariantChecks}; for requests. */
    public InvariantReport invariants() {
        return reads.invariants(true);
    }

    /** See {@link TimerReads#limitInvariantChecks}. Unbounded until called. */
    public void limitInvariantChecks(Duration minInterval, int aboveSize) {
        limitInvariantChecks(minInterval, aboveSize, System::nanoTime);
    }

    /** As {@link #limitInvariantChecks(Duration, int)}, timing walks on {@code nanoClock}; for tests. */
    void limitInvariantChecks(Duration minInterval, int aboveSize, LongSupplier nanoClock) {
        reads.limitInvariantChecks(minInterval, aboveSize, nanoClock);
    }

    /** See {@link TimerReads#heapView}. */
    public HeapView heapView(int limit) {
        return reads.heapView(limit);
    }

    // ---- deliveries (see ClockDeliveries) ----

    /** Ready deliveries held back by this clock's flow control, and the keys holding them; O(1), no lock. */
    public int[] flowHeldBack() {
        ClockDeliveries.FlowCounts flow = clockDeliveries.flowCounts();
        return new int[] {flow.heldBack(), flow.keysAtLimit()};
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

    /** See {@link ClockDeliveries#list}. */
    public List<Delivery> listDeliveries(DeliveryFilter filter, int limit, long afterSequence) {
        return clockDeliveries.list(filter, limit, afterSequence);
    }

    /** See {@link ClockDeliveries#count}. */
    public long countDeliveries(DeliveryFilter filter) {
        return clockDeliveries.count(filter);
    }

    /** See {@link ClockDeliveries#redriveChunk}. */
    public DeliveryStore.Chunk redriveChunk(DeliveryFilter filter, long afterSequence, int max) {
        return clockDeliveries.redriveChunk(filter, afterSequence, max);
    }

    /** See {@link ClockDeliveries#deleteChunk}. */
    public DeliveryStore.Chunk deleteChunk(DeliveryFilter filter, long afterSequence, int max) {
        return clockDeliveries.deleteChunk(filter, afterSequence, max);
    }

    /** See {@link ClockDeliveries#redrive}. */
    public List<Delivery> redrive(String id, Long sequence) {
        return clockDeliveries.redrive(id, sequence);
    }

    /** See {@link ClockDeliveries#deleteDead}. */
    public List<Delivery> deleteDead(String id, Long sequence) {
        return clockDeliveries.deleteDead(id, sequence);
    }

    // ---- lifecycle (see ClockLifecycle) ----

    /** See {@link ClockLifecycle#configure}. */
    void configure(ClockSettings clockSettings, TimeSource timeSource) {
        lifecycle.configure(clockSettings, timeSource);
    }

    /** See {@link ClockLifecycle#reconfigure}. */
    public void reconfigure(ClockSettings next) {
        lifecycle.reconfigure(next);
    }

    /** See {@link ClockLifecycle#attachLog}: once, after {@link #recover} and before serving. */
    public void attachLog(MutationLog mutationLog) {
        lifecycle.attachLog(mutationLog);
    }

    /**
     * Rebuilds the state a log describes: loads {@code snapshot} (if any) with an O(n) bottom-up heapify, then
     * replays {@code journal} in order (see {@link ClockRecovery}). Call only on a fresh, empty clock, before
     * {@link #attachLog}.
     *
     * @throws IllegalStateException when a record does not fit the state it is applied to (a journal that does not
     *                               belong to this snapshot)
     */
    public void recover(RecoveredSnapshot snapshot, Iterable<Mutation> journal) {
        ClockRecovery recovery = beginRecovery(snapshot, 0);
        for (Mutation mutation : journal) {
            recovery.replay(mutation);
        }
        finishRecovery(recovery);
    }

    /**
     * Starts recovering a fresh clock of a {@link ClockRegistry}, whose records arrive one by one among other
     * clocks' records; see {@link ClockLifecycle#beginRecovery}.
     */
    ClockRecovery beginRecovery(RecoveredSnapshot snapshot, long firstSequence) {
        return lifecycle.beginRecovery(snapshot, firstSequence);
    }

    /** See {@link ClockLifecycle#finishRecovery}. */
    void finishRecovery(ClockRecovery recovery) {
        lifecycle.finishRecovery(recovery);
    }

    /** See {@link ClockLifecycle#startSequencesAfter}. */
    void startSequencesAfter(long floor) {
        lifecycle.startSequencesAfter(floor);
    }

    /** See {@link ClockLifecycle#delete}. */
    long deleteClock(String name) {
        return lifecycle.delete(name);
    }

    // ---- copies: a snapshot's multi-clock cut, a fork ----

    /**
     * Holds this clock's lock on the calling thread until {@link #releaseForSnapshot}: a multi-clock cut (a snapshot,
     * a batch across clocks), every clock's lock taken in number order.
     */
    void holdForSnapshot() {
        kernel.lock().hold();
    }

    void releaseForSnapshot() {
        kernel.lock().release();
    }

    /** The clock's lock and state, for a change of several clocks under all their locks ({@link BatchAcrossClocks}). */
    ClockKernel kernel() {
        return kernel;
    }

    /** The clock's timer changes, for {@link BatchAcrossClocks}. */
    TimerChanges changes() {
        return changes;
    }

    /** This clock's state for a snapshot; call holding the lock (between {@link #holdForSnapshot} and release). */
    ClockImage stateForSnapshot() {
        return kernel.image();
    }

    /**
     * Takes the state under the lock in array copies ({@link #stateForSnapshot}) and hands it with its O(1) budget
     * weight to {@code whileHeld} there (which may journal it: no change comes between); the rest is built unlocked.
     */
    ClockImage copied(BiConsumer<ClockImage, ClockCopy.Weight> whileHeld) {
        return kernel.serving(() -> {
            long start = System.nanoTime();
            ClockImage state = kernel.image();
            whileHeld.accept(state, new ClockCopy.Weight((long) state.size() + state.deliveries().size(),
                    kernel.capacity().pendingBytes() + kernel.deliveries().bytes(), state.deliveries().size()));
            return state.withCopyNanos(System.nanoTime() - start);
        });
    }
}
