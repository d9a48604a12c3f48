package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.store.SchedulerMetrics;

/**
 * Timers on the PostgreSQL store's clocks (table {@code timers}): add, read, edit, cancel, atomic batches, bounded
 * advance and preview, with the memory store's semantics and refusals, in the same order (the {@code TimerStore}
 * port's contract).
 *
 * <p>Thread-safe and safe across instances, by the database's locks, each call one READ COMMITTED transaction:
 * <ul>
 *   <li>an advance locks its clock's row ({@code FOR UPDATE}); adds, batches, edits and cancels share it
 *       ({@code FOR SHARE}), so a timer is never added or moved relative to a now an advance has passed, two
 *       instances never advance one clock at once, and an advance's count of the due timers and its firing see
 *       one set (a cancel or edit committing between them made it fire nothing after counting "more", or fire an
 *       edited timer out of order: issue 34, item 12);</li>
 *   <li>cancel and edit then lock the timer's row, so each sees the one another change left;</li>
 *   <li>the pending budget ({@link PendingBudgetStripes}) is changed as the last statement of the transaction.</li>
 * </ul>
 * Every refusal is decided before the commit and rolls everything back, so a refused call changes nothing; a batch
 * is one transaction, all or nothing. Sequences come from one database sequence (see the schema).
 *
 * <p>Costs: add, get, edit and cancel are a few index lookups; advance and preview read the front of the clock's
 * firing-order index, O(k log n) for k timers; the preview's {@code size} counts the clock's rows (O(n)).
 */
public final class PostgresTimers {

    private static final String LOCK_TIMER = "SELECT " + TimerRows.COLUMNS
            + " FROM timers WHERE clock = ? AND id = ? FOR UPDATE";
    /**
     * A new pending timer, or no row for a pending id. The NOT EXISTS keeps a duplicate from drawing a sequence (a
     * refused add uses none, as in memory: the default's nextval runs only for a row the SELECT yields); ON CONFLICT
     * still refuses the duplicate that raced it in, at the cost of one sequence.
     */
    private static final String INSERT = """
            INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes, system_clock)
            SELECT ?::text, ?::text, ?::bigint, ?::integer, ?::bigint, ?::text, ?::bigint, ?::boolean
             WHERE NOT EXISTS (SELECT 1 FROM timers WHERE clock = ?::text AND id = ?::text)
            ON CONFLICT (clock, id) DO NOTHING
            RETURNING seq""";
    private static final String COUNT_DUE = """
            SELECT count(*) FROM (SELECT 1 FROM timers WHERE clock = ? AND fire_time <= ? LIMIT ?) due""";
    /** Fires the first due timers: deletes them, queues them as deliveries on a queue clock, returns them. */
    private static final String FIRE = """
            WITH picked AS (
                SELECT seq FROM timers WHERE clock = ? AND fire_time <= ?
                 ORDER BY fire_time, priority, seq LIMIT ?),
            fired AS (
                DELETE FROM timers t USING picked WHERE t.seq = picked.seq RETURNING t.*),
            queued AS (
                INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, payload, bytes, state,
                                        ready_at, schedule, system_clock)
                SELECT seq, clock, id, fire_time, priority, version, created_at, payload, bytes, 'ready', fire_time,
                       schedule, system_clock
                  FROM fired WHERE ?)
            SELECT""" + " " + TimerRows.COLUMNS + " FROM fired ORDER BY " + TimerRows.FIRING_ORDER;
    /** A preview in one statement (one snapshot): the clock's now, its pending count, the first due timers. */
    private static final String DUE_BY = """
            SELECT clock_now_ms(c),
                   (SELECT count(*) FROM timers WHERE clock = c.name), """ + TimerRows.T_COLUMNS + """

              FROM clocks c
              LEFT JOIN LATERAL (SELECT * FROM timers
                                  WHERE clock = c.name AND fire_time <= ?
                                  ORDER BY fire_time, priority, seq LIMIT ?) t ON true
             WHERE c.name = ?
             ORDER BY t.fire_time, t.priority, t.seq""";
    /** A clock's earliest pending timer, lease end and retry (null for none of a kind), read by their indexes. */
    private static final String NEXT_EVENT = """
            SELECT (SELECT min(fire_time) FROM timers WHERE clock = ?),
                   (SELECT min(lease_until) FROM deliveries WHERE clock = ? AND state = 'in_flight'),
                   (SELECT min(retry_at) FROM deliveries WHERE clock = ? AND state = 'waiting')""";
    private static final String STATUS = """
            SELECT clock_now_ms(c), s.size, s.next_fire,
                   o.created_at, o.created_at_wall
              FROM clocks c
             CROSS JOIN LATERAL (SELECT count(*) AS size, min(fire_time) AS next_fire
                                   FROM timers WHERE clock = c.name) s
              LEFT JOIN LATERAL (SELECT created_at, created_at_wall FROM timers WHERE clock = c.name
                                  ORDER BY created_at, seq LIMIT 1) o ON true
             WHERE c.name = ?""";
    private static final String GET = "SELECT " + TimerRows.T_COLUMNS
            + " FROM clocks c LEFT JOIN timers t ON t.clock = c.name AND t.id = ? WHERE c.name = ?";
    private static final String EDIT = "UPDATE timers SET fire_time = ?, priority = ?, version = ? WHERE seq = ?";
    private static final String CANCEL = "DELETE FROM timers WHERE seq = ?";
    /** A reset's deletions: each row's bytes, and whether the budget counted it. */
    private static final String RESET_TIMERS = "DELETE FROM timers WHERE clock = ? RETURNING bytes, true";
    private static final String RESET_DELIVERIES =
            "DELETE FROM deliveries WHERE clock = ? RETURNING bytes, state <> 'acked'";

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    private final FiringAlarm alarm;
    /** Told of the delivery events an advance's retry step causes, after it committed. */
    private final SchedulerMetrics metrics;
    /** Fires schedules' occurrences, each at its own time, when an advance passes them. */
    private final ScheduleFiring schedules;

