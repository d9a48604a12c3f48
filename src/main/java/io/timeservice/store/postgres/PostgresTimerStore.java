package io.timeservice.store.postgres;

import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.Due;
import io.timeservice.model.Limits;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.Precondition;
import io.timeservice.model.OnConflict;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.FiringPosition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.ClockRules;
import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.TimerStore;

/**
 * The PostgreSQL store's timers behind the {@link TimerStore} port: reads ({@link PostgresTimerReads}), changes
 * ({@link PostgresTimerChanges}) and advances ({@link PostgresClockFiring}). It keeps no trace: a requested one stays
 * empty.
 */
public final class PostgresTimerStore implements TimerStore {

    private final PostgresTimerReads reads;
    private final PostgresTimerChanges changes;
    private final PostgresClockFiring firing;

    public PostgresTimerStore(PostgresStore store) {
        this.reads = store.timerReads();
        this.changes = store.timerChanges();
        this.firing = store.clockFiring();
    }

    /** The clock a path names, or {@code default} for the paths without one. */
    static String named(String clock) {
        return clock == null ? Limits.DEFAULT_CLOCK : clock;
    }

    @Override
    public Timer add(String clock, String id, Due due, int priority, String payload, String traceContext,
                     String key, Trace trace) {
        return changes.add(named(clock), id, due, priority, payload, traceContext, key);
    }

    @Override
    public AddOutcome add(String clock, String id, Due due, int priority, String payload, String traceContext,
                          String key, OnConflict onConflict) {
        return changes.add(named(clock), id, due, priority, payload, traceContext, key, onConflict);
    }

    @Override
    public Timer get(String clock, String id) {
        return reads.get(named(clock), id);
    }

    @Override
    public Timer edit(String clock, String id, Due newDue, Integer newPriority, Precondition precondition,
                      Trace trace) {
        return changes.edit(named(clock), id, newDue, newPriority, precondition);
    }

    @Override
    public Timer cancel(String clock, String id, Precondition precondition, Trace trace) {
        return changes.cancel(named(clock), id, precondition);
    }

    @Override
    public Reservation releaseReservation(String clock, String id) {
        return changes.releaseReservation(named(clock), id);
    }

    @Override
    public List<AddOutcome> batchOutcomes(String clock, List<? extends BatchOp> ops) {
        return changes.batchOutcomes(named(clock), ops);
    }

    @Override
    public List<List<AddOutcome>> batchAcross(List<ClockBatch> parts) {
        return changes.batchAcross(parts);
    }

    @Override
    public AdvanceResult advance(String clock, Long by, Long to, int limit, Trace trace) {
        return firing.advance(named(clock), by, to, limit);
    }

    @Override
    public NextAdvance advanceToNext(String clock, int limit, Trace trace) {
        return firing.advanceToNext(named(clock), limit);
    }

    @Override
    public QueueListing firstN(String clock, int limit) {
        return reads.firstN(named(clock), limit);
    }

    @Override
    public QueueListing page(String clock, FiringPosition after, String idPrefix, int limit) {
        return reads.page(named(clock), after, idPrefix, limit);
    }

    @Override
    public QueueListing dueBy(String clock, long dueBy, int limit) {
        return reads.dueBy(named(clock), dueBy, limit);
    }

    @Override
    public Timer peek(String clock) {
        return reads.peek(named(clock));
    }

    @Override
    public QueueStatus status(String clock) {
        return reads.status(named(clock));
    }

    @Override
    public void reset() {
        changes.reset(Limits.DEFAULT_CLOCK);
    }
}
