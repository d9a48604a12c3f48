package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import io.timeservice.model.CronParser;
import io.timeservice.model.OccurrenceStep;
import io.timeservice.model.Recurrence;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleProgress;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.ScheduleTimes;

/**
 * One clock's schedules and the bookkeeping of their occurrences: which pending timer is whose occurrence, what a
 * firing step does when it reaches one (fire or skip, and which occurrence follows), and the schedule calls. Each
 * mutating call is a deterministic function of the state and its arguments (the clock's now among them), so a
 * journal record of the call's arguments replays it exactly.
 *
 * <p>The occurrences themselves are timers in the clock's heap, reached through {@link Occurrences}; a firing step
 * tells {@link #reached} each popped timer and afterwards calls {@link #addSuccessors}, since the heap must not
 * change while it pops, and {@link #endStep} once it stops.
 *
 * <p>Not thread-safe: call every method under the clock's lock. Every refusal is thrown before anything changes.
 */
final class ClockSchedules {

    private static final System.Logger LOG = System.getLogger(ClockSchedules.class.getName());

    /** The clock's heap, as the schedules use it: their pending occurrences are timers there. */
    interface Occurrences {
        /**
         * Adds a pending occurrence timer. Never refuses: a call's own occurrence had its room and id checked before
         * the call was journaled ({@link #plan}); a {@code successor} takes the room its fired predecessor left
         * (beyond the limit when the predecessor stays as a delivery: by one timer per schedule at most).
         */
        void add(String timerId, long fireTime, int priority, String payload, String traceContext, String key,
                 boolean successor);

        /** The clock time the successors added from here on were created at: when their predecessor fired. */
        void createdAt(long clockTime);

        /** Removes a pending occurrence timer (it is pending: the schedules track it). */
        void remove(String timerId);

        /** Whether a timer with id {@code timerId} is pending, whoever's it is. */
        boolean isPending(String timerId);
    }

    /** What a firing step does with a timer it popped. */
    enum Reached {
        /** A client's timer: fires as ever. */
        NOT_AN_OCCURRENCE,
        FIRE,
        SKIP
    }

    private final CronParser parser;
    /** The live heap, or recovery's while it replays. */
    private Occurrences occurrences;
    private final TreeMap<String, Entry> byId = new TreeMap<>();
    /** Pending occurrence timer id (scheduled and triggered) to its schedule. */
    private final Map<String, Entry> byOccurrence = new HashMap<>();
    /** Successors found by {@link #reached}, added by {@link #addSuccessors}. */
    private final List<Entry> successorsDue = new ArrayList<>();
    /** Schedules whose catch-up the step spent ({@link OccurrenceStep#spent}), moved on by {@link #endStep}. */
    private final List<Entry> spent = new ArrayList<>();
    /** Counts firing steps; an entry's {@code stepFires} counts only in the step its stamp names. */
    private long step;

    ClockSchedules(CronParser parser, Occurrences occurrences) {
        this.parser = parser;
        this.occurrences = occurrences;
    }

    private static final class Entry extends ScheduleProgress {
        long stepStamp = -1;
        int stepFires;
        boolean deleted;

        Entry(String id) {
            super(id);
        }
    }

    int size() {
        return byId.size();
    }

    /** Every schedule and every pending triggered occurrence, for a snapshot or a fork. */
    ScheduleImage image() {
        Map<String, String> triggered = new HashMap<>();
        for (Map.Entry<String, Entry> occurrence : byOccurrence.entrySet()) {
            Entry entry = occurrence.getValue();
            if (entry.deleted || entry.pending == Recurrence.NONE || !occurrence.getKey().equals(entry.pendingId())) {
                triggered.put(occurrence.getKey(), entry.id);
            }
        }
        return new ScheduleImage(list(), triggered);
    }

    /** Rebuilds the schedules of {@code image} into an empty set; their occurrences are in the heap already. */
    void restore(ScheduleImage image) {
        for (Schedule schedule : image.schedules()) {
            Entry entry = new Entry(schedule.id());
            entry.restore(schedule);
            entry.times = ScheduleRules.recurrenceOf(schedule.spec(), parser);
            byId.put(entry.id, entry);
            if (entry.pending != Recurrence.NONE) {
                byOccurrence.put(entry.pendingId(), entry);
            }
        }
        for (Map.Entry<String, String> triggered : image.triggeredOccurrences().entrySet()) {
            Entry entry = byId.get(triggered.getValue());
            if (entry == null) {
                entry = new Entry(triggered.getValue());
                entry.deleted = true;
            }
            byOccurrence.put(triggered.getKey(), entry);
        }
    }