    PostgresTimers(Jdbc jdbc, PendingBudgetStripes budget, FiringAlarm alarm, SchedulerMetrics metrics,
                   ScheduleFiring schedules) {
        this.schedules = schedules;
        this.jdbc = jdbc;
        this.budget = budget;
        this.alarm = alarm;
        this.metrics = metrics;
    }

    /**
     * The earliest fire time a change gave a timer of a clock that fires by itself, as the database's clock, told to
     * this instance's firing loop after the commit (a retried transaction may leave an earlier time from a failed
     * attempt: that only wakes the loop once for nothing).
     */
    private static final class SystemFiring {
        private long earliest = Long.MAX_VALUE;

        void saw(StoredClock clock, Timer timer) {
            if (clock.firesByItself()) {
                earliest = Math.min(earliest, clock.dbTimeOf(timer.fireTime()));
            }
        }

        void tell(FiringAlarm alarm) {
            if (earliest != Long.MAX_VALUE) {
                alarm.dueAt(earliest);
            }
        }
    }

    // ---- changes ----

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
        SystemFiring firing = new SystemFiring();
        Timer result = jdbc.inTransaction(connection -> {
            StoredClock stored = PostgresClocks.require(connection, clock, " FOR SHARE");
            Timer added = insert(connection, stored, id, due, priority, payload);
            firing.saw(stored, added);
            long bytes = Limits.bytesOf(id, payload);
            try {
                budget.change(connection, 1, bytes, 1, bytes);
            } catch (PendingBudgetStripes.Exceeded exceeded) {
                throw capacityRefusal(exceeded.availableTimers < 1, exceeded.pendingBytes, bytes, false, budget);
            }
            return added;
        });
        firing.tell(alarm);
        return result;
    }

    /**
     * Cancels a pending timer if {@code precondition} accepts its revision; returns it as it was.
     *
     * @throws ProblemException {@code clock_not_found}, {@code timer_not_found} or {@code precondition_failed}
     */
    public Timer cancel(String clock, String id, Precondition precondition) {
        return jdbc.inTransaction(connection -> {
            PostgresClocks.require(connection, clock, " FOR SHARE"); // no advance between its count and its firing
            Timer cancelled = delete(connection, clock, id, precondition);
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
        SystemFiring firing = new SystemFiring();
        Timer edited = jdbc.inTransaction(connection -> {
            // shared even for a priority-only edit: an advance must not fire it with the order of neither version
            StoredClock stored = PostgresClocks.require(connection, clock, " FOR SHARE");
            Timer result = update(connection, stored, id, newDue, newPriority, precondition);
            firing.saw(stored, result);
            return result;
        });
        firing.tell(alarm); // a priority-only edit too: its row may have been locked when the loop fired
        return edited;
    }

    /**
     * Applies {@code ops} in order in one transaction, all or nothing, each decided against the state the ones
     * before it leave, exactly as its single call would be; the budget is checked for the running total's peak.
     *
     * @return each operation's result in order: the added or edited timer, or the cancelled timer as it was
     * @throws ProblemException {@code clock_not_found}; {@code invalid_request} for no or more than
     *                            {@link Limits#MAX_BATCH_OPS} operations; else the first refused
     *                            operation's refusal with its index
     */
    public List<Timer> batch(String clock, List<? extends BatchOp> ops) {
        SystemFiring firing = new SystemFiring();
        List<Timer> applied = jdbc.inTransaction(connection -> {
            StoredClock stored = PostgresClocks.require(connection, clock, " FOR SHARE");
            TimerRules.requireBatchSize(ops);
            BatchNeeds needs = new BatchNeeds(ops.size());
            List<Timer> results = new ArrayList<>(ops.size());
            int i = 0;
            while (i < ops.size()) {
                int end = i;
                while (end < ops.size() && ops.get(end) instanceof BatchOp.Add) {
                    end++;
                }
                ProblemException refused;
                if (end - i > 1) { // consecutive adds: one statement for all of them
                    List<BatchOp.Add> run = new ArrayList<>(end - i);
                    for (BatchOp op : ops.subList(i, end)) {
                        run.add((BatchOp.Add) op);
                    }
                    BatchAdds.Outcome outcome = BatchAdds.insert(connection, stored, run);
                    for (Timer added : outcome.added()) {
                        results.add(added);
                        firing.saw(stored, added);
                        needs.after(ops.get(i++), added);
                    }
                    refused = outcome.refusal();
                    if (refused == null) {
                        continue;
                    }
                } else {
                    try {
                        Timer result = apply(connection, stored, ops.get(i));
                        results.add(result);
                        if (!(ops.get(i) instanceof BatchOp.Cancel)) {
                            firing.saw(stored, result);
                        }
                        needs.after(ops.get(i++), result);
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
                throw earlier != null ? earlier : refused.atOp(i);
            }
            try {
                budget.change(connection, needs.peakTimers, needs.peakBytes, needs.netTimers, needs.netBytes);
            } catch (PendingBudgetStripes.Exceeded exceeded) {
                throw needs.firstBeyond(exceeded.availableTimers, exceeded.availableBytes, exceeded.pendingBytes,
                        budget);
            }
            return results;
        });
        firing.tell(alarm);
        return applied;
    }

    /**
     * A bounded advance of a virtual clock: moves it to {@code to} (or {@code now + by}: exactly one is given) and
     * fires the due timers in firing order, at most {@code limit}; when more are due it fires the first
     * {@code limit}, moves the clock only to the last fired one's fireTime and answers {@code complete = false}.
     * {@code limit = Integer.MAX_VALUE} fires everything due. On a clock with queue delivery the fired timers also
     * become ready deliveries, and then the clock's retry step runs at its new now (leases that ended, retries that
     * came due: {@link LeaseReleaser#releaseDue(String, int)}), all in the same transaction.
     *
     * @throws ProblemException {@code clock_not_found}, {@code invalid_request} (both or neither of by and to),
     *                            {@code invalid_limit}, {@code invalid_advance} (out of range, or a system clock)
     */
    public AdvanceResult advance(String clock, Long by, Long to, int limit) {
        LeaseReleaser.Released[] released = {LeaseReleaser.Released.NOTHING};
        AdvanceResult result = DeliveryRoom.withinRoom(room -> jdbc.inTransaction(connection -> {
            released[0] = LeaseReleaser.Released.NOTHING;
            StoredClock stored = PostgresClocks.require(connection, clock, " FOR UPDATE");
            ClockRules.requireAdvanceForm(by, to);
            TimerRules.requireLimit(limit);
            requireVirtual(stored);
            long now = stored.now();
            long target = by != null ? TimeRules.fireTimeAfter(now, by, ErrorCode.INVALID_ADVANCE, "by")
                    : TimeRules.advanceTarget(now, to);
            return advanceTo(connection, stored, target, limit, room, released);
        }));
        released[0].reportTo(metrics);
        return result;
    }

    /**
     * Moves a virtual clock to its earliest pending event (a timer coming due, a lease ending, a retry becoming
     * ready; {@link NextEvent#earliest}) and advances there as {@link #advance} with {@code to} does, in one
     * transaction holding the clock's row, so no other change slips between finding the event and reaching it.
     * With nothing pending nothing changes and the event is null.
     *
     * @throws ProblemException {@code clock_not_found}, {@code invalid_limit}, {@code clock_not_virtual}
     */
    public NextAdvance advanceToNext(String clock, int limit) {
        LeaseReleaser.Released[] released = {LeaseReleaser.Released.NOTHING};
        NextAdvance result = DeliveryRoom.withinRoom(room -> jdbc.inTransaction(connection -> {
            released[0] = LeaseReleaser.Released.NOTHING;
            StoredClock stored = PostgresClocks.require(connection, clock, " FOR UPDATE");
            TimerRules.requireLimit(limit);
            requireVirtual(stored);
            NextEvent event;
            try (PreparedStatement select = connection.prepareStatement(NEXT_EVENT)) {
                select.setString(1, clock);
                select.setString(2, clock);
                select.setString(3, clock);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    event = NextEvent.earliest(orNone(row, 1), orNone(row, 2), orNone(row, 3));
                }
            }
            if (event == null) {
                return new NextAdvance(new AdvanceResult(stored.now(), List.of()), null);
            }
            // a timer due at now (delay 0, or left by a bounded advance) is reached where the clock stands
            long target = Math.max(stored.now(), event.at());
            return new NextAdvance(advanceTo(connection, stored, target, limit, room, released), event);
        }));
        released[0].reportTo(metrics);
        return result;
    }

    private static long orNone(ResultSet row, int column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? Long.MAX_VALUE : value;
    }

    private static void requireVirtual(StoredClock stored) {
        if (stored.firesByItself()) {
            throw ClockRules.clockNotVirtual(stored.mode());
        }
    }

    /**
     * Moves the locked virtual clock {@code stored} to {@code target} and fires what is due there, at most
     * {@code limit}, and on a queueing clock at most {@code room} ({@link DeliveryRoom}: fewer is a bounded advance),
     * then runs its retry step; see {@link #advance}. With no room at all the time still moves to {@code target}
     * without firing (only on its time do leases end and retries come due), answering {@code complete = false}, as
     * in memory. Call in the transaction that locked its row.
     *
     * @throws ProblemException {@code capacity_exceeded} when there is no room and the clock is at {@code target}
     * @throws DeliveryRoom.Full  when more deliveries were fired than the limit has room for
     */
    private AdvanceResult advanceTo(Connection connection, StoredClock stored, long target, int limit, int room,
                                    LeaseReleaser.Released[] released) throws SQLException {
        String clock = stored.name();
        long now = stored.now();
        boolean complete;
        List<Timer> fired;
        long newNow;
        ScheduleFiring.Fired throughOccurrences = null;
        if (stored.queues()) {
            limit = Math.min(limit, room);
        }
        if (limit == 0) { // held back
            if (target == now) {
                throw ClockRules.deliveriesHeldBack(now, budget.maxDeliveries());
            }
            complete = false;
            fired = List.of();
            newNow = target;
        } else if (schedules.anyOccurrenceDue(connection, clock, target)) {
            throughOccurrences = schedules.fireThrough(connection, stored, target, limit,
                    stored.delivery() != ClockSettings.DeliveryMode.RESPONSE); // queue and push
            fired = throughOccurrences.timers();
            complete = throughOccurrences.complete();
            newNow = complete ? target : throughOccurrences.reached();
        } else {
            complete = limit == Integer.MAX_VALUE || countDue(connection, clock, target, limit + 1L) <= limit;
            fired = fire(connection, stored, target, complete ? Long.MAX_VALUE : limit);
            newNow = complete ? target : fired.isEmpty() ? now : fired.get(fired.size() - 1).fireTime();
        }
        if (fired.isEmpty() && newNow == now) {
            if (throughOccurrences != null) {
                budget.release(connection, -throughOccurrences.netTimers(), -throughOccurrences.netBytes());
            }
            return new AdvanceResult(now, List.of());
        }
        // held back, the time moves without firing: fired_through stays where firing stopped, as in memory
        try (PreparedStatement move = connection.prepareStatement("UPDATE clocks SET now_ms = ?,"
                + " fired_through = CASE WHEN ? THEN COALESCE(fired_through, now_ms) END WHERE name = ?")) {
            move.setLong(1, newNow);
            move.setBoolean(2, limit == 0);
            move.setString(3, clock);
            move.executeUpdate();
        }
        if (stored.queues()) {
            if (!fired.isEmpty()) {
                ReadyWakeups.notify(connection, clock);
            }
            // then leases and retries run on this clock's time too, as in memory: every one due by the new now
            released[0] = LeaseReleaser.releaseDue(connection, stored.at(newNow), Long.MAX_VALUE, false);
        }
        long releasedTimers = 0;
        long releasedBytes = 0;
        if (stored.delivery() == ClockSettings.DeliveryMode.RESPONSE) {
            for (Timer timer : fired) {
                releasedBytes += Limits.bytesOf(timer.id(), timer.payload());
            }
            releasedTimers = fired.size();
        }
        if (throughOccurrences != null) { // skipped occurrences left, successors came: never refused, as in memory
            releasedTimers -= throughOccurrences.netTimers();
            releasedBytes -= throughOccurrences.netBytes();
        }
        DeliveryRoom.count(connection, budget, -releasedTimers, -releasedBytes, stored.queues() ? fired.size() : 0);
        return new AdvanceResult(newNow, fired, complete);
    }

    // ---- reads ----

    /** @throws ProblemException {@code clock_not_found} or {@code timer_not_found} */
    public Timer get(String clock, String id) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(GET)) {
                select.setString(1, id);
                select.setString(2, clock);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        PostgresClocks.require(connection, clock, ""); // throws clock_not_found
                    }
                    if (row.getString(1) == null) {
                        throw TimerRules.timerNotFound(id);
                    }
                    return TimerRows.timerAt(row, 1);
                }
            }
        });
    }

    /**
     * The pending timers due at or before {@code dueBy}, at most {@code limit}, in firing order, with the clock's now
     * and its pending count, read in one snapshot; changes nothing.
     *
     * @throws ProblemException {@code clock_not_found} or {@code invalid_limit}
     */
    public QueueListing dueBy(String clock, long dueBy, int limit) {
        return jdbc.autocommit(connection -> {
            if (limit < 1) {
                PostgresClocks.require(connection, clock, "");
                TimerRules.requireLimit(limit);
            }
            try (PreparedStatement select = connection.prepareStatement(DUE_BY)) {
                select.setLong(1, dueBy);
                select.setInt(2, limit);
                select.setString(3, clock);
                try (ResultSet rows = select.executeQuery()) {
                    if (!rows.next()) {
                        PostgresClocks.require(connection, clock, ""); // throws clock_not_found
                    }
                    long now = rows.getLong(1);
                    int size = rows.getInt(2);
                    List<Timer> timers = new ArrayList<>();
                    do {
                        if (rows.getString(3) != null) {
                            timers.add(TimerRows.timerAt(rows, 3));
                        }
                    } while (rows.next());
                    return new QueueListing(now, size, timers);
                }
            }
        });
    }

    /** The first {@code limit} pending timers in firing order. */
    public QueueListing firstN(String clock, int limit) {
        return dueBy(clock, Long.MAX_VALUE, limit);
    }

    /** The next timer to fire. @throws ProblemException {@code clock_not_found} or {@code queue_empty} */
    public Timer peek(String clock) {
        List<Timer> first = firstN(clock, 1).timers();
        if (first.isEmpty()) {
            throw TimerRules.queueEmpty();
        }
        return first.get(0);
    }

    /**
     * The clock at a glance (now, pending count, next fire time, the oldest pending timer's creation) in one
     * snapshot. O(n) in the clock's pending timers, unlike the memory store's O(1).
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public QueueStatus status(String clock) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(STATUS)) {
                select.setString(1, clock);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        PostgresClocks.require(connection, clock, ""); // throws clock_not_found
                    }
                    return new QueueStatus(row.getLong(1), row.getInt(2), row.getObject(3, Long.class),
                            row.getObject(4, Long.class), row.getObject(5, Long.class));
                }
            }
        });
    }

    /**
     * Empties a virtual clock (its pending timers, schedules and deliveries, their budget given back) and sets its
     * now to 0: the demo's reset. Sequences keep counting.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public void reset(String clock) {
        jdbc.inTransaction(connection -> {
            PostgresClocks.require(connection, clock, " FOR UPDATE");
            long timers = 0;
            long bytes = 0;
            long deliveries = 0;
            for (String sql : new String[] {RESET_TIMERS, RESET_DELIVERIES}) {
                try (PreparedStatement delete = connection.prepareStatement(sql)) {
                    delete.setString(1, clock);
                    try (ResultSet rows = delete.executeQuery()) {
                        while (rows.next()) {
                            if (rows.getBoolean(2)) {
                                timers++;
                                bytes += rows.getLong(1);
                                deliveries += sql.equals(RESET_DELIVERIES) ? 1 : 0;
                            }
                        }
                    }
                }
            }
            PostgresClocks.deleteSchedules(connection, clock);
            try (PreparedStatement restart = connection.prepareStatement(
                    "UPDATE clocks SET now_ms = 0, initial_now = 0, fired_through = NULL WHERE name = ?")) {
                restart.setString(1, clock);
                restart.executeUpdate();
            }
            budget.release(connection, timers, bytes, deliveries);
            return null;
        });
    }

    // ---- steps, on the caller's transaction ----

    private Timer apply(Connection connection, StoredClock clock, BatchOp op) throws SQLException {
        if (op instanceof BatchOp.Add add) {
            return insert(connection, clock, add.id(), add.due(), add.priority(), add.payload());
        } else if (op instanceof BatchOp.Edit edit) {
            return update(connection, clock, edit.id(), edit.due(), edit.priority(), edit.precondition());
        } else if (op instanceof BatchOp.Cancel cancel) {
            return delete(connection, clock.name(), cancel.id(), cancel.precondition());
        }
        throw TimerRules.nullBatchOp();
    }

    /**
     * Inserts a new pending timer: id syntax, due time, an id of the form of an existing schedule's occurrences
     * ({@code schedule_owned}), duplicate id, in the memory store's order.
     */
    private static Timer insert(Connection connection, StoredClock clock, String id, Due due, int priority,
                                String payload) throws SQLException {
        TimerRules.requireValidId(id);
        long now = clock.now();
        long fireTime = TimeRules.fireTime(now, due);
        String owner = ScheduleRules.occurrenceFormOwner(id);
        if (owner != null && ScheduleRows.exists(connection, clock.name(), owner)) {
            throw ScheduleRules.scheduleReserved(id, owner);
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, clock.name());
            insert.setString(2, id);
            insert.setLong(3, fireTime);
            insert.setInt(4, priority);
            insert.setLong(5, now);
            insert.setString(6, payload);
            insert.setLong(7, Limits.bytesOf(id, payload));
            insert.setBoolean(8, clock.systemClockRows());
            insert.setString(9, clock.name());
            insert.setString(10, id);
            try (ResultSet row = insert.executeQuery()) {
                if (!row.next()) {
                    throw TimerRules.duplicateId(id);
                }
                return new Timer(id, fireTime, priority, row.getLong(1), 1, now, payload);
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
                current.createdAt(), current.payload());
        try (PreparedStatement update = connection.prepareStatement(EDIT)) {
            update.setLong(1, edited.fireTime());
            update.setInt(2, edited.priority());
            update.setLong(3, edited.version());
            update.setLong(4, edited.sequence());
            update.executeUpdate();
        }
        return edited;
    }

    private static Timer delete(Connection connection, String clock, String id, Precondition precondition)
            throws SQLException {
        Timer current = lockPending(connection, clock, id, precondition);
        try (PreparedStatement delete = connection.prepareStatement(CANCEL)) {
            delete.setLong(1, current.sequence());
            delete.executeUpdate();
        }
        return current;
    }

    /**
     * The pending timer {@code id}, its row locked, if it is a client's (a schedule's occurrence is
     * {@code schedule_owned}) and {@code precondition} accepts it.
     */
    private static Timer lockPending(Connection connection, String clock, String id, Precondition precondition)
            throws SQLException {
        Timer current = null;
        if (id != null) {
            try (PreparedStatement select = connection.prepareStatement(LOCK_TIMER)) {
                select.setString(1, clock);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    current = row.next() ? TimerRows.timerAt(row, 1) : null;
                }
            }
        }
        if (current == null) {
            PostgresClocks.require(connection, clock, ""); // a missing clock answers clock_not_found first
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

    /** The pending timer {@code id} of {@code clock} as the transaction sees it (it is there). */
    static Timer pendingTimer(Connection connection, String clock, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + TimerRows.COLUMNS + " FROM timers WHERE clock = ? AND id = ?")) {
            select.setString(1, clock);
            select.setString(2, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return TimerRows.timerAt(row, 1);
            }
        }
    }

    private static long countDue(Connection connection, String clock, long now, long upTo) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(COUNT_DUE)) {
            count.setString(1, clock);
            count.setLong(2, now);
            count.setLong(3, upTo);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static List<Timer> fire(Connection connection, StoredClock clock, long now, long limit)
            throws SQLException {
        try (PreparedStatement fire = connection.prepareStatement(FIRE)) {
            fire.setString(1, clock.name());
            fire.setLong(2, now);
            fire.setLong(3, limit);
            fire.setBoolean(4, clock.queues());
            List<Timer> fired = new ArrayList<>();
            try (ResultSet rows = fire.executeQuery()) {
                while (rows.next()) {
                    fired.add(TimerRows.timerAt(rows, 1));
                }
            }
            return fired;
        }
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

    /**
     * The running totals of a batch, operation by operation, as the memory store reserves them (its running peak):
     * the net change after each operation, and the peak and net over the operations so far.
     */
    private static final class BatchNeeds {
        private final long[] timersAfter;
        private final long[] bytesAfter;
        private int count;
        long netTimers;
        long netBytes;
        long peakTimers;
        long peakBytes;

        BatchNeeds(int size) {
            timersAfter = new long[size];
            bytesAfter = new long[size];
        }

        void after(BatchOp op, Timer result) {
            long bytes = Limits.bytesOf(result.id(), result.payload());
            if (op instanceof BatchOp.Add) {
                netTimers++;
                netBytes += bytes;
            } else if (op instanceof BatchOp.Cancel) {
                netTimers--;
                netBytes -= bytes;
            }
            peakTimers = Math.max(peakTimers, netTimers);
            peakBytes = Math.max(peakBytes, netBytes);
            timersAfter[count] = netTimers;
            bytesAfter[count] = netBytes;
            count++;
        }

        /**
         * The refusal of the first operation whose running total goes beyond what was available (capacity minus
         * the pending total, {@code pendingBytes} of them bytes), at its index; null when none does.
         */
        ProblemException firstBeyond(long availableTimers, long availableBytes, long pendingBytes,
                                       PendingBudgetStripes budget) {
            long peakBytesBefore = 0;
            for (int i = 0; i < count; i++) {
                if (timersAfter[i] > availableTimers) {
                    return capacityRefusal(true, 0, 0, true, budget).atOp(i);
                }
                if (bytesAfter[i] > availableBytes) {
                    return capacityRefusal(false, pendingBytes + peakBytesBefore, bytesAfter[i] - peakBytesBefore,
                            true, budget).atOp(i);
                }
                peakBytesBefore = Math.max(peakBytesBefore, bytesAfter[i]);
            }
            return null;
        }
    }
}
