package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.ProblemException;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.store.StoreMetrics;

/**
 * How the PostgreSQL store's clocks fire their due timers: a virtual clock's bounded advance, its advance to its next
 * event, and the firing of what is due there (into the answer, or into the ready queue of a queueing clock, then its
 * retry step), with the memory store's semantics and refusals (the {@code TimerStore} port's contract); and the
 * firing round of a clock that fires by itself, which the firing loop runs ({@link #fireDue}). Either fires within
 * {@code timeservice.deliveries.max} ({@link DeliveryRoom}); schedules' occurrences fire each at its own time
 * ({@link ScheduleFiring}). The statements are {@link FiringSql}'s.
 *
 * <p>Thread-safe and safe across instances: an advance is one READ COMMITTED transaction that locks its clock's row
 * ({@code FOR UPDATE}) first, which every change of its timers shares ({@link PostgresTimerChanges}), so two
 * instances never advance one clock at once and the count of the due timers and their firing see one set; a firing
 * round takes the due timers {@code FOR UPDATE SKIP LOCKED}, so instances fire disjoint timers. The pending budget
 * is changed as the last statement. Costs: O(k log n) for k fired timers, read from the front of the clock's
 * firing-order index.
 */
public final class PostgresClockFiring {

    private final Jdbc jdbc;
    private final PendingBudgetStripes budget;
    /** Told of the delivery events an advance's retry step causes, after it committed. */
    private final StoreMetrics metrics;
    /** Fires schedules' occurrences, each at its own time, when an advance or a firing round passes them. */
    private final ScheduleFiring schedules;
    /**
     * The last firing round on this instance found the deliveries at their limit: a round reads the room first (16
     * rows, unlocked) and fires nothing while there is none, rather than fire and roll back each time.
     */
    private volatile boolean full;

    PostgresClockFiring(Jdbc jdbc, PendingBudgetStripes budget, StoreMetrics metrics, ScheduleFiring schedules) {
        this.jdbc = jdbc;
        this.budget = budget;
        this.metrics = metrics;
        this.schedules = schedules;
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
            StoredClock stored = ClockRows.require(connection, clock, " FOR UPDATE");
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
            StoredClock stored = ClockRows.require(connection, clock, " FOR UPDATE");
            TimerRules.requireLimit(limit);
            requireVirtual(stored);
            NextEvent event = Jdbc.queryOne(connection, FiringSql.NEXT_EVENT, select -> {
                select.setString(1, clock);
                select.setString(2, clock);
                select.setString(3, clock);
            }, row -> NextEvent.earliest(orNone(row, 1), orNone(row, 2), orNone(row, 3)));
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
        PostgresReservations.fired(connection, stored, fired);
        if (fired.isEmpty() && newNow == now) {
            if (throughOccurrences != null) {
                budget.release(connection, -throughOccurrences.netTimers(), -throughOccurrences.netBytes());
            }
            return new AdvanceResult(now, List.of());
        }
        // held back, the time moves without firing: fired_through stays where firing stopped, as in memory
        try (PreparedStatement move = connection.prepareStatement(FiringSql.MOVE)) {
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

    /**
     * Fires up to {@code limit} timers of {@code clock} that are due by the database's clock into its ready queue,
     * no more than {@code timeservice.deliveries.max} has room for ({@link DeliveryRoom}: at the limit the due timers
     * stay pending, held back); returns how many. Instances may run it at once: each moves timers no other is moving.
     * The timers stay counted in the budget as deliveries. Reports each one's fire lag: the database's now minus its
     * fire time.
     *
     * <p>The clock's row is locked ({@code FOR KEY SHARE}) before any timer: the deliveries' foreign key takes that
     * lock anyway, and taking it last could deadlock with a deletion of the clock, which locks the clock first and
     * then its timers.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public int fireDue(String clock, int limit) {
        List<Timer> traced = new ArrayList<>(0);
        long[] lags = DeliveryRoom.withinRoom(room -> room == 0 ? heldBack()
                : fireWithin(clock, Math.min(limit, room), traced));
        if (!traced.isEmpty()) {
            metrics.fired(clock, traced);
        }
        for (long lag : lags) {
            if (lag >= 0) {
                metrics.fireLag(lag);
            }
        }
        return lags.length;
    }

    /** The deliveries held their limit at the last firing: the next one reads the room first. */
    private long[] heldBack() {
        full = true;
        return new long[0];
    }

    /** One firing transaction of {@link #fireDue}, firing at most {@code limit}; the fire lags. */
    private long[] fireWithin(String clock, int limit, List<Timer> traced) {
        return jdbc.inTransaction(connection -> {
            traced.clear(); // a transaction tried again fires anew
            StoredClock stored = ClockRows.require(connection, clock, " FOR KEY SHARE");
            if (full && budget.totals(connection)[2] >= budget.maxDeliveries()) {
                return new long[0]; // still no room: nothing fired, nothing to roll back
            }
            List<Long> fired = new ArrayList<>();
            List<Timer> left = new ArrayList<>();
            try (PreparedStatement fire = connection.prepareStatement(FiringSql.FIRE_DUE)) {
                fire.setString(1, clock);
                fire.setLong(2, stored.now());
                fire.setInt(3, limit);
                try (ResultSet rows = fire.executeQuery()) {
                    while (rows.next()) {
                        // fire lag is wall-clock time: a scaled clock's fire times are not
                        fired.add(stored.mode() != ClockSettings.Mode.SYSTEM ? -1
                                : Math.max(0, rows.getLong(2) - rows.getLong(1)));
                        Timer timer = new Timer(rows.getString(3), rows.getLong(1), rows.getInt(5), rows.getLong(4),
                                1, 0, null, null, rows.getString(6));
                        left.add(timer);
                        if (timer.traceContext() != null) { // only what a tracer needs: the firing's links
                            traced.add(timer);
                        }
                    }
                }
            }
            ScheduleFiring.SystemFired occurrences = schedules.fireDueOnSystemClock(connection, clock, stored.now(),
                    limit);
            left.addAll(occurrences.timers());
            PostgresReservations.fired(connection, stored, left);
            for (long lag : occurrences.lateness()) {
                fired.add(lag);
            }
            if (!fired.isEmpty()) {
                ReadyWakeups.notify(connection, clock);
            }
            DeliveryRoom.count(connection, budget, occurrences.netTimers(), occurrences.netBytes(), fired.size());
            full = false;
            return fired.stream().mapToLong(Long::longValue).toArray();
        });
    }

    /** How many timers of the clock are due by {@code now}, counted up to {@code upTo}. */
    private static long countDue(Connection connection, String clock, long now, long upTo) throws SQLException {
        return Jdbc.queryOne(connection, FiringSql.COUNT_DUE, count -> {
            count.setString(1, clock);
            count.setLong(2, now);
            count.setLong(3, upTo);
        }, row -> row.getLong(1));
    }

    /** Fires the first {@code limit} timers due by {@code now} ({@link FiringSql#FIRE}); answers them in order. */
    private static List<Timer> fire(Connection connection, StoredClock clock, long now, long limit)
            throws SQLException {
        try (PreparedStatement fire = connection.prepareStatement(FiringSql.FIRE)) {
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
}
