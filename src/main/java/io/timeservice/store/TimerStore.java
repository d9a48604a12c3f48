package io.timeservice.store;

import java.util.List;

import io.timeservice.model.AddOutcome;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.Due;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.OnConflict;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.FiringPosition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Reservation;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;

/**
 * The timers of a store's clocks: the port both stores implement and the web layer calls. Every call names its
 * clock, {@code null} for the default one; a clock that does not exist is refused with {@code clock_not_found}
 * before anything else about the clock is decided. Every refusal is a {@link ProblemException} whose code and
 * message are the same on every store (they come from the rulebook: {@link io.timeservice.model.TimerRules},
 * {@link io.timeservice.model.TimeRules}), and a refused call changes nothing. A store that keeps no trace leaves
 * {@code trace} empty. Timers fire in one order: fireTime, then priority, then sequence
 * ({@link Timer#compareFiringOrder}).
 */
public interface TimerStore {

    /**
     * Adds a timer due {@code due}: its fireTime ({@link io.timeservice.model.TimeRules#fireTime}) is decided against
     * the clock's now in the same atomic step that adds it.
     *
     * @throws ProblemException {@code invalid_id}, {@code invalid_delay}, {@code duplicate_id},
     *                            {@code payload_too_large} or {@code capacity_exceeded} (too many timers, or too many
     *                            payload bytes); {@code invalid_request} for a flow-control {@code key} that breaks
     *                            the id rules ({@link io.timeservice.model.TimerRules#requireValidKey})
     */
    default Timer add(String clock, String id, Due due, int priority, String payload, Trace trace) {
        return add(clock, id, due, priority, payload, null, null, trace);
    }

    /**
     * {@link #add(String, String, Due, int, String, Trace)}, the timer keeping {@code traceContext}
     * ({@link io.timeservice.model.TraceContext}, null for none), which its firing and delivery carry, under the
     * flow-control {@code key} (null: the empty key) that its deliveries are limited by. No overload takes one of the
     * two alone: both are strings, and a call naming one must say which.
     */
    Timer add(String clock, String id, Due due, int priority, String payload, String traceContext, String key,
              Trace trace);

    /** Adds a timer due at {@code now + delay}: {@link #add(String, String, Due, int, String, Trace)}. */
    default Timer add(String clock, String id, long delay, int priority, String payload, Trace trace) {
        return add(clock, id, Due.after(delay), priority, payload, trace);
    }

    /** @throws ProblemException {@code timer_not_found} */
    Timer get(String clock, String id);

    /**
     * Gives a pending timer a new due time (a delay counts from now, not from the old fireTime), a new priority or
     * both, if {@code precondition} accepts its current revision; keeps its sequence and counts one more version.
     * Null keeps that part.
     *
     * @throws ProblemException {@code invalid_request} (nothing to change), {@code invalid_delay},
     *                            {@code timer_not_found}, {@code precondition_failed} or {@code version_limit_reached}
     */
    Timer edit(String clock, String id, Due newDue, Integer newPriority, Precondition precondition, Trace trace);

    /** An edit with a new delay from now: {@link #edit(String, String, Due, Integer, Precondition, Trace)}. */
    default Timer edit(String clock, String id, Long newDelay, Integer newPriority, Precondition precondition,
                       Trace trace) {
        return edit(clock, id, newDelay == null ? null : Due.after(newDelay), newPriority, precondition, trace);
    }

    /**
     * An add that decides by {@code onConflict} when the id is pending or reserved ({@link OnConflict}); with
     * {@link OnConflict#ERROR} it is {@link #add(String, String, Due, int, String, Trace)}.
     *
     * @throws ProblemException as that add; a reserved id is still {@code duplicate_id} with
     *                            {@link OnConflict#REPLACE}, and a replace of a schedule's occurrence
     *                            {@code schedule_owned}
     * @param traceContext the adding request's trace context for a timer added (null: none); a replaced timer keeps
     *                     its own
     * @param key          the flow-control key of a timer added (null: none); a replaced timer keeps its own
     */
    AddOutcome add(String clock, String id, Due due, int priority, String payload, String traceContext, String key,
                   OnConflict onConflict);

    /** {@link #add(String, String, Due, int, String, String, String, OnConflict)} without a trace context or key. */
    default AddOutcome add(String clock, String id, Due due, int priority, String payload, OnConflict onConflict) {
        return add(clock, id, due, priority, payload, null, null, onConflict);
    }

    /**
     * Cancels a pending timer if {@code precondition} accepts its current revision; returns it as it was.
     *
     * @throws ProblemException {@code timer_not_found} or {@code precondition_failed}
     */
    Timer cancel(String clock, String id, Precondition precondition, Trace trace);

