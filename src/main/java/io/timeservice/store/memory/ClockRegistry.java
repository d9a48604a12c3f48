package io.timeservice.store.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.TimerRules;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.time.TimeSource;
import io.timeservice.store.memory.time.VirtualClock;
import io.timeservice.store.memory.time.Wakeups;

/**
 * Every clock of the memory store, virtual and system, by name: each its own {@link MemoryClock} (own heap,
 * lock and sequence counter), so operations on different clocks never wait for each other. The clock {@value #DEFAULT} always exists
 * and cannot be deleted; the API's paths without a clock address it.
 *
 * <p>Thread-safety. The hot path is a lookup in a {@link ConcurrentSkipListMap} (lock-free; sorted, so clocks list
 * by name in pages) followed by the clock's own lock. Creating and deleting clocks and taking a snapshot serialize
 * on one registry monitor, never taken on the hot path. The pending-timer capacity is one {@link PendingBudget}
 * shared by every clock (two atomic counters).
 *
 * <p>Journal ({@link ClocksJournal} keeps that side: numbering, recovery, snapshot cut). One journal holds every
 * clock's records: each clock appends through a view of it that tags its records with the clock's number
 * ({@link Mutation.OnClock}; the default clock, number 0, writes bare records, as before clocks existed). Creation is journaled as {@link Mutation.ClockCreated} before the clock is visible, deletion as
 * the clock's own last record ({@link Mutation.ClockDeleted}) under its lock, so no record of a deleted clock can
 * follow it.
 *
 * <p>Snapshots. A clock's view never snapshots under its own lock: when the journal asks for one, a background
 * thread takes the registry monitor and then every clock's lock in number order, copies every heap and rotates the
 * segment, then releases them. Every clock pauses for that copy (the same pause one clock's snapshot costs, summed
 * over the clocks' sizes).
 *
 * <p>Sequences across delete and re-create. Entity tags are {@code "sequence-version"} and name no clock, so a clock
 * re-created under a deleted one's name must never issue a sequence the deleted one could have issued: the registry
 * keeps a floor, the highest sequence reserved by any deleted clock, and every new clock starts after it (the floor
 * is journaled in each {@link Mutation.ClockCreated} and in snapshots).
 *
 * <p>Idle TTL. With {@link #deleteIdleAfter} set, every call that addresses a clock ({@link #get}, {@link #create})
 * records when (wall clock); {@link #deleteIdle}, run periodically by the service, deletes each virtual clock unused
 * for that long through {@link #delete}'s journaled path. Last uses are not journaled: after a restart every clock
 * counts as used at recovery. A call that arrives while its clock is being deleted for idleness answers
 * {@code clock_not_found}, as with a concurrent {@code DELETE}.
 */
public final class ClockRegistry {

    public static final String DEFAULT = Limits.DEFAULT_CLOCK;
    public static final int DEFAULT_MAX_CLOCKS = 10_000;

    private static final System.Logger LOG = System.getLogger(ClockRegistry.class.getName());

    private final BiFunction<TimeSource, PendingBudget, MemoryClock> factory;
    private final PendingBudget budget;
    private final int maxClocks;
    private final LongSupplier wallClockMillis;
    private final ConcurrentSkipListMap<String, Clock> byName = new ConcurrentSkipListMap<>();
    private final Clock defaultClock;
    private final Object registry = new Object();
    /** Numbering, journal, recovery and snapshots of every clock; guarded by registry. */
    private final ClocksJournal clocksJournal;
    /** Clocks in {@link #byName}, kept here because a skip list counts itself in O(n). */
    private volatile int count = 1;
    /** A virtual clock no call addressed for this long is deleted by {@link #deleteIdle}; 0: never. */
    private volatile long idleTtlMillis;
    /** Fires the system clocks; set by {@link #fireWith} before serving. Guarded by registry. */
    private Wakeups firing = Wakeups.NONE;
    /** Hears of clocks with ready deliveries ({@link #onReady}); guarded by registry. */
    private java.util.function.Consumer<String> readyListener = name -> { };
    /** Set by {@link #endWaits}; guarded by registry. */
    private boolean waitsEnded;

