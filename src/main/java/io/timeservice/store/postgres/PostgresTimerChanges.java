package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.Due;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.OnConflict;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.Reservation;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;

/**
 * The changes of the PostgreSQL store's pending timers (table {@code timers}): add, edit, cancel, atomic batches of
 * them, and the demo's reset of a clock, with the memory store's semantics and refusals, in the same order (the
 * {@code TimerStore} port's contract). The statements are {@link TimerSql}'s.
 *
 * <p>Thread-safe and safe across instances, by the database's locks, each call one READ COMMITTED transaction:
 * <ul>
 *   <li>every change first shares its clock's row ({@code FOR SHARE}), which an advance locks
 *       ({@code FOR UPDATE}, {@link PostgresClockFiring}), so a timer is never added or moved relative to a now an
 *       advance has passed, and an advance's count of the due timers and its firing see one set (a cancel or edit
 *       committing between them made it fire nothing after counting "more", or fire an edited timer out of order:
 *       issue 34, item 12);</li>
 *   <li>cancel and edit then lock the timer's row, so each sees the one another change left;</li>
 *   <li>the pending budget ({@link PendingBudgetStripes}) is changed as the last statement of the transaction.</li>
 * </ul>
 * Every refusal is decided before the commit and rolls everything back, so a refused call changes nothing; a batch
 * is one transaction, all or nothing. Sequences come from one database sequence (see the schema). Costs: add, edit
 * and cancel are a few index lookups; a batch one statement per operation, a run of adds one statement
 * ({@link BatchAdds}).
 */
public final class PostgresTimerChanges {

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final FiringAlarm alarm;
    /** The ids clocks with a dedupe window keep reserved, and their cap. */
    private final PostgresReservations reservations;