    /**
     * Releases the clock's reservation of {@code id} before its dedupe window ends, so the id may be added again;
     * returns the reservation as it was.
     *
     * @throws ProblemException {@code reservation_not_found} when the clock keeps none (never reserved, expired or
     *                            released, or a malformed id)
     */
    Reservation releaseReservation(String clock, String id);

    /**
     * Applies {@code ops} in order, all or nothing: each decided against the state the ones before it leave, exactly
     * as the single call would decide it; if any is refused nothing changes.
     *
     * @return each operation's result in order: the added or edited timer, or the cancelled timer as it was (an add
     *         that kept a reservation, {@link io.timeservice.model.OnConflict#KEEP}: null)
     * @throws ProblemException {@code invalid_request} for no or more than
     *                            {@value io.timeservice.model.Limits#MAX_BATCH_OPS} operations, else the first refused
     *                            operation's refusal with its {@link ProblemException#opIndex}
     */
    default List<Timer> batch(String clock, List<? extends BatchOp> ops) {
        return batchOutcomes(clock, ops).stream().map(AddOutcome::timer).toList();
    }

    /**
     * {@link #batch}, answering what each operation did: an add's {@link AddOutcome} as a single add with its
     * {@link BatchOp.Add#onConflict()} answers it (added, kept or replaced: a kept or replaced add changes nothing or
     * replaces in the batch's place, decided against the state the operations before it leave), an edit's or a
     * cancel's as {@link AddOutcome#changed}.
     */
    List<AddOutcome> batchOutcomes(String clock, List<? extends BatchOp> ops);

    /**
     * Applies several clocks' batches as one, all or nothing across the clocks: each part decided exactly as
     * {@link #batchOutcomes} decides it on its clock, the parts in the order of their clocks' names (each against the
     * state the parts before it leave, the pending budget counting every part's running peak), and if any operation of
     * any part is refused nothing changes on any clock. Every other call sees all the parts applied or none of them,
     * and two such batches naming the same clocks in different orders never wait for each other for good. One part is
     * exactly {@link #batchOutcomes} of its clock.
     *
     * @return each part's outcomes ({@link #batchOutcomes}), in the order of {@code parts}
     * @throws ProblemException {@code invalid_request} for no parts, a part without operations, a clock named twice or
     *                            more than {@value io.timeservice.model.Limits#MAX_BATCH_OPS} operations in all
     *                            ({@link io.timeservice.model.TimerRules#requireBatchAcross}); {@code clock_not_found}
     *                            for the first part, in the order given, whose clock does not exist; else the first
     *                            refused operation's refusal with its {@link ProblemException#opIndex} counted across
     *                            the parts in the order given (a part's first operation follows the last of the part
     *                            before it)
     */
    List<List<AddOutcome>> batchAcross(List<ClockBatch> parts);

    /**
     * Moves a virtual clock by {@code by} or to {@code to} (exactly one is set) and fires, in firing order, every
     * timer due at the new now, at most {@code limit} (a bounded advance stops at the last one it fired).
     *
     * @throws ProblemException {@code invalid_advance}, {@code clock_not_virtual}
     */
    AdvanceResult advance(String clock, Long by, Long to, int limit, Trace trace);

    /**
     * Moves a virtual clock to its earliest pending event ({@link NextEvent#earliest}: a timer coming due, a lease
     * ending, a retry becoming ready) and does there what {@link #advance} with {@code to} at that time does (fires
     * the due timers, at most {@code limit}; settles the leases and retries due by then), all in one atomic step so
     * that no other change slips between finding the event and reaching it. With nothing pending the clock does not
     * move, nothing fires and the event is null.
     *
     * @throws ProblemException {@code invalid_limit}, {@code invalid_advance} (a recording trace that would fire
     *                            too many), {@code clock_not_virtual}, {@code capacity_exceeded} (the deliveries
     *                            hold their limit)
     */
    NextAdvance advanceToNext(String clock, int limit, Trace trace);

    /** The first {@code limit} pending timers in firing order. */
    QueueListing firstN(String clock, int limit);

    /**
     * A page of the pending timers in firing order: at most {@code limit} after the position {@code after} (null:
     * from the first), only those whose id starts with {@code idPrefix} (null: any id); {@code size} counts every
     * pending timer. Pages on past any number of timers without reading those before the position into the answer.
     *
     * @throws ProblemException {@code invalid_limit} below 1, {@code clock_not_found}
     */
    QueueListing page(String clock, FiringPosition after, String idPrefix, int limit);

    /** The pending timers due at or before {@code dueBy}, at most {@code limit}, in firing order: what an advance would fire. */
    QueueListing dueBy(String clock, long dueBy, int limit);

    /** @throws ProblemException {@code queue_empty} */
    Timer peek(String clock);

    QueueStatus status(String clock);

    /** Empties the default clock and restarts it at 0 (the demo's reset); sequences keep counting. */
    void reset();
}