    /**
     * @param factory   makes a fresh clock on a time source, counting against the shared budget
     * @param maxClocks the most clocks, the default one included
     */
    public ClockRegistry(BiFunction<TimeSource, PendingBudget, MemoryClock> factory, PendingBudget budget,
                  int maxClocks, LongSupplier wallClockMillis) {
        if (maxClocks < 1) {
            throw new IllegalArgumentException("maxClocks must be >= 1: " + maxClocks);
        }
        this.factory = factory;
        this.budget = budget;
        this.maxClocks = maxClocks;
        this.wallClockMillis = wallClockMillis;
        this.defaultClock = new Clock(0, DEFAULT, 0, 0, factory.apply(new VirtualClock(0), budget), 0,
                ClockSettings.VIRTUAL);
        byName.put(DEFAULT, defaultClock);
        this.clocksJournal = new ClocksJournal(this, budget, wallClockMillis);
    }

    /** A registry of virtual clocks without metrics, for tests and embedding. */
    public static ClockRegistry withVirtualClocks(int arity, int capacity, long capacityBytes, int maxClocks) {
        return new ClockRegistry((clock, budget) -> new MemoryClock(clock, arity, budget, System::currentTimeMillis,
                StoreMetrics.NONE), new PendingBudget(capacity, capacityBytes), maxClocks,
                System::currentTimeMillis);
    }

    /**
     * A clock: its compact number (tags its journal records), name, the {@code now} it was created with, when it
     * was created (wall-clock epoch milliseconds; 0 for the default clock), its {@link MemoryClock}, and when a call
     * last addressed it (wall clock, for the idle TTL; not journaled: a restart counts as a use).
     */
    public static final class Clock {
        private final long number;
        private final String name;
        private final long initialNow;
        private final long createdAtWallMillis;
        private final MemoryClock scheduler;
        private volatile ClockSettings settings;
        private volatile long lastUsedWallMillis;

        Clock(long number, String name, long initialNow, long createdAtWallMillis, MemoryClock scheduler,
              long lastUsedWallMillis, ClockSettings settings) {
            this.number = number;
            this.name = name;
            this.initialNow = initialNow;
            this.createdAtWallMillis = createdAtWallMillis;
            this.scheduler = scheduler;
            scheduler.named(name);
            this.lastUsedWallMillis = lastUsedWallMillis;
            this.settings = settings;
        }

        /** Its mode, delivery and retry policy. */
        public ClockSettings settings() {
            return settings;
        }

        public long number() {
            return number;
        }

        public String name() {
            return name;
        }

        public long initialNow() {
            return initialNow;
        }

        public long createdAtWallMillis() {
            return createdAtWallMillis;
        }

        public MemoryClock scheduler() {
            return scheduler;
        }

        /** Wall-clock epoch milliseconds of the last call that addressed this clock. */
        public long lastUsedWallMillis() {
            return lastUsedWallMillis;
        }

        /** Recovery found these settings. */
        void recovered(ClockSettings recovered) {
            settings = recovered;
        }

        private void usedAt(long wallMillis) {
            if (wallMillis > lastUsedWallMillis) { // skips the store (a shared cache line) within the same ms
                lastUsedWallMillis = wallMillis;
            }
        }

        @Override
        public String toString() {
            return "Clock[" + number + ", " + name + "]";
        }
    }

    /** What {@link #create} did: the clock, and whether it is new (201) or was there with these settings (200). */
    public record Created(Clock clock, boolean created) {
    }

    public PendingBudget budget() {
        return budget;
    }

    public int maxClocks() {
        return maxClocks;
    }

    public MemoryClock defaultScheduler() {
        return defaultClock.scheduler();
    }

