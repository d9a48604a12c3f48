package io.timeservice.store.memory;

import java.util.List;
import java.util.function.LongSupplier;

import io.timeservice.model.BatchOp;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.OnConflict;
import io.timeservice.model.Precondition;
import io.timeservice.model.Reservation;
import io.timeservice.model.ProblemException;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.memory.heap.IndexedTimerHeap;
import io.timeservice.store.memory.time.TimeSource;

/**
 * One memory clock's timer changes ({@link io.timeservice.store.TimerStore}'s add, cancel, edit and batch, and the
 * demo queue's reset): each decided under the clock's lock, journaled as one record and applied, all or nothing
 * (see {@link ClockKernel}). The PostgreSQL store's counterpart is {@code PostgresTimerChanges}.
 *
 * <p>Cost: add, cancel and edit O(log n) plus an expected O(1) id lookup; a batch of k the sum of its operations'.
 * A timer's sequence is assigned at add from a strictly increasing counter and kept on edit, so equal deadlines and
 * priorities fire in arrival order.
 *
 * <p>Not thread-safe by itself: every method takes the lock through the {@link ClockKernel}.
 */
final class TimerChanges {

    private final ClockKernel kernel;
    private final IndexedTimerHeap heap;
    private final Capacity capacity;
    private final Sequences sequences;
    private final LongSupplier wallClockMillis;
    /** The clock's schedules: their occurrences are timers of this heap that only the schedule changes. */
    private final ClockScheduleCalls schedules;
    /** Dropped, with the timers, by a reset. */
    private final ClockDeliveries clockDeliveries;

    TimerChanges(ClockKernel kernel, LongSupplier wallClockMillis, ClockScheduleCalls schedules,
                 ClockDeliveries clockDeliveries) {
        this.kernel = kernel;
        this.heap = kernel.heap();
        this.capacity = kernel.capacity();
        this.sequences = kernel.sequences();
        this.wallClockMillis = wallClockMillis;
        this.schedules = schedules;
        this.clockDeliveries = clockDeliveries;
    }

