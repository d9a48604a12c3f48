package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.Due;
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
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.time.VirtualClock;

/** The memory store's timers: each call goes to its clock's {@link MemoryClock}. */
public final class MemoryTimerStore implements TimerStore {

    private final ClockRegistry clocks;
    private final BatchAcrossClocks across;

    public MemoryTimerStore(ClockRegistry clocks) {
        this.clocks = clocks;
        this.across = new BatchAcrossClocks(clocks);
    }

    /** The {@link MemoryClock} named {@code clock}, or {@code default} for null. */
    static MemoryClock scheduler(ClockRegistry clocks, String clock) {
        return clock == null ? clocks.defaultScheduler() : clocks.scheduler(clock);
    }

    @Override
    public Timer add(String clock, String id, Due due, int priority, String payload, String traceContext,
                     String key, Trace trace) {
        return scheduler(clocks, clock).add(id, due, priority, payload, traceContext, key, trace);
    }

    @Override
    public Timer get(String clock, String id) {
        return scheduler(clocks, clock).get(id);
    }

    @Override
    public Timer edit(String clock, String id, Due newDue, Integer newPriority, Precondition precondition,
                      Trace trace) {
        return scheduler(clocks, clock).edit(id, newDue, newPriority, precondition, trace);
    }

    @Override
    public Timer cancel(String clock, String id, Precondition precondition, Trace trace) {
        return scheduler(clocks, clock).cancel(id, precondition, trace);
    }

    @Override
    public AddOutcome add(String clock, String id, Due due, int priority, String payload, String traceContext,
                          String key, OnConflict onConflict) {
        return scheduler(clocks, clock).add(id, due, priority, payload, traceContext, key, onConflict);
    }

    @Override
    public Reservation releaseReservation(String clock, String id) {
        return scheduler(clocks, clock).releaseReservation(id);
    }

    @Override
    public List<AddOutcome> batchOutcomes(String clock, List<? extends BatchOp> ops) {
        return scheduler(clocks, clock).batchOutcomes(ops);
    }

    @Override
    public List<List<AddOutcome>> batchAcross(List<ClockBatch> parts) {
        return across.apply(parts);
    }

    @Override
    public AdvanceResult advance(String clock, Long by, Long to, int limit, Trace trace) {
        return scheduler(clocks, clock).advance(by, to, limit, trace);
    }

    @Override
    public NextAdvance advanceToNext(String clock, int limit, Trace trace) {
        return scheduler(clocks, clock).advanceToNext(limit, trace);
    }

    @Override
    public QueueListing firstN(String clock, int limit) {
        return scheduler(clocks, clock).firstN(limit);
    }

    @Override
    public QueueListing page(String clock, FiringPosition after, String idPrefix, int limit) {
        return scheduler(clocks, clock).page(after, idPrefix, limit);
    }

    @Override
    public QueueListing dueBy(String clock, long dueBy, int limit) {
        return scheduler(clocks, clock).dueBy(dueBy, limit);
    }

    @Override
    public Timer peek(String clock) {
        return scheduler(clocks, clock).peek();
    }

    @Override
    public QueueStatus status(String clock) {
        return scheduler(clocks, clock).status();
    }

    @Override
    public void reset() {
        clocks.defaultScheduler().reset(new VirtualClock(0));
    }
}
