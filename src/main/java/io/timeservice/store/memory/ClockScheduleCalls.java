package io.timeservice.store.memory;

import java.util.List;
import java.util.function.LongSupplier;

import io.timeservice.model.BatchOp;
import io.timeservice.model.CronParser;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.memory.heap.IndexedTimerHeap;

/**
 * One clock's schedule calls ({@link io.timeservice.store.ScheduleStore}'s contract), each decided under the clock's
 * lock, journaled as one record and applied to {@link ClockSchedules}, whose occurrences are timers of this clock's
 * heap. A call that adds an occurrence takes its room and checks its id before the record is written, so applying it
 * never refuses.
 *
 * <p>Not thread-safe by itself: every public-facing method takes the lock through the {@link ClockKernel};
 * {@link #live}'s methods are for the firing step, under the lock.
 */
final class ClockScheduleCalls {

    private final ClockKernel kernel;
    private final IndexedTimerHeap heap;
    private final Capacity capacity;
    private final Sequences sequences;
    private final LongSupplier wallClockMillis;
    private final ClockSchedules schedules;
    /** Reads cron; set by {@link #configure} before serving (refuses cron until then). */
    private volatile CronParser parser = ScheduleRules.NO_CRON;
    private final LiveOccurrences live = new LiveOccurrences();
    /** {@code timeservice.schedules.max-catch-up}: occurrences of one schedule one step fires at most. */
    private int maxCatchUp = 1_000;

    ClockScheduleCalls(ClockKernel kernel, IndexedTimerHeap heap, Capacity capacity, Sequences sequences,
                       LongSupplier wallClockMillis) {
        this.kernel = kernel;
        this.heap = heap;
        this.capacity = capacity;
        this.sequences = sequences;
        this.wallClockMillis = wallClockMillis;
        this.schedules = new ClockSchedules(expression -> parser.parse(expression), live);
    }

    ClockSchedules schedules() {
        return schedules;
    }

    /** How many schedules the clock has, every one {@link #list} lists; O(1). */
    int count() {
        return kernel.serving(schedules::size);
    }

    int maxCatchUp() {
        return maxCatchUp;
    }

    /** Reads cron with {@code cronParser} and fires at most {@code max} occurrences per schedule per step. */
    void configure(CronParser cronParser, int max) {
        parser = cronParser;
        maxCatchUp = max;
    }

    /** The sequence the next occurrence takes: a firing step's record names it; call under the lock. */
    long nextSequence() {
        return sequences.last() + 1;
    }

    /** The live heap as the schedules see it; {@link LiveOccurrences#at} sets the times of the adds to come. */
    LiveOccurrences live() {
        return live;
    }

    Schedule.Put put(String id, ScheduleSpec spec, Long ifMatch) {
        return kernel.mutate(Operation.SCHEDULE, () -> {
            ScheduleRules.requireValidScheduleId(id);
            ScheduleRules.requireSchedule(spec, parser); // outside the lock: the parser is set before serving
        }, () -> {
            long now = kernel.clock().now();
            boolean isNew = !schedules.contains(id);
            Mutation.SchedulePut record = new Mutation.SchedulePut(id, spec, now, wallClockMillis.getAsLong(),
                    sequences.last() + 1);
            String adds = schedules.plan(record, spec, ifMatch);
            return journaled(record, adds, spec.payload(), isNew, () -> schedules.put(id, spec, null, now));
        });
    }

    Schedule get(String id) {
        return kernel.read(Operation.SCHEDULE_READ, () -> schedules.get(id));
    }

    List<Schedule> list() {
        return kernel.read(Operation.SCHEDULE_READ, schedules::list);
    }

    List<Long> next(String id, int count) {
        return kernel.read(Operation.SCHEDULE_READ, () -> schedules.next(id, count));
    }

