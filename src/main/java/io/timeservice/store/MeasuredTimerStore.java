package io.timeservice.store;

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
import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics.Operation;

/**
 * Reports every call of a timer store to {@link StoreMetrics} under the operation the memory store's scheduler
 * reports it as (and an advance's fired count), so the operation meters mean the same on the PostgreSQL store.
 * {@code status} and {@code reset} are not operations there either.
 */
public final class MeasuredTimerStore implements TimerStore {

    private final TimerStore store;
    private final StoreMetrics metrics;

    public MeasuredTimerStore(TimerStore store, StoreMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public Timer add(String clock, String id, Due due, int priority, String payload, String traceContext,
                     String key, Trace trace) {
        return MeasuredCall.measure(metrics, Operation.ADD,
                () -> store.add(clock, id, due, priority, payload, traceContext, key, trace));
    }

    @Override
    public Timer get(String clock, String id) {
        return MeasuredCall.measure(metrics, Operation.GET, () -> store.get(clock, id));
    }

    @Override
    public Timer edit(String clock, String id, Due newDue, Integer newPriority, Precondition precondition,
                      Trace trace) {
        return MeasuredCall.measure(metrics, Operation.EDIT,
                () -> store.edit(clock, id, newDue, newPriority, precondition, trace));
    }

    @Override
    public Timer cancel(String clock, String id, Precondition precondition, Trace trace) {
        return MeasuredCall.measure(metrics, Operation.CANCEL, () -> store.cancel(clock, id, precondition, trace));
    }

    @Override
    public AddOutcome add(String clock, String id, Due due, int priority, String payload, String traceContext,
                          String key, OnConflict onConflict) {
        return MeasuredCall.measure(metrics, Operation.ADD, () -> store.add(clock, id, due, priority, payload,
                traceContext, key, onConflict));
    }

    @Override
    public Reservation releaseReservation(String clock, String id) {
        return MeasuredCall.measure(metrics, Operation.CANCEL, () -> store.releaseReservation(clock, id));
    }

    @Override
    public List<AddOutcome> batchOutcomes(String clock, List<? extends BatchOp> ops) {
        return MeasuredCall.measure(metrics, Operation.BATCH, () -> store.batchOutcomes(clock, ops));
    }

    @Override
    public List<List<AddOutcome>> batchAcross(List<ClockBatch> parts) {
        return MeasuredCall.measure(metrics, Operation.BATCH, () -> store.batchAcross(parts));
    }

    @Override
    public AdvanceResult advance(String clock, Long by, Long to, int limit, Trace trace) {
        AdvanceResult result = MeasuredCall.measure(metrics, Operation.ADVANCE,
                () -> store.advance(clock, by, to, limit, trace));
        metrics.advanced(result.fired().size());
        if (!result.fired().isEmpty()) {
            metrics.fired(clock == null ? Limits.DEFAULT_CLOCK : clock, result.fired());
        }
        return result;
    }

    @Override
    public NextAdvance advanceToNext(String clock, int limit, Trace trace) {
        NextAdvance next = MeasuredCall.measure(metrics, Operation.ADVANCE,
                () -> store.advanceToNext(clock, limit, trace));
        metrics.advanced(next.result().fired().size());
        if (!next.result().fired().isEmpty()) {
            metrics.fired(clock == null ? Limits.DEFAULT_CLOCK : clock, next.result().fired());
        }
        return next;
    }

    @Override
    public QueueListing firstN(String clock, int limit) {
        return MeasuredCall.measure(metrics, Operation.LIST, () -> store.firstN(clock, limit));
    }

    @Override
    public QueueListing page(String clock, FiringPosition after, String idPrefix, int limit) {
        return MeasuredCall.measure(metrics, Operation.LIST, () -> store.page(clock, after, idPrefix, limit));
    }

    @Override
    public QueueListing dueBy(String clock, long dueBy, int limit) {
        return MeasuredCall.measure(metrics, Operation.LIST, () -> store.dueBy(clock, dueBy, limit));
    }

    @Override
    public Timer peek(String clock) {
        return MeasuredCall.measure(metrics, Operation.PEEK, () -> store.peek(clock));
    }

    @Override
    public QueueStatus status(String clock) {
        return store.status(clock);
    }

    @Override
    public void reset() {
        store.reset();
    }
}
