package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.timeservice.model.AddOutcome;
import io.timeservice.model.BatchOp;
import io.timeservice.model.OnConflict;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Reservation;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.store.memory.heap.IndexedTimerHeap;

/**
 * A batch being decided, then applied: what each operation would see ({@link #current}), its records and outcomes
 * in order, the adds' sequences (after {@code sequences.last()}) and what it took from the budget. An add with
 * {@link OnConflict#KEEP} of a pending or reserved id records nothing; one with {@link OnConflict#REPLACE} of a
 * pending id records a {@link Mutation.Replaced}, as the single add does.
 *
 * <p>Not thread-safe: use only under the clock's lock, within one {@link TimerChanges#batch} call or one
 * {@link BatchAcrossClocks} hold of the clocks' locks.
 */
final class BatchPlan {

    private final IndexedTimerHeap heap;
    private final Capacity capacity;
    private final Sequences sequences;
    private final long now;
    private final long createdAtWall;
    /**
     * Refuses an add's id that a schedule of the clock owns by its form, or a replace of a schedule's occurrence
     * ({@code schedule_owned}).
     */
    private final ClockScheduleCalls schedules;
    /** Refuses an add's id that the clock keeps reserved ({@code duplicate_id}) or beyond the reservations' cap. */
    private final Consumer<String> requireNotReservedId;
    /** Told each timer the batch cancels; asked for the reservation an add with {@code keep} keeps. */
    private final Reservations reservations;
    /** The timers the batch changed so far, by id; a null value: cancelled by the batch. */
    private final Map<String, Timer> changed = new HashMap<>();
    /**
     * On a clock with a dedupe window: the ids the batch cancelled, with the cancelled timer's sequence; reserved from
     * the cancel on for the operations after it, as the PostgreSQL store's cancel writes its reservation at once.
     */
    private final Map<String, Long> cancelledHere = new HashMap<>();
    private final List<Mutation> mutations;
    private final List<AddOutcome> results;
    private int adds;
    private long netTimers;
    private long netBytes;
    private long reservedTimers;
    private long reservedBytes;
    private boolean applied;

    BatchPlan(IndexedTimerHeap heap, Capacity capacity, Sequences sequences, long now, long createdAtWall,
              int size, ClockScheduleCalls schedules, Consumer<String> requireNotReservedId,
              Reservations reservations) {
        this.reservations = reservations;
        this.schedules = schedules;
        this.heap = heap;
        this.capacity = capacity;
        this.sequences = sequences;
        this.now = now;
        this.createdAtWall = createdAtWall;
        this.requireNotReservedId = requireNotReservedId;
        this.mutations = new ArrayList<>(size);
        this.results = new ArrayList<>(size);
    }

    /**
     * Decides every operation in order; a refusal names the operation's index, counted from {@code firstIndex} (a
     * part of a batch across clocks counts on from the parts before it).
     */
    void decideAll(List<? extends BatchOp> ops, int firstIndex) {
        for (int i = 0; i < ops.size(); i++) {
            try {
                decide(ops.get(i));
            } catch (ProblemException refused) {
                throw refused.atOp(firstIndex + i);
            }
        }
    }

    /** Decides one operation as its single call would, against the state the ones before it leave. */
    private void decide(BatchOp op) {
        if (op instanceof BatchOp.Add add) {
            decideAdd(add);
        } else if (op instanceof BatchOp.Edit edit) {
            TimerRules.requireEditChange(edit.due(), edit.priority());
            long fireTime = edit.due() == null ? 0 : TimeRules.fireTime(now, edit.due());
            Timer current = requireCurrent(edit.id(), edit.precondition());
            TimerRules.requireVersionLeft(current);
            Timer edited = new Timer(current.id(), edit.due() == null ? current.fireTime() : fireTime,
                    edit.priority() == null ? current.priority() : edit.priority(), current.sequence(),
                    current.version() + 1, current.createdAt(), current.payload(), null, current.traceContext(),
                    current.key());
            decided(edited, new Mutation.Edited(edited.id(), edited.sequence(), edited.fireTime(),
                    edited.priority(), edited.version()), AddOutcome.changed(edited));
        } else if (op instanceof BatchOp.Cancel cancel) {
            Timer current = requireCurrent(cancel.id(), cancel.precondition());
            netTimers--;
            netBytes -= Capacity.bytesOf(current);
            changed.put(current.id(), null);
            if (reservations.reserves()) {
                cancelledHere.put(current.id(), current.sequence());
            }
            mutations.add(new Mutation.Cancelled(current.id(), current.sequence()));
            results.add(AddOutcome.changed(current));
        } else {
            throw TimerRules.nullBatchOp();
        }
    }

