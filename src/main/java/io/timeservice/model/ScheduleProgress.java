package io.timeservice.model;

/**
 * One schedule's state as a store works on it: its spec and compiled times, its pending occurrence and its counts,
 * changed in place while a change of the schedule is decided, then shown as a {@link Schedule}. Both stores keep
 * theirs in one (the memory store's per clock, the PostgreSQL store's per locked row), so the counts mean the same on
 * both. Not thread-safe: a store changes it only under the clock's lock (memory) or in the transaction that holds
 * the schedule's row (PostgreSQL).
 */
public class ScheduleProgress {

    public final String id;
    public ScheduleSpec spec;
    public Recurrence times;
    /** The pending scheduled occurrence's time, or {@link Recurrence#NONE}. */
    public long pending = Recurrence.NONE;
    public long fired;
    public long skipped;
    public long triggered;
    /** The last occurrence time fired or skipped, {@link Long#MIN_VALUE} before the first. */
    public long taken = Long.MIN_VALUE;
    public long version;

    public ScheduleProgress(String id) {
        this.id = id;
    }

    /**
     * Takes the spec, pending occurrence, counts and version of {@code schedule} (saved, copied or recovered); its
     * times are the caller's to compile, when it fires.
     */
    public void restore(Schedule schedule) {
        spec = schedule.spec();
        pending = schedule.next() == null ? Recurrence.NONE : schedule.next();
        fired = schedule.fired();
        skipped = schedule.skipped();
        triggered = schedule.triggered();
        taken = schedule.taken();
        version = schedule.version();
    }

    public Schedule view() {
        return new Schedule(id, spec, pending == Recurrence.NONE ? null : pending, fired, skipped, triggered, taken,
                version);
    }

    /** The occurrences that count against the schedule's limit: fired or skipped, triggered ones not. */
    public long counted() {
        return fired - triggered + skipped;
    }

    /**
     * The pending occurrence's id is held by a timer that is not this schedule's (written by a version that let a
     * client take it): the occurrence counts as skipped and the schedule moves on to the one after it, so a schedule
     * never adds a second timer with one id and never sticks. Call while {@link #pending} is not
     * {@link Recurrence#NONE}; both stores call it until the pending id is free.
     */
    public void skipHeldOccurrence() {
        long held = pending;
        skipped++;
        taken = held;
        pending = ScheduleTimes.successor(spec, times, held, counted());
    }

    public String pendingId() {
        return Schedule.occurrenceId(id, pending);
    }
}