    /** Every clock, the default one included, by name: a live view (clocks created or deleted meanwhile may show). */
    public Collection<Clock> all() {
        return Collections.unmodifiableCollection(byName.values());
    }

    /** Clocks that exist, the default one included. */
    public int count() {
        return count;
    }

    /**
     * The clock named {@code name}.
     *
     * @throws ProblemException {@code clock_not_found} (also for a name no clock could have)
     */
    public Clock get(String name) {
        Clock clock = name == null ? null : byName.get(name);
        if (clock == null) {
            // a malformed name names no clock either: 404 like any other unknown name
            throw ClockRules.clockNotFound(name);
        }
        used(clock);
        return clock;
    }

    /** The {@link MemoryClock} named {@code name}; see {@link #get}. */
    public MemoryClock scheduler(String name) {
        return get(name).scheduler();
    }

    /** Up to {@code limit} clocks by name, starting after {@code after} (null: from the first). */
    public List<Clock> list(int limit, String after) {
        TimerRules.requireLimit(limit);
        List<Clock> page = new ArrayList<>(Math.min(limit, 128));
        for (Clock clock : (after == null ? byName : byName.tailMap(after, false)).values()) {
            if (page.size() == limit) {
                break;
            }
            page.add(clock);
        }
        return page;
    }

    /**
     * Creates the clock {@code name} at {@code now}, or finds it with the same {@code now} already there.
     *
     * @throws ProblemException {@code invalid_id}, {@code invalid_request} (now out of range), {@code clock_conflict}
     *                            (exists with another now), {@code clock_limit}, {@code storage_unavailable}
     */
    public Created create(String name, long now) {
        return create(name, now, ClockSettings.VIRTUAL);
    }

    /**
     * Creates the clock {@code name} with {@code settings}, at {@code now} when it is virtual (a system clock's time
     * is the wall clock's, and {@code now} is ignored), or finds it with the same settings (and now) already there.
     *
     * @throws ProblemException as {@link #create(String, long)}; {@code clock_conflict} also for other settings
     */
    public Created create(String name, long now, ClockSettings settings) {
        ClockRules.requireValidClockName(name);
        ClockRules.requireClockNow(now);
        synchronized (registry) {
            Clock existing = byName.get(name);
            if (existing != null) {
                ClockSettings made = existing.settings().asPut(); // overrides and a pause are set on their own
                if (!made.equals(settings) || (!settings.isSystem() && existing.initialNow() != now)) {
                    throw ClockRules.clockConflict(name, made, existing.initialNow(), settings, now);
                }
                used(existing);
                return new Created(existing, false);
            }
            ClockRules.requireClockRoom(count, maxClocks);
            long createdAt = wallClockMillis.getAsLong();
            long initialNow = settings.isSystem() ? 0 : now;
            ClocksJournal.Numbered numbered = clocksJournal.created(name, initialNow, createdAt, settings);
            Clock clock = new Clock(numbered.number(), name, initialNow, createdAt, newScheduler(initialNow,
                    createdAt, numbered.firstSequence(), settings), createdAt, settings);
            register(clock);
            // waited for under the monitor: a second PUT answers 200 only once the clock is durable
            clocksJournal.awaitDurable(numbered.position());
            return new Created(clock, true);
        }
    }

    /**
     * Creates the clock {@code name} as a copy of the clock {@code source}, taken atomically under the source's lock
     * and journaled there as one {@link Mutation.ClockForked} record ({@link ClockCopy} says what is copied); the
     * copy is built after the source's lock is released. The copy counts in full against the shared budget.
     *
     * @throws ProblemException {@code invalid_id}, {@code clock_not_found} (no source), {@code clock_conflict}
     *                            ({@code name} exists), {@code clock_limit}, {@code capacity_exceeded},
     *                            {@code storage_unavailable}
     */
    public Created fork(String name, String source) {
        ClockRules.requireValidClockName(name);
        synchronized (registry) {
            Clock original = get(source);
            if (byName.containsKey(name)) {
                throw ClockRules.copyNameTaken(name, source);
            }
            ClockRules.requireClockRoom(count, maxClocks);
            long createdAt = wallClockMillis.getAsLong();
            return register(name, createdAt, clocksJournal.forked(name, original, createdAt));
        }
    }