    PostgresTimerChanges(Jdbc jdbc, PendingBudgetStripes budget, FiringAlarm alarm,
                         PostgresReservations reservations) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.alarm = alarm;
        this.reservations = reservations;
    }

    /**
     * Releases the clock's reservation of {@code id} (its dedupe window) early; answers it as it was.
     *
     * @throws ProblemException {@code clock_not_found}, {@code reservation_not_found}
     */
    public Reservation releaseReservation(String clock, String id) {
        return jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE");
            Reservation released = PostgresReservations.release(connection, stored, id);
            if (released == null) {
                throw TimerRules.reservationNotFound(id);
            }
            return released;
        });
    }

    /**
     * The earliest fire time a change gave a timer of a clock that fires by itself, as the database's clock, told to
     * this instance's firing loop after the commit (a retried transaction may leave an earlier time from a failed
     * attempt: that only wakes the loop once for nothing).
     */
    private static final class SystemFiring {
        private long earliest = Long.MAX_VALUE;

        void saw(StoredClock clock, Timer timer) {
            if (timer != null && clock.firesByItself()) { // null: nothing changed
                earliest = Math.min(earliest, clock.dbTimeOf(timer.fireTime()));
            }
        }

        void tell(FiringAlarm alarm) {
            if (earliest != Long.MAX_VALUE) {
                alarm.dueAt(earliest);
            }
        }
    }

    /** Adds a timer due at the clock's {@code now + delay}. */
    public Timer add(String clock, String id, long delay, int priority, String payload) {
        return add(clock, id, Due.after(delay), priority, payload);
    }

    /**
     * Adds a timer due {@code due}, its fireTime decided against the clock's now as read in the same transaction (an
     * advance, which locks the clock's row, cannot move now in between).
     *
     * @throws ProblemException {@code clock_not_found}, {@code invalid_id}, {@code invalid_delay},
     *                            {@code duplicate_id} or {@code capacity_exceeded}
     */
    public Timer add(String clock, String id, Due due, int priority, String payload) {
        return add(clock, id, due, priority, payload, (String) null, null);
    }

    /**
     * {@link #add(String, String, Due, int, String)}, the timer keeping {@code traceContext} and the flow-control
     * {@code key} (null: none).
     */
    public Timer add(String clock, String id, Due due, int priority, String payload, String traceContext,
                     String key) {
        return onSharedClock(clock, (connection, stored) -> {
            Timer added = insert(connection, stored, id, due, priority, payload, traceContext, key);
            long bytes = Limits.bytesOf(id, payload);
            try {
                budget.change(connection, 1, bytes, 1, bytes);
            } catch (PendingBudgetStripes.Exceeded exceeded) {
                throw capacityRefusal(exceeded.availableTimers < 1, exceeded.pendingBytes, bytes, false, budget);
            }
            return added;
        });
    }

    /**
     * An add deciding by {@code onConflict} when the id is pending or reserved, in one transaction with the clock's
     * row shared and the pending row locked: keep answers it (or the reservation), replace updates its due time,
     * priority and payload (sequence kept, one more version), else an add as {@link #add(String, String, Due, int,
     * String)}, which refuses a reserved id.
     */
    public AddOutcome add(String clock, String id, Due due, int priority, String payload, String traceContext,
                          String key, OnConflict onConflict) {
        if (onConflict == OnConflict.ERROR) {
            return AddOutcome.added(add(clock, id, due, priority, payload, traceContext, key));
        }
        AddOutcome[] decided = new AddOutcome[1];
        onSharedClock(clock, (connection, stored) -> {
            Decided add = decide(connection, stored, new BatchOp.Add(id, due, priority, payload, traceContext, key,
                    onConflict));
            if (add.timers() != 0 || add.bytes() != 0) {
                try {
                    budget.change(connection, add.timers(), Math.max(0, add.bytes()), add.timers(), add.bytes());
                } catch (PendingBudgetStripes.Exceeded exceeded) {
                    throw capacityRefusal(add.timers() > 0 && exceeded.availableTimers < 1, exceeded.pendingBytes,
                            add.bytes(), false, budget);
                }
            }
            decided[0] = add.outcome();
            return add.outcome().result() == AddOutcome.Result.KEPT ? null : add.outcome().timer();
        });
        return decided[0];
    }

    /** What an add with {@code onConflict} did, and the change of the pending timers and their bytes it makes. */
    private record Decided(AddOutcome outcome, long timers, long bytes) {
    }

    /**
     * Decides {@code add} by its {@code onConflict} on the caller's transaction, the clock's row shared: a pending
     * id (its row locked) kept or replaced (due time, priority and payload; sequence kept, one more version), a
     * reserved id kept, else inserted as a plain add, which refuses a reserved id. The budget is the caller's.
     */
    private Decided decide(Connection connection, StoredClock stored, BatchOp.Add add) throws SQLException {
        if (add.onConflict() == OnConflict.ERROR) {
            Timer added = insert(connection, stored, add.id(), add.due(), add.priority(), add.payload(),
                    add.traceContext(), add.key());
            return new Decided(AddOutcome.added(added), 1, Limits.bytesOf(add.id(), add.payload()));
        }
        String id = add.id();
        TimerRules.requireValidId(id);
        TimerRules.requireValidKey(add.key());
        long fireTime = TimeRules.fireTime(stored.now(), add.due());
        String owner = ScheduleRules.occurrenceFormOwner(id);
        if (owner != null && ScheduleRows.exists(connection, stored.name(), owner)) {
            throw ScheduleRules.scheduleReserved(id, owner);
        }
        Timer current = Jdbc.queryFirst(connection, TimerSql.LOCK, select -> {
            select.setString(1, stored.name());
            select.setString(2, id);
        }, row -> TimerRows.timerAt(row, 1));
        if (current == null) {
            Reservation held = stored.dedupeWindow() == 0 ? null : PostgresReservations.find(connection, stored, id);
            if (held != null && add.onConflict() == OnConflict.KEEP) {
                return new Decided(AddOutcome.kept(held), 0, 0);
            }
            return decide(connection, stored, add.withOnConflict(OnConflict.ERROR));
        }
        if (add.onConflict() == OnConflict.KEEP) {
            return new Decided(AddOutcome.kept(current), 0, 0);
        }
        if (current.schedule() != null) {
            throw ScheduleRules.scheduleOwned(id, current.schedule());
        }
        TimerRules.requireVersionLeft(current);
        long bytes = Limits.bytesOf(id, add.payload());
        Timer replaced = new Timer(id, fireTime, add.priority(), current.sequence(), current.version() + 1,
                current.createdAt(), add.payload(), null, current.traceContext(), current.key());
        try (PreparedStatement update = connection.prepareStatement(TimerSql.REPLACE)) {
            update.setLong(1, fireTime);
            update.setInt(2, add.priority());
            update.setLong(3, replaced.version());
            update.setString(4, add.payload());
            update.setLong(5, bytes);
            update.setLong(6, current.sequence());
            update.executeUpdate();
        }
        return new Decided(AddOutcome.replaced(replaced), 0, bytes - Limits.bytesOf(id, current.payload()));
    }

    /**
     * Cancels a pending timer if {@code precondition} accepts its revision; returns it as it was.
     *
     * @throws ProblemException {@code clock_not_found}, {@code timer_not_found} or {@code precondition_failed}
     */
    public Timer cancel(String clock, String id, Precondition precondition) {
        return jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE"); // no advance meanwhile
            Timer cancelled = delete(connection, stored, id, precondition);
            budget.release(connection, 1, Limits.bytesOf(cancelled.id(), cancelled.payload()));
            return cancelled;
        });
    }

    /** An edit with a new delay from the clock's now. */
    public Timer edit(String clock, String id, Long newDelay, Integer newPriority, Precondition precondition) {
        return edit(clock, id, newDelay == null ? null : Due.after(newDelay), newPriority, precondition);
    }

    /**
     * Gives a pending timer a new due time (a delay counts from the clock's now), priority or both if
     * {@code precondition} accepts its revision, keeping its sequence and counting one more version.
     *
     * @throws ProblemException {@code clock_not_found}, {@code invalid_request} (nothing to change),
     *                            {@code invalid_delay}, {@code timer_not_found}, {@code precondition_failed} or
     *                            {@code version_limit_reached}
     */
    public Timer edit(String clock, String id, Due newDue, Integer newPriority, Precondition precondition) {
        // the clock shared even for a priority-only edit: an advance must not fire it with the order of neither
        // version; the firing loop told of it too: its row may have been locked when the loop fired
        return onSharedClock(clock, (connection, stored) -> update(connection, stored, id, newDue, newPriority,
                precondition));
    }

    /** One change of one timer, on the caller's transaction, its clock's row shared. */
    @FunctionalInterface
    private interface Change {
        Timer apply(Connection connection, StoredClock stored) throws SQLException;
    }

    /**
     * Runs {@code change} in one transaction that first shares the clock's row ({@code FOR SHARE}), then tells this
     * instance's firing loop when the changed timer is due, if its clock fires by itself.
     */
    private Timer onSharedClock(String clock, Change change) {
        SystemFiring firing = new SystemFiring();
        Timer changed = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE");
            Timer result = change.apply(connection, stored);
            firing.saw(stored, result);
            return result;
        });
        firing.tell(alarm);
        return changed;
    }

    /**
     * Applies {@code ops} in order in one transaction, all or nothing, each decided against the state the ones
     * before it leave, exactly as its single call would be; the budget is checked for the running total's peak
     * ({@link BatchNeeds}).
     *
     * @return each operation's outcome in order: an add's (added, or kept or replaced by its {@code onConflict}, as
     *         the single add decides), the edited timer, or the cancelled timer as it was
     * @throws ProblemException {@code clock_not_found}; {@code invalid_request} for no or more than
     *                            {@link Limits#MAX_BATCH_OPS} operations; else the first refused
     *                            operation's refusal with its index
     */
    public List<AddOutcome> batchOutcomes(String clock, List<? extends BatchOp> ops) {
        SystemFiring firing = new SystemFiring();
        List<AddOutcome> applied = jdbc.inTransaction(connection -> {
            StoredClock stored = ClockRows.require(connection, clock, " FOR SHARE");
            TimerRules.requireBatchSize(ops);
            BatchNeeds needs = new BatchNeeds(ops.size());
            List<AddOutcome> results = applyAll(connection, stored, ops, needs, firing);
            takeBudget(connection, needs);
            return results;
        });
        firing.tell(alarm);
        return applied;
    }

    /**
     * See {@link io.timeservice.store.TimerStore#batchAcross}: every part in one transaction, which first shares the
     * parts' clocks' rows in name order, then applies the parts in name order (each as {@link #batchOutcomes} applies
     * its batch; the budget counts them one after another, {@link BatchNeeds#startPart}) and takes the budget once;
     * any refusal rolls every part back. Two such batches lock their clocks' rows, and then their timers' rows part
     * by part, in the same order whatever order they name the clocks in, so they do not deadlock on them.
     */
    public List<List<AddOutcome>> batchAcross(List<ClockBatch> parts) {
        if (parts != null && parts.size() == 1 && parts.get(0) != null) {
            return List.of(batchOutcomes(parts.get(0).clockName(), parts.get(0).ops()));
        }
        TimerRules.requireBatchAcross(parts);
        int[] firstIndex = new int[parts.size()];
        int total = 0;
        for (int i = 0; i < parts.size(); i++) {
            firstIndex[i] = total;
            total += parts.get(i).ops().size();
        }
        List<Integer> inNameOrder = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            inNameOrder.add(i);
        }
        inNameOrder.sort(Comparator.comparing(i -> parts.get(i).clockName()));
        int size = total;
        SystemFiring firing = new SystemFiring();
        List<List<AddOutcome>> applied = jdbc.inTransaction(connection -> {
            StoredClock[] stored = new StoredClock[parts.size()];
            for (int i : inNameOrder) {
                stored[i] = ClockRows.find(connection, parts.get(i).clockName(), " FOR SHARE");
            }
            for (int i = 0; i < parts.size(); i++) { // clock_not_found for the first missing in the order given
                ClockRows.found(parts.get(i).clockName(), stored[i]);
            }
            BatchNeeds needs = new BatchNeeds(size);
            List<List<AddOutcome>> results = new ArrayList<>(Collections.nCopies(parts.size(), null));
            for (int i : inNameOrder) {
                needs.startPart(firstIndex[i]);
                results.set(i, applyAll(connection, stored[i], parts.get(i).ops(), needs, firing));
            }
            takeBudget(connection, needs);
            return results;
        });
        firing.tell(alarm);
        return applied;
    }

    /**
     * Applies {@code ops} on the caller's transaction, in order, each decided against the state the ones before it
     * leave, counting them in {@code needs}; a refusal names the operation as {@code needs} counts it.
     */
    private List<AddOutcome> applyAll(Connection connection, StoredClock stored, List<? extends BatchOp> ops,
                                      BatchNeeds needs, SystemFiring firing) throws SQLException {
        List<AddOutcome> results = new ArrayList<>(ops.size());
        int i = 0;
        while (i < ops.size()) {
            int end = i;
            while (end < ops.size() && ops.get(end) instanceof BatchOp.Add add
                    && add.onConflict() == OnConflict.ERROR) {
                end++;
            }
            ProblemException refused;
            if (end - i > 1) { // consecutive adds: one statement for all of them
                List<BatchOp.Add> run = new ArrayList<>(end - i);
                for (BatchOp op : ops.subList(i, end)) {
                    run.add((BatchOp.Add) op);
                }
                BatchAdds.Outcome outcome = BatchAdds.insert(connection, stored, run, reservations);
                for (Timer added : outcome.added()) {
                    results.add(AddOutcome.added(added));
                    firing.saw(stored, added);
                    needs.after(ops.get(i++), added);
                }
                refused = outcome.refusal();
                if (refused == null) {
                    continue;
                }
            } else {
                try {
                    results.add(apply(connection, stored, ops.get(i), needs, firing));
                    i++;
                    continue;
                } catch (ProblemException refusal) {
                    refused = refusal;
                }
            }
            // The memory store decides in order, so an earlier operation may have run out of budget first.
            // The totals are read unlocked: the batch is refused either way, only which refusal may differ.
            ProblemException earlier = null;
            if (needs.peakTimers > 0 || needs.peakBytes > 0) {
                long[] totals = budget.totals(connection);
                earlier = needs.firstBeyond(budget.capacity() - totals[0],
                        budget.capacityBytes() - totals[1], totals[1], budget);
            }
            throw earlier != null ? earlier : refused.atOp(needs.nextIndex());
        }
        return results;
    }

    /** Takes from the budget what {@code needs} counted, or refuses the first operation it has no room for. */
    private void takeBudget(Connection connection, BatchNeeds needs) throws SQLException {
        try {
            budget.change(connection, needs.peakTimers, needs.peakBytes, needs.netTimers, needs.netBytes);
        } catch (PendingBudgetStripes.Exceeded exceeded) {
            throw needs.firstBeyond(exceeded.availableTimers, exceeded.availableBytes, exceeded.pendingBytes,
                    budget);
        }
    }

    /** {@link #batchOutcomes}: each operation's timer (an add that kept a reservation: null). */
    public List<Timer> batch(String clock, List<? extends BatchOp> ops) {
        return batchOutcomes(clock, ops).stream().map(AddOutcome::timer).toList();
    }

    /**
     * Empties a virtual clock (its pending timers, schedules and deliveries, their budget given back) and sets its
     * now to 0: the demo's reset. Sequences keep counting.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public void reset(String clock) {
        jdbc.inTransaction(connection -> {
            ClockRows.require(connection, clock, " FOR UPDATE");
            long timers = 0;
            long bytes = 0;
            long deliveries = 0;
            for (String sql : new String[] {ClockSql.RESET_TIMERS, ClockSql.RESET_DELIVERIES}) {
                try (PreparedStatement delete = connection.prepareStatement(sql)) {
                    delete.setString(1, clock);
                    try (ResultSet rows = delete.executeQuery()) {
                        while (rows.next()) {
                            if (rows.getBoolean(2)) {
                                timers++;
                                bytes += rows.getLong(1);
                                deliveries += sql.equals(ClockSql.RESET_DELIVERIES) ? 1 : 0;
                            }
                        }
                    }
                }
            }
            ClockRows.deleteSchedules(connection, clock);
            PostgresReservations.deleteAll(connection, clock);
            try (PreparedStatement restart = connection.prepareStatement(ClockSql.RESTART)) {
                restart.setString(1, clock);
                restart.executeUpdate();
            }
            budget.release(connection, timers, bytes, deliveries);
            return null;
        });
    }

    // ---- steps, on the caller's transaction ----

    /** Applies one operation of a batch, counting it in {@code needs}; what it did. */
    private AddOutcome apply(Connection connection, StoredClock clock, BatchOp op, BatchNeeds needs,
                             SystemFiring firing) throws SQLException {
        if (op instanceof BatchOp.Add add) {
            Decided decided = decide(connection, clock, add);
            needs.after(decided.timers(), decided.bytes());
            if (decided.outcome().result() != AddOutcome.Result.KEPT) {
                firing.saw(clock, decided.outcome().timer());
            }
            return decided.outcome();
        }
        Timer result;
        if (op instanceof BatchOp.Edit edit) {
            result = update(connection, clock, edit.id(), edit.due(), edit.priority(), edit.precondition());
            firing.saw(clock, result);
        } else if (op instanceof BatchOp.Cancel cancel) {
            result = delete(connection, clock, cancel.id(), cancel.precondition());
        } else {
            throw TimerRules.nullBatchOp();
        }
        needs.after(op, result);
        return AddOutcome.changed(result);
    }

    /**
     * Inserts a new pending timer: id syntax, due time, an id of the form of an existing schedule's occurrences
     * ({@code schedule_owned}), duplicate id, in the memory store's order.
     */
    private Timer insert(Connection connection, StoredClock clock, String id, Due due, int priority,
                         String payload, String traceContext, String key) throws SQLException {
        TimerRules.requireValidId(id);
        TimerRules.requireValidKey(key);
        long now = clock.now();
        long fireTime = TimeRules.fireTime(now, due);
        String owner = ScheduleRules.occurrenceFormOwner(id);
        if (owner != null && ScheduleRows.exists(connection, clock.name(), owner)) {
            throw ScheduleRules.scheduleReserved(id, owner);
        }
        reservations.requireAddable(connection, clock, id);
        Long sequence = Jdbc.queryFirst(connection, TimerSql.INSERT, insert -> {
            insert.setString(1, clock.name());
            insert.setString(2, id);
            insert.setLong(3, fireTime);
            insert.setInt(4, priority);
            insert.setLong(5, now);
            insert.setString(6, payload);
            insert.setLong(7, Limits.bytesOf(id, payload));
            insert.setBoolean(8, clock.systemClockRows());
            insert.setString(9, traceContext);
            insert.setString(10, key);
            insert.setString(11, clock.name());
            insert.setString(12, id);
        }, row -> row.getLong(1));
        if (sequence == null) {
            throw TimerRules.duplicateId(id);
        }
        requireNotReservedMeanwhile(connection, clock, id);
        return new Timer(id, fireTime, priority, sequence, 1, now, payload, null, traceContext, key);
    }

    /**
     * A clock that fires by itself fires under a key-share lock, which an add's share lock does not wait for: the
     * insert waited for a firing that deleted the id's row, and the firing's reservation is visible to this next
     * statement. Refuses the add then, so the id is never added again within its window.
     */
    static void requireNotReservedMeanwhile(Connection connection, StoredClock clock, String id)
            throws SQLException {
        if (clock.dedupeWindow() > 0 && clock.mode() != io.timeservice.model.ClockSettings.Mode.VIRTUAL) {
            Reservation held = PostgresReservations.find(connection, clock, id);
            if (held != null) {
                throw TimerRules.idReserved(held);
            }
        }
    }

    private static Timer update(Connection connection, StoredClock clock, String id, Due newDue,
                                Integer newPriority, Precondition precondition) throws SQLException {
        TimerRules.requireEditChange(newDue, newPriority);
        long fireTime = newDue == null ? 0 : TimeRules.fireTime(clock.now(), newDue);
        Timer current = lockPending(connection, clock.name(), id, precondition);
        TimerRules.requireVersionLeft(current);
        Timer edited = new Timer(id, newDue == null ? current.fireTime() : fireTime,
                newPriority == null ? current.priority() : newPriority, current.sequence(), current.version() + 1,
                current.createdAt(), current.payload(), null, current.traceContext(), current.key());
        try (PreparedStatement update = connection.prepareStatement(TimerSql.EDIT)) {
            update.setLong(1, edited.fireTime());
            update.setInt(2, edited.priority());
            update.setLong(3, edited.version());
            update.setLong(4, edited.sequence());
            update.executeUpdate();
        }
        return edited;
    }

    private static Timer delete(Connection connection, StoredClock clock, String id, Precondition precondition)
            throws SQLException {
        Timer current = lockPending(connection, clock.name(), id, precondition);
        try (PreparedStatement delete = connection.prepareStatement(TimerSql.CANCEL)) {
            delete.setLong(1, current.sequence());
            delete.executeUpdate();
        }
        PostgresReservations.left(connection, clock, Reservation.State.CANCELLED, List.of(id),
                List.of(current.sequence()));
        return current;
    }

    /**
     * The pending timer {@code id}, its row locked, if it is a client's (a schedule's occurrence is
     * {@code schedule_owned}) and {@code precondition} accepts it.
     */
    private static Timer lockPending(Connection connection, String clock, String id, Precondition precondition)
            throws SQLException {
        Timer current = id == null ? null : Jdbc.queryFirst(connection, TimerSql.LOCK, select -> {
            select.setString(1, clock);
            select.setString(2, id);
        }, row -> TimerRows.timerAt(row, 1));
        if (current == null) {
            ClockRows.require(connection, clock, ""); // a missing clock answers clock_not_found first
            throw TimerRules.timerNotFound(id);
        }
        if (current.schedule() != null) {
            throw ScheduleRules.scheduleOwned(id, current.schedule());
        }
        if (!precondition.accepts(current.revision())) {
            throw TimerRules.preconditionFailed(current);
        }
        return current;
    }

    /**
     * The capacity refusal (as the memory store's {@code PendingBudget} words it): too many timers, or too many payload
     * bytes for a timer that needs {@code bytes}, or for a {@code batch} that needs {@code bytes} more.
     */
    static ProblemException capacityRefusal(boolean timersShort, long pendingBytes, long bytes, boolean batch,
                                            PendingBudgetStripes budget) {
        if (timersShort) {
            return TimerRules.noTimerRoom(budget.capacity());
        }
        return batch ? TimerRules.noBatchPayloadRoom(pendingBytes, budget.capacityBytes(), bytes)
                : TimerRules.noPayloadRoom(pendingBytes, budget.capacityBytes(), bytes);
    }
}
