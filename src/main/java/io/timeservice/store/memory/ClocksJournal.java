package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.store.memory.ClockRegistry.Clock;
import io.timeservice.store.memory.time.RunningClock;

/**
 * The journal side of the {@link ClockRegistry}: the one journal every clock appends to (each through a view that
 * tags its records with the clock's number), the numbering and sequence floor it records, the recovery of every
 * clock from a snapshot and the records after it, and the snapshot cut across every clock (see the registry's class
 * comment for the journal, snapshot and sequence rules).
 *
 * <p>Thread-safety: guarded by the registry's monitor; the registry calls every method holding it, and the
 * background snapshot takes it through {@link ClockRegistry#snapshotNow}.
 */
final class ClocksJournal {

    private static final System.Logger LOG = System.getLogger(ClocksJournal.class.getName());

    private final ClockRegistry registry;
    private final PendingBudget budget;
    private final LongSupplier wallClockMillis;
    private final AtomicBoolean snapshotQueued = new AtomicBoolean();
    // Guarded by the registry monitor.
    /** A long: numbers are never reused, and a service may create more than 2^31 clocks over its life. */
    private long nextNumber = 1;
    private long sequenceFloor;
    private MutationLog journal = MutationLog.NONE;

    ClocksJournal(ClockRegistry registry, PendingBudget budget, LongSupplier wallClockMillis) {
        this.registry = registry;
        this.budget = budget;
        this.wallClockMillis = wallClockMillis;
    }

    /** A new clock's number, the sequence it starts after, and its creation record's position. */
    record Numbered(long number, long firstSequence, long position) {
    }

    /**
     * Journals the creation of clock {@code name} under the next number; call holding the registry monitor, once
     * every other refusal is decided.
     *
     * @throws io.timeservice.model.ProblemException {@code storage_unavailable} when the journal cannot write,
     *                                                 with nothing numbered or written
     */
    Numbered created(String name, long initialNow, long createdAtWallMillis, ClockSettings settings) {
        journal.requireWritable();
        long number = nextNumber;
        long position = journal.append(new Mutation.ClockCreated(number, name, initialNow, createdAtWallMillis,
                sequenceFloor, settings));
        nextNumber++;
        return new Numbered(number, sequenceFloor, position);
    }

    /** A new clock's number, what it loads, what it reserved in the shared budget, and its record's position. */
    record Copied(long number, ClockCopy copy, ClockCopy.Weight reserved, long position) {
    }

    /**
     * Takes a copy of {@code original} under its lock, reserves the copy's room in the shared budget and journals the
     * fork there as one record; call holding the registry monitor, once every other refusal is decided. The lock is
     * held only for array copies of the source's state (O(n), no allocation per timer) and the record; the copy's
     * lists are built after. The caller gives the reservation back once the copy is {@link #built} (which counts it
     * as the new clock's own).
     *
     * @throws io.timeservice.model.ProblemException {@code capacity_exceeded}, {@code storage_unavailable}, with
     *                                                 nothing reserved, numbered or written
     */
    Copied forked(String name, Clock original, long createdAtWallMillis) {
        journal.requireWritable();
        long number = nextNumber;
        long[] position = new long[1];
        ClockCopy.Weight[] reserved = new ClockCopy.Weight[1];
        long floor = sequenceFloor;
        ClockImage state = original.scheduler().copied((taken, weight) -> {
            reserve(weight);
            try {
                position[0] = journal.append(new Mutation.ClockForked(number, name, original.number(),
                        createdAtWallMillis, Math.max(taken.lastSequence(), floor), taken.now()));
            } catch (RuntimeException | Error refused) {
                release(weight);
                throw refused;
            }
            reserved[0] = weight;
        });
        nextNumber++;
        ClockCopy copy;
        try {
            copy = ClockCopy.of(state, Math.max(state.lastSequence(), floor));
        } catch (RuntimeException | Error e) {
            release(reserved[0]);
            throw e;
        }
        return new Copied(number, copy, reserved[0], position[0]);
    }