    /**
     * Tells {@code listener} the name of every clock whose deliveries become ready, from now on; see
     * {@link io.timeservice.store.DeliveryStore#onReady}.
     */
    public void onReady(java.util.function.Consumer<String> listener) {
        synchronized (registry) {
            readyListener = listener;
            for (Clock clock : byName.values()) {
                hookReady(clock);
            }
        }
    }

    private void hookReady(Clock clock) {
        java.util.function.Consumer<String> listener = readyListener;
        String name = clock.name();
        clock.scheduler().onReady(() -> listener.accept(name));
    }

    /**
     * Creates the clock {@code name} from a saved clock ({@link ClockSnapshot}, checked by
     * {@link io.timeservice.model.SnapshotRules} already), journaled as one {@link Mutation.ClockLoaded} record. It
     * counts in full against the shared budget.
     *
     * @throws ProblemException {@code invalid_id}, {@code clock_conflict} ({@code name} exists), {@code clock_limit},
     *                            {@code capacity_exceeded}, {@code storage_unavailable}
     */
    public Created load(String name, ClockSnapshot snapshot) {
        ClockRules.requireValidClockName(name);
        synchronized (registry) {
            if (byName.containsKey(name)) {
                throw ClockRules.loadNameTaken(name);
            }
            ClockRules.requireClockRoom(count, maxClocks);
            long createdAt = wallClockMillis.getAsLong();
            return register(name, createdAt, clocksJournal.loaded(name, snapshot, createdAt));
        }
    }

    /** Builds, registers and answers the clock a fork or load journaled; call holding the registry monitor. */
    private Created register(String name, long createdAt, ClocksJournal.Copied copied) {
        Clock clock;
        try {
            clock = clocksJournal.built(copied.number(), name, createdAt, copied.copy(), createdAt);
        } finally {
            clocksJournal.release(copied.reserved()); // built counts it as its own
        }
        register(clock);
        clocksJournal.awaitDurable(copied.position());
        return new Created(clock, true);
    }

    /**
     * Changes the rate of the scaled clock {@code name} from its time now on: the time is continuous across the change
     * and what comes due fires at the new rate. Journaled; under the registry monitor, so a concurrent {@link #create}
     * compares its settings with the old rate or the new one, never in between.
     *
     * @throws ProblemException {@code clock_not_found}, {@code clock_not_scaled}, {@code storage_unavailable}
     */
    public Clock rerate(String name, ClockRate rate) {
        synchronized (registry) {
            Clock clock = get(name);
            clock.settings = clock.scheduler().rerate(rate);
            return clock;
        }
    }

    /**
     * Changes the live clock {@code name}'s settings ({@link MemoryClock#change}); under the registry monitor, as
     * {@link #rerate}, so the settings a {@link #create} compares are whole.
     */
    public Clock change(String name, io.timeservice.model.ClockChange change) {
        synchronized (registry) {
            Clock clock = get(name);
            clock.settings = clock.scheduler().change(change);
            return clock;
        }
    }

    /**
     * Sets the flow-control override of {@code key} on the clock {@code name} ({@link MemoryClock#putFlowKey}); under
     * the registry monitor, as {@link #rerate}, so the settings a {@link #create} compares are whole.
     *
     * @return whether the key had no override before
     */
    public boolean putFlowKey(String name, String key, io.timeservice.model.FlowOverride override) {
        synchronized (registry) {
            Clock clock = get(name);
            ClockFlowKeys.Put put = clock.scheduler().putFlowKey(key, override);
            clock.settings = put.settings();
            return put.created();
        }
    }