    /** See {@link io.timeservice.store.TimerStore#add}: due {@code due}, decided under the lock; steps into trace. */
    Timer add(String id, Due due, int priority, String payload, String traceContext, String key, Trace trace) {
        return kernel.mutate(Operation.ADD, () -> {
            TimerRules.requireValidId(id);
            TimerRules.requireValidKey(key);
        }, () -> {
            long now = kernel.clock().now();
            long fireTime = TimeRules.fireTime(now, due);
            schedules.requireNotReserved(id);
            int found = heap.lookup(id); // pending, reserved or free: one probe of the id index
            if (found >= 0) {
                throw TimerRules.duplicateId(id);
            }
            kernel.requireNotReservedId(found, now);
            long bytes = capacity.reserve(id, payload); // the last refusal; given back if anything after it throws
            try {
                MutationLog log = kernel.log();
                log.requireWritable();
                long sequence = sequences.reserveNext(log);
                long createdAtWall = wallClockMillis.getAsLong();
                Timer added = new Timer(id, fireTime, priority, sequence, 1, now, payload, null, traceContext, key);
                return kernel.commit(new Mutation.Added(added, createdAtWall), trace, () -> {
                    heap.insert(id, fireTime, priority, sequence, 1, now, createdAtWall, payload, traceContext, key);
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

    /** See {@link io.timeservice.store.TimerStore#add(String, String, Due, int, String, String, String, OnConflict)} */
    AddOutcome add(String id, Due due, int priority, String payload, String traceContext, String key,
                   OnConflict onConflict) {
        if (onConflict == OnConflict.ERROR) {
            return AddOutcome.added(add(id, due, priority, payload, traceContext, key, Trace.NONE));
        }
        AddOutcome[] decided = new AddOutcome[1];
        Timer changed = kernel.mutate(Operation.ADD, () -> {
            TimerRules.requireValidId(id);
            TimerRules.requireValidKey(key);
        }, () -> {
            long now = kernel.clock().now();
            long fireTime = TimeRules.fireTime(now, due);
            schedules.requireNotReserved(id);
            int handle = heap.lookup(id);
            if (handle < 0) {
                Reservation held = kernel.reservations().found(handle, now);
                if (held != null && onConflict == OnConflict.KEEP) {
                    decided[0] = new AddOutcome(AddOutcome.Result.KEPT, null, held);
                    return new Applied<>(null, kernel.log().lastAppended(), Applied.NO_LEVELS);
                }
                return new Applied<>(null, 0, Applied.NO_LEVELS); // an add as without onConflict, below
            }
            Timer current = heap.timerAt(handle);
            if (onConflict == OnConflict.KEEP) {
                decided[0] = new AddOutcome(AddOutcome.Result.KEPT, current, null);
                return new Applied<>(current, kernel.log().lastAppended(), Applied.NO_LEVELS);
            }
            schedules.requireNotOwned(id);
            TimerRules.requireVersionLeft(current);
            long delta = Capacity.bytesOf(id, payload) - Capacity.bytesOf(current);
            long reserved = Math.max(0, delta);
            capacity.reserve(0, reserved);
            try {
                kernel.log().requireWritable();
                Timer replaced = new Timer(id, fireTime, priority, current.sequence(), current.version() + 1,
                        current.createdAt(), payload, current.schedule(), current.traceContext(), current.key());
                decided[0] = new AddOutcome(AddOutcome.Result.REPLACED, replaced, null);
                return kernel.commit(new Mutation.Replaced(id, replaced.sequence(), fireTime, priority,
                        replaced.version(), payload), Trace.NONE, () -> {
                    heap.update(handle, fireTime, priority);
                    heap.records().replacePayload(handle, payload);
                    capacity.batchApplied(0, reserved, 0, delta);
                    return replaced;
                });
            } catch (RuntimeException | Error refused) {
                capacity.unreserve(0, reserved);
                throw refused;
            }
        });
        if (decided[0] != null) {
            return decided[0];
        }
        try {
            return AddOutcome.added(add(id, due, priority, payload, traceContext, key, Trace.NONE)); // reserved: refused
        } catch (ProblemException refused) {
            if (refused.code() == ErrorCode.DUPLICATE_ID && refused.extra().isEmpty()) {
                return add(id, due, priority, payload, traceContext, key, onConflict); // added meanwhile: decide again
            }
            throw refused;
        }
    }

    /** See {@link io.timeservice.store.TimerStore#cancel}; {@code schedule_owned} for a schedule's occurrence. */
    Timer cancel(String id, Precondition precondition, Trace trace) {
        return kernel.mutate(Operation.CANCEL, () -> { }, () -> {
            int handle = kernel.requirePending(id);
            schedules.requireNotOwned(id);
            Timer cancelled = heap.timerAt(handle);
            if (!precondition.accepts(cancelled.revision())) {
                throw TimerRules.preconditionFailed(cancelled);
            }
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.Cancelled(id, cancelled.sequence()), trace, () -> {
                heap.remove(handle);
                capacity.removed(cancelled);
                kernel.reservations().cancelled(id, cancelled.sequence());
                return cancelled;
            });
        });
    }

    /**
     * See {@link io.timeservice.store.TimerStore#edit}: a new due time (a delay counts from now), priority or both,
     * the sequence kept.
     *
     * @throws ProblemException as there, and {@code schedule_owned} for a schedule's occurrence
     */
    Timer edit(String id, Due newDue, Integer newPriority, Precondition precondition, Trace trace) {
        return kernel.mutate(Operation.EDIT, () -> TimerRules.requireEditChange(newDue, newPriority), () -> {
            long fireTime = newDue == null ? 0 : TimeRules.fireTime(kernel.clock().now(), newDue);
            int handle = kernel.requirePending(id);
            schedules.requireNotOwned(id);
            Timer current = heap.timerAt(handle);
            if (!precondition.accepts(current.revision())) {
                throw TimerRules.preconditionFailed(current);
            }
            TimerRules.requireVersionLeft(current);
            kernel.log().requireWritable();
            Timer edited = new Timer(id, newDue == null ? current.fireTime() : fireTime,
                    newPriority == null ? current.priority() : newPriority, current.sequence(),
                    current.version() + 1, current.createdAt(), current.payload(), null, current.traceContext(),
                    current.key());
            return kernel.commit(new Mutation.Edited(id, edited.sequence(), edited.fireTime(), edited.priority(),
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
     * occurrence is {@code schedule_owned}, and so is an add of an id of the form of a schedule's occurrences. An add
     * with {@code onConflict} keeps or replaces as the single add does ({@link BatchPlan}); a batch that only kept
     * records nothing.
     */
    List<AddOutcome> batch(List<? extends BatchOp> ops) {
        return kernel.mutate(Operation.BATCH, () -> {
            TimerRules.requireBatchSize(ops);
        }, () -> {
            BatchPlan plan = decideBatch(ops, 0);
            try {
                MutationLog log = kernel.log();
                if (plan.mutations().isEmpty()) { // every operation kept what was there: nothing to record
                    return new Applied<>(plan.results(), log.lastAppended(), Applied.NO_LEVELS);
                }
                reserveSequences(plan);
                return kernel.commit(new Mutation.Batch(plan.mutations()), Trace.NONE, () -> {
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
     * Decides {@code ops} as {@link #batch} does, changing nothing but the budget: the plan holds what it took from it
     * until it is applied or {@link BatchPlan#giveBackReserved given back} (a refusal here gives it back itself). A
     * refusal names its operation counted from {@code firstIndex}. Call under the lock.
     */
    BatchPlan decideBatch(List<? extends BatchOp> ops, int firstIndex) {
        long now = kernel.clock().now();
        BatchPlan plan = new BatchPlan(heap, capacity, sequences, now, wallClockMillis.getAsLong(), ops.size(),
                schedules, id -> kernel.requireNotReservedId(id, now), kernel.reservations());
        try {
            schedules.requireNoneOwned(ops, firstIndex);
            plan.decideAll(ops, firstIndex);
            return plan;
        } catch (RuntimeException | Error refused) {
            plan.giveBackReserved();
            throw refused;
        }
    }

    /**
     * Refuses a log that cannot write, then reserves on disk the sequences {@code plan}'s adds take: the last step
     * before the plan's record is appended. Call under the lock.
     */
    void reserveSequences(BatchPlan plan) {
        MutationLog log = kernel.log();
        log.requireWritable();
        if (plan.adds() > 0 && sequences.reserveNext(log, plan.adds()) != sequences.last() + 1) {
            throw new IllegalStateException("sequences moved during a batch");
        }
    }

    /** See {@link io.timeservice.store.TimerStore#releaseReservation}. */
    Reservation releaseReservation(String id) {
        return kernel.mutate(Operation.CANCEL, () -> {
            long now = kernel.clock().now();
            Reservation held = kernel.reservations().find(id, now);
            if (held == null) {
                throw TimerRules.reservationNotFound(id);
            }
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.ReservationReleased(id), Trace.NONE, () -> {
                kernel.reservations().release(id, now);
                return held;
            });
        });
    }

    /**
     * Forgets every pending timer, schedule and delivery and continues on {@code freshClock} (a virtual clock; a
     * system clock's time stays the wall clock's). Sequences keep counting, so no entity tag issued before the reset
     * can match a timer created after it. Destructive: the web layer allows it only for the demo queue.
     */
    void reset(TimeSource freshClock) {
        long position = kernel.serving(() -> {
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.Reset(), Trace.NONE, () -> {
                capacity.removedAll(heap.size());
                heap.clear();
                schedules.dropAll();
                clockDeliveries.drop();
                kernel.reservations().clear();
                TimeSource clock = kernel.clock();
                kernel.useClock(clock.isVirtual() ? freshClock : clock); // a system clock's time is the wall clock's
                return null;
            }).position();
        });
        kernel.log().awaitDurable(position);
    }
}