    /** Forgets every schedule: the heap they were in was emptied. */
    void clear() {
        byId.clear();
        byOccurrence.clear();
        successorsDue.clear();
        spent.clear();
    }

    /** Pending occurrences, scheduled and triggered. */
    int occurrenceCount() {
        return byOccurrence.size();
    }

    /** Whether any occurrence is pending: only then does a firing step need to look at what it pops. */
    boolean hasOccurrences() {
        return !byOccurrence.isEmpty();
    }

    /** Applies the changes that follow to {@code heap}: recovery's while it replays, then the live one again. */
    void useOccurrences(Occurrences heap) {
        occurrences = heap;
    }

    boolean contains(String id) {
        return byId.containsKey(id);
    }

    /** Whether the timer {@code timerId} is a pending occurrence, which the timer API may not change. */
    String ownerOf(String timerId) {
        Entry entry = byOccurrence.isEmpty() ? null : byOccurrence.get(timerId);
        return entry == null ? null : entry.id;
    }

    /**
     * See {@link io.timeservice.store.ScheduleStore#put}; {@code spec} as given (its form checked by
     * {@link ScheduleRules#requireSchedule} already); the caller checks the schedule limit before a new one
     * ({@link #contains}).
     */
    Schedule.Put put(String id, ScheduleSpec spec, Long ifMatch, long now) {
        Entry current = byId.get(id);
        if (current == null && ifMatch != null) {
            throw ScheduleRules.noScheduleToMatch(id, ifMatch);
        }
        if (current != null && ifMatch != null && ifMatch != current.version) {
            throw ScheduleRules.schedulePreconditionFailed(current.view());
        }
        ScheduleSpec resolved = resolve(current, spec, now);
        Recurrence times = ScheduleRules.recurrenceOf(resolved, parser);
        Entry entry = current != null ? current : new Entry(id);
        long counted = entry.counted();
        long first = ScheduleTimes.firstOnPut(resolved, times, now, entry.taken, counted);
        replacePending(entry, first, resolved);
        entry.spec = resolved;
        entry.times = times;
        entry.version = current == null ? 1 : current.version + 1;
        byId.put(id, entry);
        return new Schedule.Put(entry.view(), current == null);
    }

    Schedule get(String id) {
        return require(id).view();
    }

    List<Schedule> list() {
        List<Schedule> all = new ArrayList<>(byId.size());
        for (Entry entry : byId.values()) {
            all.add(entry.view());
        }
        return all;
    }

    Schedule delete(String id, Long ifMatch) {
        Entry entry = requireMatching(id, ifMatch);
        Schedule was = entry.view();
        if (entry.pending != Recurrence.NONE) {
            String pendingId = entry.pendingId();
            occurrences.remove(pendingId);
            byOccurrence.remove(pendingId);
        }
        entry.deleted = true;
        byId.remove(id);
        return was;
    }

    List<Long> next(String id, int count) {
        ScheduleRules.requireNextCount(count);
        Entry entry = require(id);
        return ScheduleTimes.upcoming(entry.view(), entry.times, count);
    }

    Schedule pause(String id, Long ifMatch) {
        Entry entry = requireMatching(id, ifMatch);
        if (!entry.spec.paused()) {
            entry.spec = entry.spec.withPaused(true);
            entry.version++;
        }
        return entry.view();
    }

    Schedule resume(String id, Long ifMatch, long now) {
        Entry entry = requireMatching(id, ifMatch);
        if (!entry.spec.paused()) {
            return entry.view();
        }
        if (entry.pending != Recurrence.NONE && entry.pending <= now) {
            // came due while paused and not yet reached by a firing step: skipped, as any occurrence while paused
            long skippedTime = entry.pending;
            long next = ScheduleTimes.firstAfter(entry.spec, entry.times, now, skippedTime, entry.counted() + 1);
            replacePending(entry, next, entry.spec);
            entry.skipped++;
            entry.taken = skippedTime;
        }
        entry.spec = entry.spec.withPaused(false);
        entry.version++;
        return entry.view();
    }