    /** Deletes the flow-control override of {@code key} on the clock {@code name}; see {@link #putFlowKey}. */
    public void deleteFlowKey(String name, String key) {
        synchronized (registry) {
            Clock clock = get(name);
            clock.settings = clock.scheduler().deleteFlowKey(key);
        }
    }

    /** Journals, fires and serves the new {@code clock} from now on; call holding the registry monitor. */
    private void register(Clock clock) {
        hookReady(clock);
        clock.scheduler().attachLog(clocksJournal.viewFor(clock.number()));
        clock.scheduler().fireWith(firing);
        if (waitsEnded) {
            clock.scheduler().endWaits();
        }
        byName.put(clock.name(), clock);
        count++;
    }

    /**
     * Deletes the clock {@code name} and every timer it holds.
     *
     * @throws ProblemException {@code clock_not_found}, {@code clock_undeletable} for the default clock
     */
    public void delete(String name) {
        synchronized (registry) {
            Clock clock = get(name);
            if (clock == defaultClock) {
                throw ClockRules.defaultClockUndeletable();
            }
            remove(clock);
        }
    }

    /** Deletes {@code clock} (never the default one) through the journal; call holding the registry monitor. */
    private void remove(Clock clock) {
        long reserved = clock.scheduler().deleteClock(clock.name());
        clocksJournal.deleted(reserved);
        byName.remove(clock.name(), clock);
        count--;
    }

    // ---- idle TTL ----

    /**
     * Lets {@link #deleteIdle} delete every virtual clock no call addressed for {@code ttl}; {@code null} or zero
     * turns that off (the default).
     */
    public void deleteIdleAfter(Duration ttl) {
        if (ttl != null && ttl.isNegative()) {
            throw new IllegalArgumentException("idle TTL must be >= 0: " + ttl);
        }
        idleTtlMillis = ttl == null ? 0 : ttl.toMillis();
    }

    /**
     * When {@code clock} will be deleted for idleness unless a call addresses it first (wall-clock epoch
     * milliseconds), or null: the idle TTL is off, or the clock is the default one.
     */
    public Long deletesAt(Clock clock) {
        long ttl = idleTtlMillis;
        if (ttl == 0 || clock == defaultClock || clock.settings().firesByItself()) {
            return null; // a system or scaled clock fires by itself: not using it is no sign that it is forgotten
        }
        long lastUsed = clock.lastUsedWallMillis();
        return lastUsed > Long.MAX_VALUE - ttl ? Long.MAX_VALUE : lastUsed + ttl;
    }

    /**
     * Deletes every virtual clock whose {@link #deletesAt} has come, each as {@link #delete} would (journaled).
     * Returns how many it deleted. A clock that cannot be deleted now (the journal refuses) is left for a later run.
     */
    public int deleteIdle() {
        if (idleTtlMillis == 0) {
            return 0;
        }
        int deleted = 0;
        for (Clock clock : byName.values()) {
            Long deadline = deletesAt(clock);
            if (deadline == null || deadline > wallClockMillis.getAsLong()) {
                continue;
            }
            synchronized (registry) {
                // checked again under the monitor: a call may have used it, or a DELETE removed it, meanwhile
                Long recheck = deletesAt(clock);
                if (byName.get(clock.name()) != clock || recheck == null || recheck > wallClockMillis.getAsLong()) {
                    continue;
                }
                try {
                    remove(clock);
                    deleted++;
                } catch (ProblemException refused) {
                    LOG.log(System.Logger.Level.WARNING, "could not delete idle clock " + clock.name() + ": "
                            + refused.getMessage());
                    return deleted;
                }
            }
        }
        return deleted;
    }

    /** Records that a call addressed {@code clock}, for the idle TTL. */
    private void used(Clock clock) {
        if (idleTtlMillis != 0) {
            clock.usedAt(wallClockMillis.getAsLong());
        }
    }

    // ---- durability (see ClocksJournal) ----