    /**
     * Reserves room for {@code snapshot} (a saved clock, its sequences the snapshot's numbering) and journals the
     * clock it makes as one record; call holding the registry monitor, once every other refusal is decided. The
     * clock's sequences are the snapshot's moved past the sequence floor, so no entity tag of a deleted clock of
     * that name matches one of its timers. The caller gives the reservation back once the clock is {@link #built}.
     *
     * @throws io.timeservice.model.ProblemException {@code capacity_exceeded}, {@code storage_unavailable}, with
     *                                                 nothing reserved, numbered or written
     */
    Copied loaded(String name, ClockSnapshot snapshot, long createdAtWallMillis) {
        journal.requireWritable();
        ClockCopy copy = ClockCopy.of(ClockSnapshots.recovered(snapshot, sequenceFloor, createdAtWallMillis));
        ClockCopy.Weight weight = copy.weight();
        reserve(weight);
        long position;
        try {
            position = journal.append(new Mutation.ClockLoaded(nextNumber, name, createdAtWallMillis,
                    copy.snapshot()));
        } catch (RuntimeException | Error refused) {
            release(weight);
            throw refused;
        }
        return new Copied(nextNumber++, copy, weight, position);
    }

    private void reserve(ClockCopy.Weight weight) {
        budget.reserveCopy(weight.count(), weight.bytes(), weight.deliveries());
    }

    /** Gives back what {@link #forked} or {@link #loaded} reserved. */
    void release(ClockCopy.Weight weight) {
        budget.releaseCopy(weight.count(), weight.bytes(), weight.deliveries());
    }

    /** The clock numbered {@code number} loaded with {@code copy}, counted in the budget; not registered yet. */
    Clock built(long number, String name, long createdAtWallMillis, ClockCopy copy, long lastUsed) {
        Recovering built = copyOf(number, name, createdAtWallMillis, copy, lastUsed, createdAtWallMillis);
        built.clock().scheduler().finishRecovery(built.recovery());
        return built.clock();
    }

    /**
     * A new clock loading {@code copy}; a scaled one runs from the copy's now at wall time {@code wallAnchor}: its
     * creation's for a live copy and a recovered load (whose record holds its time then), the recovery's for a
     * recovered fork (whose source was rebuilt to its time now, as the source's own function has it).
     */
    private Recovering copyOf(long number, String name, long createdAtWallMillis, ClockCopy copy, long lastUsed,
                              long wallAnchor) {
        ClockSettings settings = copy.snapshot().settings();
        long now = copy.snapshot().now();
        // a virtual clock starts where firing stood (recovery passes its time on to now: due timers held back wait
        // there)
        long start = settings.mode() == ClockSettings.Mode.VIRTUAL ? copy.snapshot().firedThrough() : now;
        Clock clock = new Clock(number, name, settings.isSystem() ? 0 : now, createdAtWallMillis,
                registry.configured(start, wallAnchor, settings), lastUsed, settings);
        return new Recovering(clock, clock.scheduler().beginRecovery(copy.snapshot(), 0));
    }

    /** Waits until the journal holds {@code position} durably. */
    void awaitDurable(long position) {
        journal.awaitDurable(position);
    }

    /** A clock was deleted having reserved sequences up to {@code reserved}: no later clock issues any of them. */
    void deleted(long reserved) {
        sequenceFloor = Math.max(sequenceFloor, reserved);
    }