    /** See {@link io.timeservice.store.ScheduleStore#trigger}: the occurrence timer's id. */
    String trigger(String id, long now) {
        Entry entry = require(id);
        String timerId = Schedule.occurrenceId(id, now);
        if (byOccurrence.get(timerId) == entry) {
            return timerId;
        }
        occurrences.add(timerId, now, entry.spec.priority(), entry.spec.payload(), entry.spec.traceContext(),
                entry.spec.key(), false);
        byOccurrence.put(timerId, entry);
        return timerId;
    }

    /** A firing step begins: each schedule may fire up to max-catch-up occurrences in it. */
    void beginStep() {
        step++;
    }

    /**
     * A firing step popped the timer {@code timerId} due at {@code time}, the clock at {@code now}: whether it fires
     * or is skipped, counted either way; a scheduled occurrence's successor is noted for {@link #addSuccessors}.
     * The decision is {@link OccurrenceStep#reach}, the one both stores take: a virtual clock passes through every
     * occurrence (each fires at its own time), a wall clock follows {@code catchUp} for a missed one, either fires
     * at most {@code maxCatchUp} per schedule per step and skips the rest due by now.
     */
    Reached reached(String timerId, long time, long now, boolean virtual, int maxCatchUp) {
        Entry entry = byOccurrence.isEmpty() ? null : byOccurrence.remove(timerId);
        if (entry == null) {
            return Reached.NOT_AN_OCCURRENCE;
        }
        if (entry.deleted || entry.pending != time || !timerId.equals(entry.pendingId())) {
            entry.fired++;
            entry.triggered++;
            return Reached.FIRE;
        }
        if (entry.stepStamp != step) {
            entry.stepStamp = step;
            entry.stepFires = 0;
        }
        OccurrenceStep step = OccurrenceStep.reach(entry.spec, entry.times, time, now, entry.counted(),
                entry.stepFires, maxCatchUp, virtual);
        if (step.fires()) {
            entry.fired++;
            entry.stepFires++;
        } else {
            entry.skipped++;
        }
        entry.taken = time;
        if (step.spent()) {
            // the rest due by where the step stops are skipped once it knows that time (endStep): none is added now
            entry.pending = Recurrence.NONE;
            spent.add(entry);
        } else {
            entry.pending = step.next();
            if (entry.pending != Recurrence.NONE) {
                successorsDue.add(entry);
            }
        }
        return step.fires() ? Reached.FIRE : Reached.SKIP;
    }

    /**
     * Adds the successors {@link #reached} found, as pending occurrences created at {@code firedAt}, the fireTime
     * whose timers were just popped. Call after each pop of the heap. A successor whose id a pending timer holds
     * already (a client's timer that an older version let in, a journal or snapshot it wrote) is skipped and counted,
     * and the schedule moves on to the next one ({@link io.timeservice.model.ScheduleProgress#skipHeldOccurrence}):
     * never two timers with one id. Replay does the same, so such a journal recovers.
     */
    void addSuccessors(long firedAt) {
        occurrences.createdAt(firedAt);
        for (Entry entry : successorsDue) {
            addSuccessor(entry);
        }
        successorsDue.clear();
    }

    /**
     * The step stopped the clock at {@code through}: each schedule whose catch-up it spent skips its occurrences up
     * to there ({@link OccurrenceStep#skipThrough}) and gets its next one, created at the time its last one fired.
     * Returns how many it skipped. Call once, after the step's last pop.
     */
    long endStep(long through) {
        long skippedNow = 0;
        for (Entry entry : spent) {
            OccurrenceStep.Skipped skipped = OccurrenceStep.skipThrough(entry.spec, entry.times, entry.taken,
                    through, entry.counted());
            occurrences.createdAt(entry.taken);
            entry.skipped += skipped.count();
            skippedNow += skipped.count();
            entry.taken = skipped.taken();
            entry.pending = skipped.next();
            addSuccessor(entry);
        }
        spent.clear();
        return skippedNow;
    }