    /**
     * Rebuilds every clock from {@code snapshot} (null: none) and the {@code journal} records after it, dispatched
     * to their clocks by number. Call once, on fresh clocks, before {@link #attachLog}.
     *
     * @throws IllegalStateException when a record names a clock that does not exist or does not fit its clock
     */
    public void recover(RecoveredClocks snapshot, Iterable<Mutation> journal) {
        synchronized (registry) {
            if (count != 1) {
                throw new IllegalStateException("recover needs fresh clocks");
            }
            clocksJournal.recover(snapshot, journal);
        }
    }

    /** Journals into {@code log} from now on. Call once, after {@link #recover} and before serving. */
    public void attachLog(MutationLog log) {
        synchronized (registry) {
            clocksJournal.attach(log);
        }
    }

    /**
     * Takes a snapshot of every clock now, on this thread: the registry monitor, then every clock's lock in number
     * order, held while the heaps are copied and the journal rotates. Returns the pause in nanoseconds.
     */
    public long snapshotNow() {
        synchronized (registry) {
            return clocksJournal.snapshotNow();
        }
    }

    /** The default clock; never deleted. */
    Clock defaultClock() {
        return defaultClock;
    }

    /** Puts the recovered {@code clocks} in; call holding the registry monitor, from recovery. */
    void recovered(Collection<Clock> clocks) {
        for (Clock clock : clocks) {
            hookReady(clock);
            byName.put(clock.name(), clock);
        }
        count = byName.size();
    }

    private MemoryClock newScheduler(long now, long createdAt, long firstSequence, ClockSettings settings) {
        MemoryClock scheduler = configured(now, createdAt, settings);
        scheduler.startSequencesAfter(firstSequence);
        return scheduler;
    }

    /**
     * A fresh clock with {@code settings}: on a system clock, on a virtual one at {@code now}, or on a scaled one
     * at {@code now} (its anchor replaced by a snapshot's or copy's time function when it has one).
     */
    MemoryClock configured(long now, ClockSettings settings) {
        return configured(now, wallClockMillis.getAsLong(), settings);
    }

    /** As {@link #configured(long, ClockSettings)}; a scaled clock runs from {@code now} at {@code wallAnchor}. */
    MemoryClock configured(long now, long wallAnchor, ClockSettings settings) {
        TimeSource clock = TimeSource.of(settings, now, wallAnchor, wallClockMillis);
        MemoryClock scheduler = factory.apply(clock, budget);
        scheduler.configure(settings, clock);
        return scheduler;
    }

    /** Ends the long polls of every clock, now and later ({@link MemoryClock#endWaits}): the service stops. */
    public void endWaits() {
        letWait(false);
    }

    /** Lets the long polls of every clock wait again after {@link #endWaits}: the service runs again. */
    public void allowWaits() {
        letWait(true);
    }

    private void letWait(boolean allowed) {
        synchronized (registry) {
            waitsEnded = !allowed;
            for (Clock clock : byName.values()) {
                if (allowed) {
                    clock.scheduler().allowWaits();
                } else {
                    clock.scheduler().endWaits();
                }
            }
        }
    }

    /**
     * Lets every system clock, now and later, ask {@code loop} for firing rounds. Call once, after {@link #recover}
     * and {@link #attachLog}, before serving.
     */
    public void fireWith(Wakeups loop) {
        synchronized (registry) {
            firing = loop;
            for (Clock clock : byName.values()) {
                clock.scheduler().fireWith(loop);
            }
        }
    }

    /**
     * Gives the {@code default} clock the settings the configuration asks for, journaled when they differ from what
     * recovery found. Call after {@link #attachLog} and before {@link #fireWith}.
     *
     * @throws IllegalStateException when the mode would change while the default clock holds timers or deliveries
     */
    public void configureDefault(ClockSettings settings) {
        synchronized (registry) {
            defaultClock.scheduler().reconfigure(settings);
            defaultClock.settings = settings;
        }
    }

}