    /**
     * Rebuilds every clock from {@code snapshot} (null: none) and the {@code journal} records after it, dispatched
     * to their clocks by number. Call once, holding the registry monitor, on fresh clocks, before {@link #attach}.
     *
     * @throws IllegalStateException when a record names a clock that does not exist or does not fit its clock
     */
    void recover(RecoveredClocks snapshot, Iterable<Mutation> records) {
        if (journal != MutationLog.NONE) {
            throw new IllegalStateException("recover needs fresh clocks");
        }
        RecoveredClocks start = snapshot == null ? RecoveredClocks.of(null) : snapshot;
        long recoveredAt = wallClockMillis.getAsLong(); // last uses are not journaled: a restart is one
        sequenceFloor = start.sequenceFloor();
        nextNumber = start.nextNumber();
        Map<Long, Recovering> recovering = new HashMap<>();
        recovering.put(0L, new Recovering(registry.defaultClock(),
                registry.defaultClock().scheduler().beginRecovery(start.defaultClock(), 0)));
        for (RecoveredClocks.Clock saved : start.clocks()) {
            ClockSettings settings = saved.state() == null ? ClockSettings.VIRTUAL : saved.state().settings();
            Clock clock = new Clock(saved.number(), saved.name(), saved.initialNow(),
                    saved.createdAtWallMillis(), registry.configured(0, settings), recoveredAt, settings);
            recovering.put(saved.number(), new Recovering(clock,
                    clock.scheduler().beginRecovery(saved.state(), 0)));
        }
        for (Mutation mutation : records) {
            if (mutation instanceof Mutation.ClockCreated created) {
                if (recovering.containsKey(created.number())) {
                    throw new IllegalStateException("journal creates clock " + created.number() + " ("
                            + created.name() + ") which exists");
                }
                Clock clock = new Clock(created.number(), created.name(), created.now(),
                        created.createdAtWallMillis(), registry.configured(created.now(),
                        created.createdAtWallMillis(), created.settings()),
                        recoveredAt, created.settings());
                recovering.put(created.number(), new Recovering(clock,
                        clock.scheduler().beginRecovery(null, created.firstSequence())));
                nextNumber = Math.max(nextNumber, created.number() + 1);
            } else if (mutation instanceof Mutation.ClockForked forked) {
                Recovering source = recovering.get(forked.source());
                if (source == null || recovering.containsKey(forked.number())) {
                    throw new IllegalStateException("journal copies clock " + forked.source() + " into "
                            + forked.number() + " (" + forked.name() + "): no such source, or the copy exists");
                }
                if (source.recovery().clock() instanceof RunningClock running) {
                    // it showed the time the copy took, which no record of its own may hold (never back: a
                    // record without that time, UNKNOWN_TIME, changes nothing); a virtual clock's is its records'
                    running.passTo(forked.copiedAt());
                }
                ClockCopy copy = ClockCopy.of(source.recovery().state(), forked.lastSequence());
                recovering.put(forked.number(), copyOf(forked.number(), forked.name(),
                        forked.createdAtWallMillis(), copy, recoveredAt, wallClockMillis.getAsLong()));
                nextNumber = Math.max(nextNumber, forked.number() + 1);
            } else if (mutation instanceof Mutation.ClockLoaded loaded) {
                if (recovering.containsKey(loaded.number())) {
                    throw new IllegalStateException("journal loads clock " + loaded.number() + " ("
                            + loaded.name() + ") which exists");
                }
                recovering.put(loaded.number(), copyOf(loaded.number(), loaded.name(), loaded.createdAtWallMillis(),
                        ClockCopy.of(loaded.snapshot()), recoveredAt, loaded.createdAtWallMillis()));
                nextNumber = Math.max(nextNumber, loaded.number() + 1);
            } else if (mutation instanceof Mutation.AcrossClocks across) {
                for (Mutation.OnClock part : across.parts()) { // every clock's part, or (torn) none: one record
                    Recovering target = recovering.get(part.clock());
                    if (target == null) {
                        throw new IllegalStateException("journal's batch across clocks names clock " + part.clock()
                                + " which does not exist");
                    }
                    target.recovery().replay(part.mutation());
                }
            } else if (mutation instanceof Mutation.OnClock on) {
                Recovering target = recovering.get(on.clock());
                if (target == null || on.clock() == 0) {
                    throw new IllegalStateException("journal names clock " + on.clock() + " which does not exist");
                }
                if (on.mutation() instanceof Mutation.ClockDeleted) {
                    recovering.remove(on.clock());
                    sequenceFloor = Math.max(sequenceFloor,
                            Math.max(target.recovery().lastSequence(), target.recovery().reservedSequences()));
                } else {
                    target.recovery().replay(on.mutation());
                }
            } else {
                recovering.get(0L).recovery().replay(mutation);
            }
        }
        List<Clock> recovered = new ArrayList<>(recovering.size());
        for (Recovering each : recovering.values()) {
            each.clock().scheduler().finishRecovery(each.recovery());
            each.clock().recovered(each.recovery().settings());
            recovered.add(each.clock());
        }
        registry.recovered(recovered);
    }

