package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.arrayLength;
import static io.timeservice.store.memory.CoreTestSupport.field;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model-based test: seeded random operation sequences run against the scheduler and against a plain sorted-list
 * reference model, step by step. Both must return equal results (fired ids and order, peek, firstN, get, status)
 * and refuse the same calls with the same code, and the scheduler's four invariants must hold after every step.
 *
 * <p>Keys are drawn from tiny ranges so that fireTimes and priorities tie constantly, and cancels and edits are
 * aimed at the root, the last slot and inner slots on purpose. One run also grows the queue past 4096 timers (array
 * growth), runs into the capacity, cancels a few hundred at random, fires the rest so that the heap drains to empty
 * (array release), and then carries on with the released arrays. (IndexedTimerHeapTest does the same burst at
 * every arity on the bare heap.)
 *
 * <p>To replay a failure, run the one parameterized case with the seed and arity in its name and message.
 */
class SchedulerModelTest {

    private static final int CAPACITY = 4300; // past 4096, so the handle arrays grow beyond the release size
    private static final int BURST = 4400;
    /** The one run that also grows past 4096 timers and drains to empty (the slow part, so only once). */
    private static final long BURST_SEED = 12;
    private static final int BURST_ARITY = 4;
    private static final long WALL_OFFSET = 1_700_000_000_000L;

    /** The heap keeps wall-clock creation times in whole epoch seconds, unsigned 32-bit (1970 to 2106). */
    private static long wallMillisAsStored(long millis) {
        return Math.min(Math.max(Math.floorDiv(millis, 1000L), 0L), 0xFFFF_FFFFL) * 1000L;
    }

    static Stream<Arguments> seedsAndArities() {
        return Stream.of(11L, 12L, 13L, 14L, 15L).flatMap(seed -> Stream.of(2, 4, 8)
                .map(arity -> Arguments.of(seed, arity)));
    }

    // ---- the reference model: written straightforwardly, no heap ----