    /**
     * Decides an add as the single add with its {@code onConflict} decides it, against the state the operations before
     * it leave: a pending id kept or replaced, a reserved id kept (or refused), else added.
     */
    private void decideAdd(BatchOp.Add add) {
        TimerRules.requireValidId(add.id());
        TimerRules.requireValidKey(add.key());
        long fireTime = TimeRules.fireTime(now, add.due());
        schedules.requireNotReserved(add.id());
        Timer current = current(add.id());
        Long cancelled = current == null ? cancelledHere.get(add.id()) : null;
        Reservation heldHere = cancelled == null ? null
                : new Reservation(add.id(), Reservation.State.CANCELLED, now, cancelled);
        if (current != null && add.onConflict() != OnConflict.ERROR) {
            if (add.onConflict() == OnConflict.KEEP) {
                results.add(AddOutcome.kept(current));
                return;
            }
            schedules.requireNotOwned(add.id());
            TimerRules.requireVersionLeft(current);
            long delta = Capacity.bytesOf(add.id(), add.payload()) - Capacity.bytesOf(current);
            netBytes += delta;
            reserveRunningPeak();
            Timer replaced = new Timer(add.id(), fireTime, add.priority(), current.sequence(), current.version() + 1,
                    current.createdAt(), add.payload(), current.schedule(), current.traceContext(), current.key());
            decided(replaced, new Mutation.Replaced(add.id(), replaced.sequence(), fireTime, add.priority(),
                    replaced.version(), add.payload()), AddOutcome.replaced(replaced));
            return;
        }
        if (current == null && add.onConflict() == OnConflict.KEEP) {
            Reservation held = heldHere != null ? heldHere : reservations.find(add.id(), now);
            if (held != null) {
                results.add(AddOutcome.kept(held));
                return;
            }
        }
        if (heldHere != null) {
            throw TimerRules.idReserved(heldHere);
        }
        requireNotReservedId.accept(add.id());
        if (current != null) {
            throw TimerRules.duplicateId(add.id());
        }
        long bytes = Capacity.bytesOf(add.id(), add.payload());
        netTimers++;
        netBytes += bytes;
        reserveRunningPeak();
        adds++;
        Timer added = new Timer(add.id(), fireTime, add.priority(), sequences.last() + adds, 1, now,
                add.payload(), null, add.traceContext(), add.key());
        decided(added, new Mutation.Added(added, createdAtWall), AddOutcome.added(added));
    }

    private void decided(Timer timer, Mutation mutation, AddOutcome result) {
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
            throw TimerRules.timerNotFound(id);
        }
        if (!precondition.accepts(current.revision())) {
            throw TimerRules.preconditionFailed(current);
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
                        t.payload(), t.traceContext(), t.key());
            } else if (mutation instanceof Mutation.Edited edited) {
                heap.update(heap.find(edited.id()), edited.fireTime(), edited.priority());
            } else if (mutation instanceof Mutation.Replaced replaced) {
                int handle = heap.find(replaced.id());
                heap.update(handle, replaced.fireTime(), replaced.priority());
                heap.records().replacePayload(handle, replaced.payload());
            } else if (mutation instanceof Mutation.Cancelled cancelled) {
                heap.remove(heap.find(cancelled.id()));
                reservations.cancelled(cancelled.id(), cancelled.sequence());
            }
        }
        if (adds > 0) {
            sequences.issued(sequences.last() + adds);
        }
        capacity.batchApplied(reservedTimers, reservedBytes, netTimers, netBytes);
        applied = true;
    }

    /** How many timers the batch adds. */
    int adds() {
        return adds;
    }

    /** The decided records, in order. */
    List<Mutation> mutations() {
        return mutations;
    }

    /** Each operation's outcome, in order; complete once {@link #decideAll} ran. */
    List<AddOutcome> results() {
        return List.copyOf(results);
    }

    /** Gives the budget back what a refused batch took; once (a second call gives nothing). */
    void giveBackReserved() {
        if (!applied) {
            capacity.unreserve(reservedTimers, reservedBytes);
            reservedTimers = 0;
            reservedBytes = 0;
        }
    }
}