    Schedule delete(String id, Long ifMatch) {
        return kernel.mutate(Operation.SCHEDULE, () -> {
            Schedule current = schedules.get(id);
            if (ifMatch != null && ifMatch != current.version()) {
                throw ScheduleRules.schedulePreconditionFailed(current);
            }
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.ScheduleDeleted(id), () -> {
                Schedule deleted = schedules.delete(id, null);
                capacity.budget().releaseSchedules(1);
                return deleted;
            });
        });
    }

    Schedule pause(String id, Long ifMatch) {
        return kernel.mutate(Operation.SCHEDULE, () -> {
            Schedule current = schedules.get(id);
            if (ifMatch != null && ifMatch != current.version()) {
                throw ScheduleRules.schedulePreconditionFailed(current);
            }
            if (current.spec().paused()) {
                return new Applied<>(current, 0, Applied.NO_LEVELS);
            }
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.SchedulePaused(id), () -> schedules.pause(id, null));
        });
    }

    Schedule resume(String id, Long ifMatch) {
        return kernel.mutate(Operation.SCHEDULE, () -> {
            long now = kernel.clock().now();
            Mutation.ScheduleResumed record = new Mutation.ScheduleResumed(id, now, wallClockMillis.getAsLong(),
                    sequences.last() + 1);
            String adds = schedules.plan(record, null, ifMatch);
            if (!schedules.get(id).spec().paused()) {
                return new Applied<>(schedules.get(id), 0, Applied.NO_LEVELS);
            }
            return journaled(record, adds, schedules.get(id).spec().payload(), false,
                    () -> schedules.resume(id, null, now));
        });
    }

    Timer trigger(String id) {
        return kernel.mutate(Operation.SCHEDULE, () -> {
            long now = kernel.clock().now();
            Mutation.ScheduleTriggered record = new Mutation.ScheduleTriggered(id, now, wallClockMillis.getAsLong(),
                    sequences.last() + 1);
            String adds = schedules.plan(record, null, null);
            if (adds == null) {
                String pending = Schedule.occurrenceId(id, now);
                return new Applied<>(heap.timerAt(heap.find(pending)).ofSchedule(id), 0, Applied.NO_LEVELS);
            }
            return journaled(record, adds, schedules.get(id).spec().payload(), false, () -> {
                String timerId = schedules.trigger(id, now);
                return heap.timerAt(heap.find(timerId)).ofSchedule(id);
            });
        });
    }

    /** {@code timer} with its schedule when it is an occurrence; call under the lock. */
    Timer tagged(Timer timer) {
        String owner = schedules.ownerOf(timer.id());
        return owner == null ? timer : timer.ofSchedule(owner);
    }

    /** How many of this clock's schedules are active, paused and done (by {@link Schedule.State} ordinal). */
    long[] countByState() {
        return kernel.serving(() -> {
            long[] counts = new long[Schedule.State.values().length];
            for (Schedule schedule : schedules.list()) {
                counts[schedule.state().ordinal()]++;
            }
            return counts;
        });
    }

    /** The schedule that owns the pending timer {@code id}, or null for a client's timer; call under the lock. */
    String ownerOf(String timerId) {
        return schedules.ownerOf(timerId);
    }

    /**
     * Refuses a timer-API change of a schedule's occurrence; call under the lock.
     *
     * @throws ProblemException {@code schedule_owned}
     */
    void requireNotOwned(String timerId) {
        String owner = timerId == null ? null : schedules.ownerOf(timerId);
        if (owner != null) {
            throw ScheduleRules.scheduleOwned(timerId, owner);
        }
    }

    /**
     * Refuses a client's add of a timer id of the form {@code <schedule>:<digits>} while that schedule exists on the
     * clock (in any state): such ids are the schedule's occurrences; call under the lock.
     *
     * @throws ProblemException {@code schedule_owned}
     */
    void requireNotReserved(String timerId) {
        String owner = schedules.size() == 0 ? null : ScheduleRules.occurrenceFormOwner(timerId);
        if (owner != null && schedules.contains(owner)) {
            throw ScheduleRules.scheduleReserved(timerId, owner);
        }
    }

    /**
     * Refuses a batch that edits or cancels a schedule's occurrence, naming the first such operation by its index
     * counted from {@code firstIndex}; call under the lock.
     */
    void requireNoneOwned(List<? extends BatchOp> ops, int firstIndex) {
        if (!schedules.hasOccurrences()) {
            return;
        }
        for (int i = 0; i < ops.size(); i++) {
            String id = ops.get(i) instanceof BatchOp.Edit edit ? edit.id()
                    : ops.get(i) instanceof BatchOp.Cancel cancel ? cancel.id() : null;
            try {
                requireNotOwned(id);
            } catch (ProblemException owned) {
                throw owned.atOp(firstIndex + i);
            }
        }
    }

    /** Recovery rebuilt the schedules: they count in the budget and change the live heap from now on. */
    void recovered() {
        capacity.budget().releaseSchedules(-schedules.size());
        schedules.useOccurrences(live);
    }

    /** The clock was reset or deleted with every timer: its schedules go too, their slots given back. */
    void dropAll() {
        capacity.budget().releaseSchedules(schedules.size());
        schedules.clear();
    }

    /**
     * Journals {@code record} and applies it, having taken first what the occurrence {@code adds} (or none) needs:
     * its id free of client timers, a schedule slot for a new schedule, room in the budget and its sequence reserved
     * on disk. A refusal gives all of it back and changes nothing.
     */
    private <T> Applied<T> journaled(Mutation record, String adds, String payload, boolean isNew,
                                     java.util.function.Supplier<T> apply) {
        if (adds != null && heap.find(adds) != IndexedTimerHeap.NONE && !adds.equals(ownPending(record))) {
            throw ScheduleRules.occurrenceIdTaken(adds);
        }
        long bytes = -1;
        boolean slot = false;
        try {
            if (isNew) { // the schedule limit before the capacity, as the PostgreSQL store decides them
                capacity.budget().reserveSchedule();
                slot = true;
            }
            bytes = adds == null ? -1 : capacity.reserve(adds, payload);
            kernel.log().requireWritable();
            if (adds != null) {
                sequences.reserveNext(kernel.log());
            }
            long reserved = bytes;
            Applied<T> applied = kernel.commit(record, () -> {
                live.at(kernel.clock().now(), wallOf(record), reserved);
                return apply.get();
            });
            bytes = -1;
            slot = false;
            return applied;
        } finally {
            if (bytes >= 0) {
                capacity.unreserve(bytes);
            }
            if (slot) {
                capacity.budget().releaseSchedules(1);
            }
        }
    }

    private String ownPending(Mutation record) {
        return record instanceof Mutation.SchedulePut put ? schedules.pendingIdOf(put.id()) : null;
    }

    private static long wallOf(Mutation record) {
        if (record instanceof Mutation.SchedulePut put) {
            return put.wallMillis();
        } else if (record instanceof Mutation.ScheduleResumed resumed) {
            return resumed.wallMillis();
        }
        return ((Mutation.ScheduleTriggered) record).wallMillis();
    }

    /**
     * The live heap under the schedules: adds take the next sequence (reserving a block on disk when one is used
     * up, which only a firing step's successors can reach, as its record's last part), count in the budget and
     * remove gives back.
     */
    final class LiveOccurrences implements ClockSchedules.Occurrences {
        private long now;
        private long wall;
        /** Bytes a call reserved for its one occurrence, or -1. */
        private long reservedBytes = -1;

        /** The clock's now and wall time of the adds to come, and what a call reserved (-1 for a firing step). */
        void at(long clockNow, long wallMillis, long reserved) {
            now = clockNow;
            wall = wallMillis;
            reservedBytes = reserved;
        }

        @Override
        public void createdAt(long clockTime) {
            now = clockTime;
        }

        @Override
        public void add(String timerId, long fireTime, int priority, String payload, String traceContext,
                        String key, boolean successor) {
            long sequence = sequences.reserveNext(kernel.log());
            heap.insert(timerId, fireTime, priority, sequence, 1, now, wall, payload, traceContext, key);
            sequences.issued(sequence);
            long bytes = Capacity.bytesOf(timerId, payload);
            if (!successor && reservedBytes == bytes) {
                capacity.added(bytes);
                reservedBytes = -1;
            } else {
                capacity.addedBeyondLimit(bytes);
            }
        }

        @Override
        public void remove(String timerId) {
            int handle = heap.find(timerId);
            Timer timer = heap.timerAt(handle);
            heap.remove(handle);
            capacity.removed(timer);
        }

        @Override
        public boolean isPending(String timerId) {
            return heap.find(timerId) != IndexedTimerHeap.NONE;
        }
    }
}