    /** Adds the entry's pending occurrence, skipping (and counting) those whose id a pending timer holds already. */
    private void addSuccessor(Entry entry) {
        while (entry.pending != Recurrence.NONE && occurrences.isPending(entry.pendingId())) {
            LOG.log(System.Logger.Level.WARNING, "schedule " + entry.id + ": occurrence " + entry.pendingId()
                    + " is skipped, a pending timer has its id already (a client's timer from an older version)");
            entry.skipHeldOccurrence();
        }
        if (entry.pending != Recurrence.NONE) {
            addPending(entry);
        }
    }

    private void addPending(Entry entry) {
        String timerId = entry.pendingId();
        occurrences.add(timerId, entry.pending, entry.spec.priority(), entry.spec.payload(),
                entry.spec.traceContext(), entry.spec.key(), true);
        byOccurrence.put(timerId, entry);
    }

    /** Makes {@code first} the entry's pending occurrence under {@code spec}: the old one goes, the new one comes. */
    private void replacePending(Entry entry, long first, ScheduleSpec spec) {
        if (entry.pending != Recurrence.NONE) {
            String oldId = entry.pendingId();
            occurrences.remove(oldId);
            byOccurrence.remove(oldId);
        }
        entry.pending = first;
        if (first != Recurrence.NONE) {
            String newId = entry.pendingId();
            occurrences.add(newId, first, spec.priority(), spec.payload(), spec.traceContext(), spec.key(), false);
            byOccurrence.put(newId, entry);
        }
    }

    /**
     * What a call would add, decided before it is journaled: the id of the occurrence timer that
     * {@link #put}, {@link #resume} or {@link #trigger} with these arguments adds, or null when it adds none. The
     * caller checks that id's room and that no client timer has it. Refuses exactly as the call would.
     */
    String plan(Mutation.ScheduleChange call, ScheduleSpec putSpec, Long ifMatch) {
        if (call instanceof Mutation.SchedulePut put) {
            Entry current = byId.get(put.id());
            if (current == null && ifMatch != null) {
                throw ScheduleRules.noScheduleToMatch(put.id(), ifMatch);
            }
            if (current != null && ifMatch != null && ifMatch != current.version) {
                throw ScheduleRules.schedulePreconditionFailed(current.view());
            }
            ScheduleSpec resolved = resolve(current, putSpec, put.now());
            long first = ScheduleTimes.firstOnPut(resolved, ScheduleRules.recurrenceOf(resolved, parser), put.now(),
                    current == null ? Long.MIN_VALUE : current.taken, current == null ? 0 : current.counted());
            return first == Recurrence.NONE ? null : Schedule.occurrenceId(put.id(), first);
        } else if (call instanceof Mutation.ScheduleResumed resumed) {
            Entry entry = requireMatching(resumed.id(), ifMatch);
            if (!entry.spec.paused() || entry.pending == Recurrence.NONE || entry.pending > resumed.now()) {
                return null;
            }
            long next = ScheduleTimes.firstAfter(entry.spec, entry.times, resumed.now(), entry.pending,
                    entry.counted() + 1);
            return next == Recurrence.NONE ? null : Schedule.occurrenceId(entry.id, next);
        } else if (call instanceof Mutation.ScheduleTriggered triggered) {
            Entry entry = require(triggered.id());
            String timerId = Schedule.occurrenceId(entry.id, triggered.now());
            return byOccurrence.get(timerId) == entry ? null : timerId;
        }
        throw new IllegalArgumentException("only a put, resume or trigger adds an occurrence: " + call);
    }

    /** The pending scheduled occurrence's timer id of schedule {@code id}, or null. */
    String pendingIdOf(String id) {
        Entry entry = byId.get(id);
        return entry == null || entry.pending == Recurrence.NONE ? null : entry.pendingId();
    }

    /** A put's resolved spec ({@link OccurrenceStep#resolvePut}, as on every store). */
    private static ScheduleSpec resolve(Entry current, ScheduleSpec spec, long now) {
        return OccurrenceStep.resolvePut(current == null ? null : current.spec, spec, now);
    }

    private Entry require(String id) {
        Entry entry = byId.get(id);
        if (entry == null) {
            throw ScheduleRules.scheduleNotFound(id);
        }
        return entry;
    }

    private Entry requireMatching(String id, Long ifMatch) {
        Entry entry = require(id);
        if (ifMatch != null && ifMatch != entry.version) {
            throw ScheduleRules.schedulePreconditionFailed(entry.view());
        }
        return entry;
    }
}