    private static final Comparator<Timer> FIRING_ORDER = Comparator.comparingLong(Timer::fireTime)
            .thenComparingInt(Timer::priority).thenComparingLong(Timer::sequence);
    private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._~:-]{1,128}");

    /** Pending timers as a list kept sorted in firing order, plus a map by id. */
    private static final class Model {
        long now;
        long lastSequence;
        final List<Timer> sorted = new ArrayList<>();
        final Map<String, Timer> byId = new HashMap<>();

        private static ProblemException refuse(ErrorCode code) {
            return new ProblemException(code, code.code());
        }

        private long fireTimeAfter(long delay, ErrorCode code) {
            if (delay < 0 || delay > Limits.MAX_DELAY || now > Limits.MAX_TIME - delay) {
                throw refuse(code);
            }
            return now + delay;
        }

        private void insertSorted(Timer timer) {
            int at = Collections.binarySearch(sorted, timer, FIRING_ORDER);
            sorted.add(-at - 1, timer);
            byId.put(timer.id(), timer);
        }

        private void removeSorted(Timer timer) {
            sorted.remove(Collections.binarySearch(sorted, timer, FIRING_ORDER));
            byId.remove(timer.id());
        }

        private Timer pending(String id) {
            Timer timer = id == null ? null : byId.get(id);
            if (timer == null) {
                throw refuse(ErrorCode.TIMER_NOT_FOUND);
            }
            return timer;
        }

        private static void checkRevision(Timer timer, Revision expected) {
            if (expected != null && !expected.equals(timer.revision())) {
                throw refuse(ErrorCode.PRECONDITION_FAILED);
            }
        }

        Timer add(String id, long delay, int priority, String payload) {
            if (id == null || !VALID_ID.matcher(id).matches()) {
                throw refuse(ErrorCode.INVALID_ID);
            }
            long fireTime = fireTimeAfter(delay, ErrorCode.INVALID_DELAY);
            if (byId.containsKey(id)) {
                throw refuse(ErrorCode.DUPLICATE_ID);
            }
            if (byId.size() >= CAPACITY) {
                throw refuse(ErrorCode.CAPACITY_EXCEEDED);
            }
            Timer timer = new Timer(id, fireTime, priority, ++lastSequence, 1, now, payload);
            insertSorted(timer);
            return timer;
        }

        Timer cancel(String id, Revision expected) {
            Timer timer = pending(id);
            checkRevision(timer, expected);
            removeSorted(timer);
            return timer;
        }

        Timer edit(String id, Long newDelay, Integer newPriority, Revision expected) {
            if (newDelay == null && newPriority == null) {
                throw refuse(ErrorCode.INVALID_REQUEST);
            }
            long fireTime = newDelay == null ? 0 : fireTimeAfter(newDelay, ErrorCode.INVALID_DELAY);
            Timer old = pending(id);
            checkRevision(old, expected);
            Timer edited = new Timer(id, newDelay == null ? old.fireTime() : fireTime,
                    newPriority == null ? old.priority() : newPriority, old.sequence(), old.version() + 1,
                    old.createdAt(), old.payload());
            removeSorted(old);
            insertSorted(edited);
            return edited;
        }

        AdvanceResult advance(long by) {
            now = fireTimeAfter(by, ErrorCode.INVALID_ADVANCE);
            int due = 0;
            while (due < sorted.size() && sorted.get(due).fireTime() <= now) {
                due++;
            }
            List<Timer> fired = new ArrayList<>(sorted.subList(0, due));
            sorted.subList(0, due).clear();
            fired.forEach(timer -> byId.remove(timer.id()));
            return new AdvanceResult(now, fired);
        }

        Timer get(String id) {
            return pending(id);
        }

        Timer peek() {
            if (sorted.isEmpty()) {
                throw refuse(ErrorCode.QUEUE_EMPTY);
            }
            return sorted.get(0);
        }

        QueueListing firstN(int limit) {
            if (limit < 1) {
                throw refuse(ErrorCode.INVALID_LIMIT);
            }
            return new QueueListing(now, sorted.size(), sorted.subList(0, Math.min(limit, sorted.size())));
        }

        QueueStatus status() {
            Long oldest = null;
            for (Timer timer : sorted) {
                if (oldest == null || timer.createdAt() < oldest) {
                    oldest = timer.createdAt();
                }
            }
            return new QueueStatus(now, sorted.size(), sorted.isEmpty() ? null : sorted.get(0).fireTime(), oldest,
                    oldest == null ? null : wallMillisAsStored(WALL_OFFSET + oldest));
        }
    }

    /** A call's result or the code it was refused with. */
    private record Outcome(Object value, ErrorCode refused) {
        static Outcome of(Supplier<?> call) {
            try {
                return new Outcome(call.get(), null);
            } catch (ProblemException e) {
                return new Outcome(null, e.code());
            }
        }
    }

    // ---- the run ----

    private final class Run {
        final long seed;
        final int arity;
        final Random random;
        final Model model = new Model();
        final AtomicLong wall = new AtomicLong(WALL_OFFSET);
        final TimerScheduler scheduler;
        int step;
        String operation = "";
        int fires;
        int refusals;

        Run(long seed, int arity) {
            this.seed = seed;
            this.arity = arity;
            this.random = new Random(seed * 31 + arity);
            this.scheduler = new TimerScheduler(new VirtualClock(0), arity, CAPACITY, wall::get,
                    SchedulerMetrics.NONE);
        }

        /** Runs one operation on both, compares, and checks invariants; any failure names seed, arity and step. */
        void both(String description, Supplier<?> onScheduler, Supplier<?> onModel) {
            operation = description;
            try {
                Outcome expected = Outcome.of(onModel);
                Outcome actual = Outcome.of(onScheduler);
                assertThat(actual).isEqualTo(expected);
                if (expected.refused() != null) {
                    refusals++;
                }
                if (expected.value() instanceof AdvanceResult result) {
                    fires += result.fired().size();
                }
                wall.set(WALL_OFFSET + model.now);
                assertThat(scheduler.status()).isEqualTo(model.status());
                InvariantReport report = scheduler.checkInvariants();
                assertThat(report.ok()).as("invariants: %s", report.firstFailure()).isTrue();
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("seed=" + seed + " arity=" + arity + " step=" + step + " op=" + operation
                        + " -- replay with this seed and arity", e);
            }
            step++;
        }

        /** An id aimed at the heap's root, its last slot, an inner slot, any pool id, or nothing valid. */
        String target(int poolSize) {
            int size = model.sorted.size();
            int choice = random.nextInt(10);
            if (size > 0 && choice < 3) {
                return model.sorted.get(0).id(); // the root: the model's first is the heap's root
            }
            if (size > 0 && choice < 7) {
                List<HeapView.Cell> cells = scheduler.heapView(size).slots();
                return choice < 5 ? cells.get(size - 1).id() // the last slot
                        : cells.get(random.nextInt(size)).id(); // any slot, mostly inner ones
            }
            if (choice == 9) {
                return random.nextBoolean() ? "never-added" : null;
            }
            return "id" + random.nextInt(poolSize);
        }

        Revision revisionFor(String id) {
            int choice = random.nextInt(10);
            Timer current = id == null ? null : model.byId.get(id);
            if (choice < 6 || current == null) {
                return choice == 9 ? new Revision(1, 1) : null;
            }
            if (choice < 8) {
                return current.revision();
            }
            return random.nextBoolean() ? new Revision(current.sequence(), current.version() + 1)
                    : new Revision(current.sequence() - 1, current.version());
        }

        long delay() {
            int choice = random.nextInt(100);
            if (choice < 2) {
                return -1 - random.nextInt(3);
            }
            if (choice < 3) {
                return Limits.MAX_DELAY + 1;
            }
            if (choice < 4) {
                return Limits.MAX_DELAY;
            }
            return random.nextInt(7);
        }

        int priority() {
            int choice = random.nextInt(100);
            if (choice < 2) {
                return choice == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE;
            }
            return random.nextInt(3) - (choice < 10 ? 1 : 0);
        }

        String newId(int poolSize) {
            int choice = random.nextInt(100);
            if (choice < 2) {
                return "";
            }
            if (choice < 3) {
                return "x".repeat(129);
            }
            if (choice < 4) {
                return "bad id";
            }
            return "id" + random.nextInt(poolSize);
        }

        /** One random step over a pool of {@code poolSize} ids. */
        void randomStep(int poolSize) {
            int choice = random.nextInt(100);
            if (choice < 30) {
                String id = newId(poolSize);
                long delay = delay();
                int priority = priority();
                String payload = random.nextBoolean() ? null : "p" + step;
                both("add " + id + " delay " + delay + " priority " + priority,
                        () -> scheduler.add(id, delay, priority, payload, Trace.NONE),
                        () -> model.add(id, delay, priority, payload));
            } else if (choice < 45) {
                String id = target(poolSize);
                Revision revision = revisionFor(id);
                both("cancel " + id + " if " + revision,
                        () -> scheduler.cancel(id, Precondition.ifMatch(revision), Trace.NONE),
                        () -> model.cancel(id, revision));
            } else if (choice < 65) {
                String id = target(poolSize);
                Revision revision = revisionFor(id);
                int shape = random.nextInt(10); // 0-2 priority only, 3-5 delay only, 6-8 both, 9 neither
                Long delay = shape >= 3 && shape <= 8 ? delay() : null;
                Integer priority = shape <= 2 || (shape >= 6 && shape <= 8) ? priority() : null;
                both("edit " + id + " delay " + delay + " priority " + priority + " if " + revision,
                        () -> scheduler.edit(id, delay, priority, Precondition.ifMatch(revision), Trace.NONE),
                        () -> model.edit(id, delay, priority, revision));
            } else if (choice < 77) {
                long by = random.nextInt(50) == 0 ? -1 : random.nextInt(4);
                both("advance " + by, () -> scheduler.advance(by, Trace.NONE), () -> model.advance(by));
            } else if (choice < 83) {
                both("peek", scheduler::peek, model::peek);
            } else if (choice < 91) {
                int limit = random.nextInt(30) == 0 ? 0 : 1 + random.nextInt(model.sorted.size() + 3);
                both("firstN " + limit, () -> scheduler.firstN(limit), () -> model.firstN(limit));
            } else {
                String id = target(poolSize);
                both("get " + id, () -> scheduler.get(id), () -> model.get(id));
            }
        }

        /** Grows past 4096 pending timers into the capacity, churns a little, and drains to empty. */
        void burstAndDrain() {
            int refusalsBefore = refusals;
            int acceptable = CAPACITY - model.sorted.size();
            for (int i = 0; i < BURST; i++) {
                String id = "burst-" + i;
                long delay = random.nextInt(40);
                int priority = random.nextInt(3);
                both("burst add " + id, () -> scheduler.add(id, delay, priority, null, Trace.NONE),
                        () -> model.add(id, delay, priority, null));
            }
            assertThat(scheduler.status().size()).isEqualTo(CAPACITY);
            assertThat(refusals - refusalsBefore).as("adds beyond the capacity were refused")
                    .isEqualTo(BURST - acceptable);
            for (int i = 0; i < 200; i++) {
                List<Timer> pending = model.sorted;
                String id = i % 4 == 0 ? pending.get(0).id() : pending.get(random.nextInt(pending.size())).id();
                if (i % 2 == 0) {
                    long delay = random.nextInt(40);
                    both("burst edit " + id, () -> scheduler.edit(id, delay, null, Precondition.NONE, Trace.NONE),
                            () -> model.edit(id, delay, null, null));
                } else {
                    both("burst cancel " + id, () -> scheduler.cancel(id, Precondition.NONE, Trace.NONE),
                            () -> model.cancel(id, null));
                }
            }
            // Cancel some in random order (removals from every depth of a big heap), then fire the rest.
            List<String> ids = new ArrayList<>(model.byId.keySet());
            Collections.sort(ids);
            Collections.shuffle(ids, random);
            for (String id : ids.subList(0, 300)) {
                both("drain cancel " + id, () -> scheduler.cancel(id, Precondition.NONE, Trace.NONE),
                        () -> model.cancel(id, null));
            }
            long by = Limits.MAX_DELAY; // also fires the few far-future timers of the random phase
            both("drain advance", () -> scheduler.advance(by, Trace.NONE), () -> model.advance(by));
            assertThat(scheduler.status().size()).isZero();
            IndexedTimerHeap[] heap = new IndexedTimerHeap[1];
            HeapCorruption.onHeap(scheduler, h -> heap[0] = h); // read-only: captures the heap to look at its arrays
            assertThat(heap[0].records().capacity()).as("handle arrays released after draining").isEqualTo(16);
            assertThat(heap[0].slotCapacity()).as("slot arrays released after draining").isEqualTo(16);
            assertThat(arrayLength(field(heap[0].records(), "index"), "buckets")).as("index released after draining")
                    .isEqualTo(16);
        }
    }

    @ParameterizedTest(name = "seed {0}, arity {1}")
    @MethodSource("seedsAndArities")
    void randomOperations_agreeWithSortedListModel_andKeepInvariants(long seed, int arity) {
        Run run = new Run(seed, arity);

        for (int i = 0; i < 2500; i++) {
            run.randomStep(40);
        }
        if (seed == BURST_SEED && arity == BURST_ARITY) {
            run.burstAndDrain();
        }
        for (int i = 0; i < 1500; i++) {
            run.randomStep(i < 750 ? 12 : 200); // crowded, then sparse
        }

        assertThat(run.fires).as("seed %d arity %d fired timers", seed, arity).isGreaterThan(300);
        assertThat(run.refusals).as("seed %d arity %d refused calls", seed, arity).isGreaterThan(100);
    }
}