    private record Recovering(Clock clock, ClockRecovery recovery) {
    }

    /** Journals into {@code log} from now on. Call once, holding the registry monitor, after {@link #recover}. */
    void attach(MutationLog log) {
        if (journal != MutationLog.NONE) {
            throw new IllegalStateException("a mutation log is already attached");
        }
        journal = log;
        for (Clock clock : registry.all()) {
            clock.scheduler().attachLog(viewFor(clock.number()));
        }
    }

    /**
     * Takes a snapshot of every clock now, on this thread, holding the registry monitor: every clock's lock in number
     * order, held while the heaps are copied and the journal rotates. Returns the pause in nanoseconds.
     */
    long snapshotNow() {
        List<Clock> clocks = new ArrayList<>(registry.all());
        clocks.sort(Comparator.comparingLong(Clock::number));
        int held = 0;
        long start = System.nanoTime();
        try {
            for (Clock clock : clocks) {
                clock.scheduler().holdForSnapshot();
                held++;
            }
            ClockImage defaultState = null;
            List<ClocksState.Clock> others = new ArrayList<>(clocks.size() - 1);
            for (Clock clock : clocks) {
                ClockImage state = clock.scheduler().stateForSnapshot();
                if (clock == registry.defaultClock()) {
                    defaultState = state;
                } else {
                    others.add(new ClocksState.Clock(clock.number(), clock.name(), clock.initialNow(),
                            clock.createdAtWallMillis(), state));
                }
            }
            long pause = System.nanoTime() - start;
            journal.snapshot(new ClocksState(defaultState.withCopyNanos(pause), others, sequenceFloor,
                    nextNumber));
            return System.nanoTime() - start;
        } finally {
            for (int i = held - 1; i >= 0; i--) {
                clocks.get(i).scheduler().releaseForSnapshot();
            }
        }
    }

    private void snapshotInBackground() {
        if (!snapshotQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            Thread thread = new Thread(() -> {
                try {
                    registry.snapshotNow(); // takes the registry monitor
                } catch (RuntimeException | OutOfMemoryError e) {
                    LOG.log(System.Logger.Level.WARNING, "could not take a snapshot of the clocks; the journal keeps"
                            + " every record", e);
                } finally {
                    snapshotQueued.set(false);
                }
            }, "timeservice-clocks-snapshot");
            thread.setDaemon(true);
            thread.start();
        } catch (RuntimeException | OutOfMemoryError e) {
            snapshotQueued.set(false);
            LOG.log(System.Logger.Level.WARNING, "could not start a snapshot of the clocks", e);
        }
    }

    /** Clock {@code number}'s view of the journal: its records tagged, its snapshots taken for every clock. */
    MutationLog viewFor(long number) {
        MutationLog shared = journal;
        return new MutationLog() {
            @Override
            public void requireWritable() {
                shared.requireWritable();
            }

            @Override
            public long append(Mutation mutation) {
                // a record across clocks names each of its clocks itself (BatchAcrossClocks)
                return shared.append(number == 0 || mutation instanceof Mutation.AcrossClocks ? mutation
                        : new Mutation.OnClock(number, mutation));
            }

            @Override
            public void appendForced(Mutation mutation) {
                shared.appendForced(number == 0 ? mutation : new Mutation.OnClock(number, mutation));
            }

            @Override
            public boolean failed() {
                return shared.failed();
            }

            @Override
            public void awaitDurable(long position) {
                shared.awaitDurable(position);
            }

            @Override
            public long lastAppended() {
                return shared.lastAppended();
            }

            @Override
            public boolean wantsSnapshot(int size) {
                if (shared.wantsSnapshot((int) Math.min(Integer.MAX_VALUE, budget.timers()))) {
                    snapshotInBackground(); // never under this clock's lock: the cut takes every clock's
                }
                return false;
            }
        };
    }
}
