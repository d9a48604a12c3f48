package io.timeservice.core;

import java.util.List;

/**
 * The timers of a store's clocks, as the web layer uses them: every call names its clock, {@code null} for the
 * default one. Same semantics and refusals on every store; see {@link TimerScheduler} for each call's contract.
 * A store that keeps no trace leaves {@code trace} empty.
 */
public interface TimerStore {

    Timer add(String clock, String id, long delay, int priority, String payload, Trace trace);

    Timer get(String clock, String id);

    Timer edit(String clock, String id, Long newDelay, Integer newPriority, Precondition precondition, Trace trace);

    Timer cancel(String clock, String id, Precondition precondition, Trace trace);

    List<Timer> batch(String clock, List<? extends BatchOp> ops);

    AdvanceResult advance(String clock, Long by, Long to, int limit, Trace trace);

    QueueListing firstN(String clock, int limit);

    QueueListing dueBy(String clock, long dueBy, int limit);

    /** @throws SchedulerException {@code queue_empty} */
    Timer peek(String clock);

    QueueStatus status(String clock);

    /** Empties the default clock and restarts it at 0 (the demo's reset); sequences keep counting. */
    void reset();
}
