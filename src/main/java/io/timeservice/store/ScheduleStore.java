package io.timeservice.store;

import java.util.List;

import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;

/**
 * The recurring schedules of a store's clocks: the port both stores implement and the web layer calls. Every call
 * names its clock ({@code null} for the default one; a missing clock is {@code clock_not_found} before anything
 * else), and refusals are {@link ProblemException}s with the same codes and texts on every store (the form checks
 * from {@link io.timeservice.model.ScheduleRules}, the times from {@link io.timeservice.model.ScheduleTimes}); a refused
 * call changes nothing.
 *
 * <p>Each occurrence is a timer with id {@code <schedule id>:<time>}, fireTime = its time, the schedule's priority
 * and payload, and the schedule's id as its {@link Timer#schedule()}. An active schedule has exactly one occurrence
 * pending; firing it and adding the next one are one atomic change, so no occurrence fires twice or goes missing
 * (across restarts, instances and replaces). The timer API reads occurrences but refuses to change them
 * ({@code schedule_owned}). {@code ifMatch} is the version an HTTP If-Match names, null for an unconditional call;
 * a version that is not the schedule's current one is {@code precondition_failed}.
 */
public interface ScheduleStore {

    /**
     * Creates the schedule (its first occurrence the first time after now, at or after start) or replaces it (keeping
     * its counts, the next occurrence the first after now and after the last one fired or skipped, so an occurrence
     * already fired never fires again; version + 1). The old pending occurrence goes, the new one is added, in one
     * change.
     *
     * @throws ProblemException {@code invalid_id}, {@code invalid_schedule}, {@code payload_too_large},
     *                            {@code precondition_failed} (a replace whose If-Match does not name the version;
     *                            If-Match on a create: the schedule does not exist, so it fails too),
     *                            {@code schedule_limit}, {@code capacity_exceeded} (no room for its occurrence)
     */
    Schedule.Put put(String clock, String id, ScheduleSpec spec, Long ifMatch);

    /** @throws ProblemException {@code schedule_not_found} */
    Schedule get(String clock, String id);

    /** Every schedule of the clock, by id. */
    List<Schedule> list(String clock);

    /**
     * Deletes the schedule and its pending occurrence (a triggered occurrence still pending stays and fires); returns
     * it as it was.
     *
     * @throws ProblemException {@code schedule_not_found}, {@code precondition_failed}
     */
    Schedule delete(String clock, String id, Long ifMatch);

    /**
     * The next {@code count} occurrence times as the schedule will fire them (end and limit applied), the pending
     * one first; empty when none is left.
     *
     * @throws ProblemException {@code invalid_limit} (count outside 1..1000), {@code schedule_not_found}
     */
    List<Long> next(String clock, String id, int count);

    /**
     * Pauses the schedule: its pending occurrence stays, and each occurrence that comes due while paused is skipped
     * and counted. Pausing a paused schedule changes nothing (same version).
     *
     * @throws ProblemException {@code schedule_not_found}, {@code precondition_failed}
     */
    Schedule pause(String clock, String id, Long ifMatch);

    /**
     * Resumes a paused schedule with its first occurrence after now (a pending one due by now is skipped and
     * counted). Resuming an active schedule changes nothing.
     *
     * @throws ProblemException {@code schedule_not_found}, {@code precondition_failed},
     *                            {@code capacity_exceeded}
     */
    Schedule resume(String clock, String id, Long ifMatch);

    /**
     * Adds one extra occurrence due at the clock's now (id {@code <schedule id>:<now>}), which fires as any due
     * timer does (the next firing round, or the next advance of a virtual clock), counted in {@code fired} and
     * {@code triggered} but not against the limit; the pending occurrence stays. When the occurrence at now is
     * pending already, answers it and adds nothing.
     *
     * @throws ProblemException {@code schedule_not_found}, {@code capacity_exceeded}
     */
    Timer trigger(String clock, String id);
}
