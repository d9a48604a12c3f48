package io.timeservice.store.memory.heap;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

/**
 * Our {@link IndexedTimerHeap} (arity 2, 4, 8) against the JDK-collection designs in {@link TimerQueues}, on the
 * operations of the service, with n timers pending. Every score is nanoseconds per single operation (per fired
 * timer for {@code fire}, per listing for {@code first100}).
 *
 * <p>Run (136 trials, about 26 minutes on a quiet 2-vCPU machine, longer on a busy one):
 * <pre>
 * ./mvnw -Pjmh test-compile exec:exec@jmh \
 *   -Djmh.args="TimerQueueBenchmark -f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc -rf json -rff target/jmh-result.json"
 * </pre>
 * Add {@code -p config=heap4:1000000,treeMap:1000000} to run a subset, {@code -p freshIds=true} to name add, cancel and
 * edit targets by fresh String copies, as the service does.
 *
 * <p>The queue. {@code config} is {@code design:n}; the O(n)-per-operation designs ({@code pqRemove},
 * {@code sortedArray}) are listed at n = 10,000 only. Each trial fills the queue with n timers: ids of 8 to 16
 * characters (unique 8-character prefix, random tail), fireTime = now + a random delay below one hour
 * (3,600,000 ms, half of them rounded to whole seconds, so many fireTimes are equal), priority 0..3. The same seed
 * gives every design the same timers. 2n ids are made up front; the n not pending wait in a FIFO, so an id comes
 * back only after about n others (its index entry is as cold as a new id's would be).
 *
 * <p>Steady state. The single-kind benchmarks run batches of {@value #BATCH} operations per invocation (scored per
 * operation) and undo each batch outside the timed region, in {@code @TearDown(Level.Invocation)}, so the queue
 * size stays between n and n + {@value #BATCH}:
 * <ul>
 *   <li>{@code add}: adds {@value #BATCH} new timers (new ids from the FIFO, random fireTimes); the undo cancels
 *       them.</li>
 *   <li>{@code cancel}: cancels {@value #BATCH} pending timers picked uniformly at random (picked in an untimed
 *       {@code @Setup(Level.Invocation)}); the undo adds as many new ones.</li>
 *   <li>{@code editEarlier} / {@code editLater}: moves {@value #BATCH} random pending timers to a random fireTime
 *       between now and the old one / between the old one and the end of the hour (priority kept); the undo moves
 *       them back.</li>
 *   <li>{@code fire}: fires the next {@value #BATCH} timers in one {@code drain} (for the heap its bulk pop, as an
 *       advance fires; {@code pollDue} in a loop for the other designs); the undo advances the virtual clock
 *       to the next deadline and adds as many timers, due within the hour from there.</li>
 *   <li>{@code peek}: the next timer's id. {@code first100}: the ids of the first 100 timers in firing order.</li>
 *   <li>{@code mixed}: {@value #MIX} operations per invocation, shuffled once: 50% add, 20% cancel, 20% edit (new
 *       random fireTime within the hour, either direction), 10% advance, each advance firing the next 3 timers
 *       (one {@code drain}) and moving the clock to the next deadline, so the size returns to exactly n after every invocation. The
 *       cancel and edit targets come from a sample of up to 65,536 pending timers (n/2 when smaller), refreshed
 *       at random by the adds; that bookkeeping runs in the timed region, the same for every design.</li>
 * </ul>
 * Note for {@code pqTombstones}: the undo of cancel and edit also leaves tombstones, so part of its sweep cost is
 * paid outside the timed region, which flatters that design slightly.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class TimerQueueBenchmark {

    static final int BATCH = 1000;
    static final int MIX = 6400;
    static final long HOUR = 3_600_000L;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A queue of n pending timers and the ids not pending. */
    @State(Scope.Thread)
    public abstract static class Pending {

        @Param({
                "heap2:10000", "heap4:10000", "heap8:10000", "treeMap:10000", "pqTombstones:10000",
                "pqRemove:10000", "sortedArray:10000",
                "heap2:100000", "heap4:100000", "heap8:100000", "treeMap:100000", "pqTombstones:100000",
                "heap2:1000000", "heap4:1000000", "heap8:1000000", "treeMap:1000000", "pqTombstones:1000000"})
        public String config;

        /**
         * {@code true}: add, cancel and edit name their timers by fresh String copies made in the untimed setup, as
         * the service gets ids parsed from requests (in cache, hash not yet computed, not identical to the stored id);
         * {@code false} (default): by the very String instances inserted, pre-made and cold, hash cached.
         */
        @Param({"false"})
        public boolean freshIds;

        TimerQueueUnderTest queue;
        int n;
        long now;
        final Rng rng = new Rng(42);

        /** The pending timers in random order with their keys; kept up to date by the benchmarks that use it. */
        String[] pending;
        long[] pendingTimes;
        int[] pendingPriorities;

        /** FIFO ring of ids not pending. */
        private String[] free;
        private int freeHead;
        private int freeTail;

        @Setup(Level.Trial)
        public void fill() {
            String[] parts = config.split(":");
            queue = TimerQueues.create(parts[0]);
            n = Integer.parseInt(parts[1]);
            String[] ids = makeIds(2 * n, rng);
            pending = new String[n];
            pendingTimes = new long[n];
            pendingPriorities = new int[n];
            for (int i = 0; i < n; i++) {
                pending[i] = ids[i];
                pendingTimes[i] = now + delay();
                pendingPriorities[i] = priority();
                if (!queue.add(pending[i], pendingTimes[i], pendingPriorities[i])) {
                    throw new IllegalStateException("duplicate id " + pending[i]);
                }
            }
            free = new String[Integer.highestOneBit(2 * n - 1) << 1];
            for (int i = n; i < 2 * n; i++) {
                giveFree(ids[i]);
            }
            afterFill();
            System.gc();
        }

        /** Runs at the end of the trial setup; JMH does not promise an order among a class tree's setups. */
        void afterFill() {
        }

        private long iterationWall;
        private long iterationCpu;
        private int iteration;

        @Setup(Level.Iteration)
        public void startIteration() {
            iterationWall = System.nanoTime();
            iterationCpu = THREADS.getCurrentThreadCpuTime();
        }

        /**
         * Appends this iteration's CPU share (thread CPU time / wall time, setup and undo included) to
         * {@code target/jmh-cpu-share.csv}: on a machine shared with other work, wall-clock scores are inflated by
         * the time the benchmark thread waited for a core, and this says by how much.
         */
        @TearDown(Level.Iteration)
        public void endIteration(BenchmarkParams benchmark, IterationParams params) throws IOException {
            long wall = System.nanoTime() - iterationWall;
            long cpu = THREADS.getCurrentThreadCpuTime() - iterationCpu;
            String method = benchmark.getBenchmark().substring(benchmark.getBenchmark().lastIndexOf('.') + 1);
            String line = method + "," + config + "," + params.getType() + "," + (++iteration) + "," + wall + ","
                    + cpu + "," + String.format("%.3f", (double) cpu / wall) + System.lineSeparator();
            Files.writeString(Path.of("target", "jmh-cpu-share.csv"), line, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }

        @TearDown(Level.Trial)
        public void checkSize() {
            if (queue.size() != n) {
                throw new IllegalStateException(config + ": size drifted to " + queue.size());
            }
        }

        final String takeFree() {
            String id = free[freeHead];
            free[freeHead] = null;
            freeHead = (freeHead + 1) & (free.length - 1);
            return id;
        }

        final void giveFree(String id) {
            free[freeTail] = id;
            freeTail = (freeTail + 1) & (free.length - 1);
        }

        final long delay() {
            int ms = rng.nextInt((int) HOUR);
            return rng.nextInt(2) == 0 ? ms : ms - ms % 1000;
        }

        final int priority() {
            return rng.nextInt(4);
        }

        /** Moves {@code count} pending timers picked uniformly at random to the front of {@link #pending}. */
        final void pickVictims(int count) {
            for (int j = 0; j < count; j++) {
                int r = j + rng.nextInt(n - j);
                String id = pending[j];
                pending[j] = pending[r];
                pending[r] = id;
                long time = pendingTimes[j];
                pendingTimes[j] = pendingTimes[r];
                pendingTimes[r] = time;
                int priority = pendingPriorities[j];
                pendingPriorities[j] = pendingPriorities[r];
                pendingPriorities[r] = priority;
                if (freshIds) {
                    pending[j] = new String(pending[j].toCharArray());
                }
            }
        }
    }

    public static class AddState extends Pending {
        final String[] ids = new String[BATCH];
        final long[] times = new long[BATCH];
        final int[] priorities = new int[BATCH];

        @Setup(Level.Invocation)
        public void prepare() {
            for (int i = 0; i < BATCH; i++) {
                ids[i] = freshIds ? new String(takeFree().toCharArray()) : takeFree();
                times[i] = now + delay();
                priorities[i] = priority();
            }
        }

        @TearDown(Level.Invocation)
        public void undo() {
            for (int i = 0; i < BATCH; i++) {
                if (!queue.cancel(ids[i])) {
                    throw new IllegalStateException("not added: " + ids[i]);
                }
                giveFree(ids[i]);
            }
        }
    }

    public static class CancelState extends Pending {
        @Setup(Level.Invocation)
        public void prepare() {
            pickVictims(BATCH);
        }

        @TearDown(Level.Invocation)
        public void undo() {
            for (int j = 0; j < BATCH; j++) {
                giveFree(pending[j]);
                pending[j] = takeFree();
                pendingTimes[j] = now + delay();
                pendingPriorities[j] = priority();
                if (!queue.add(pending[j], pendingTimes[j], pendingPriorities[j])) {
                    throw new IllegalStateException("refused: " + pending[j]);
                }
            }
        }
    }

    public abstract static class EditState extends Pending {
        final long[] newTimes = new long[BATCH];

        abstract boolean later();

        @Setup(Level.Invocation)
        public void prepare() {
            pickVictims(BATCH);
            for (int j = 0; j < BATCH; j++) {
                long old = pendingTimes[j];
                long end = now + HOUR;
                newTimes[j] = later()
                        ? old + 1 + rng.nextLong(end - old)
                        : old == now ? old : now + rng.nextLong(old - now);
            }
        }

        @TearDown(Level.Invocation)
        public void undo() {
            for (int j = 0; j < BATCH; j++) {
                queue.edit(pending[j], pendingTimes[j], pendingPriorities[j]);
            }
        }
    }

    public static class EditEarlierState extends EditState {
        @Override
        boolean later() {
            return false;
        }
    }

    public static class EditLaterState extends EditState {
        @Override
        boolean later() {
            return true;
        }
    }

    public static class FireState extends Pending {
        final String[] fired = new String[BATCH];

        @TearDown(Level.Invocation)
        public void undo() {
            now = queue.nextFireTime();
            for (int i = 0; i < BATCH; i++) {
                giveFree(fired[i]);
            }
            for (int i = 0; i < BATCH; i++) {
                queue.add(takeFree(), now + delay(), priority());
            }
        }
    }

    public static class ReadState extends Pending {
    }

    public static class MixedState extends Pending {
        static final byte ADD = 0;
        static final byte CANCEL = 1;
        static final byte EDIT = 2;
        static final byte ADVANCE = 3;
        static final int FIRED_PER_ADVANCE = 3;

        final byte[] script = new byte[MIX];
        final String[] fired = new String[FIRED_PER_ADVANCE];
        String[] sample;
        long[] sampleTimes;
        int[] samplePriorities;
        int sampled;

        @Override
        void afterFill() {
            for (int i = 0; i < MIX; i++) {
                int percent = i % 100;
                script[i] = percent < 50 ? ADD : percent < 70 ? CANCEL : percent < 90 ? EDIT : ADVANCE;
            }
            for (int i = MIX - 1; i > 0; i--) {
                int r = rng.nextInt(i + 1);
                byte op = script[i];
                script[i] = script[r];
                script[r] = op;
            }
            int capacity = Math.min(65_536, n / 2);
            sample = new String[capacity];
            sampleTimes = new long[capacity];
            samplePriorities = new int[capacity];
            for (sampled = 0; sampled < capacity; sampled++) {
                sample[sampled] = pending[sampled];
                sampleTimes[sampled] = pendingTimes[sampled];
                samplePriorities[sampled] = pendingPriorities[sampled];
            }
            pending = null; // not kept up to date here
        }

        /** A sampled timer that is surely pending (fireTime after now), or -1. Forgets those that may have fired. */
        int pickPending() {
            while (sampled > 0) {
                int c = rng.nextInt(sampled);
                if (sampleTimes[c] > now) {
                    return c;
                }
                forget(c);
            }
            return -1;
        }

        void forget(int c) {
            sampled--;
            sample[c] = sample[sampled];
            sampleTimes[c] = sampleTimes[sampled];
            samplePriorities[c] = samplePriorities[sampled];
            sample[sampled] = null;
        }

        void remember(String id, long time, int priority) {
            int c = sampled < sample.length ? sampled++ : rng.nextInt(sample.length);
            sample[c] = id;
            sampleTimes[c] = time;
            samplePriorities[c] = priority;
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int add(AddState s) {
        TimerQueueUnderTest queue = s.queue;
        int added = 0;
        for (int i = 0; i < BATCH; i++) {
            added += queue.add(s.ids[i], s.times[i], s.priorities[i]) ? 1 : 0;
        }
        return added;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int cancel(CancelState s) {
        TimerQueueUnderTest queue = s.queue;
        String[] victims = s.pending;
        int cancelled = 0;
        for (int j = 0; j < BATCH; j++) {
            cancelled += queue.cancel(victims[j]) ? 1 : 0;
        }
        return cancelled;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int editEarlier(EditEarlierState s) {
        return edit(s);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int editLater(EditLaterState s) {
        return edit(s);
    }

    private static int edit(EditState s) {
        TimerQueueUnderTest queue = s.queue;
        String[] victims = s.pending;
        long[] times = s.newTimes;
        int[] priorities = s.pendingPriorities;
        int edited = 0;
        for (int j = 0; j < BATCH; j++) {
            edited += queue.edit(victims[j], times[j], priorities[j]) ? 1 : 0;
        }
        return edited;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public String[] fire(FireState s) {
        String[] fired = s.fired;
        if (s.queue.drain(Long.MAX_VALUE, fired) != BATCH) {
            throw new IllegalStateException("fired fewer than " + BATCH);
        }
        return fired;
    }

    @Benchmark
    public String peek(ReadState s) {
        return s.queue.peek();
    }

    @Benchmark
    public String[] first100(ReadState s) {
        return s.queue.firstN(100);
    }

    @Benchmark
    @OperationsPerInvocation(MIX)
    public int mixed(MixedState s) {
        TimerQueueUnderTest queue = s.queue;
        byte[] script = s.script;
        int done = 0;
        for (int i = 0; i < MIX; i++) {
            switch (script[i]) {
                case MixedState.ADD -> {
                    String id = s.takeFree();
                    long time = s.now + s.delay();
                    int priority = s.priority();
                    done += queue.add(id, time, priority) ? 1 : 0;
                    s.remember(id, time, priority);
                }
                case MixedState.CANCEL -> {
                    int c = s.pickPending();
                    String id = s.sample[c];
                    s.forget(c);
                    done += queue.cancel(id) ? 1 : 0;
                    s.giveFree(id);
                }
                case MixedState.EDIT -> {
                    int c = s.pickPending();
                    long time = s.now + s.delay();
                    s.sampleTimes[c] = time;
                    done += queue.edit(s.sample[c], time, s.samplePriorities[c]) ? 1 : 0;
                }
                default -> {
                    queue.drain(Long.MAX_VALUE, s.fired);
                    for (String id : s.fired) {
                        s.giveFree(id);
                    }
                    s.now = queue.nextFireTime();
                    done++;
                }
            }
        }
        return done;
    }

    /** Makes {@code count} distinct ids of 8 to 16 characters from the service's id alphabet. */
    static String[] makeIds(int count, Rng rng) {
        final String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        String[] ids = new String[count];
        char[] chars = new char[16];
        for (int i = 0; i < count; i++) {
            // An odd multiplier permutes 48-bit values, so the first 8 characters (6 bits each) are unique.
            long unique = (i * 0x9E37_79B9_7F4BL) & 0xFFFF_FFFF_FFFFL;
            for (int c = 0; c < 8; c++) {
                chars[c] = alphabet.charAt((int) (unique >>> (6 * c)) & 63);
            }
            int length = 8 + rng.nextInt(9);
            for (int c = 8; c < length; c++) {
                chars[c] = alphabet.charAt(rng.nextInt(64));
            }
            ids[i] = new String(chars, 0, length);
        }
        return ids;
    }

    /** xorshift64*: cheap enough to call inside a timed loop, seeded so every design sees the same numbers. */
    static final class Rng {
        private long state;

        Rng(long seed) {
            state = seed * 0x9E37_79B9_7F4A_7C15L | 1;
        }

        long next() {
            state ^= state >>> 12;
            state ^= state << 25;
            state ^= state >>> 27;
            return state * 0x2545_F491_4F6C_DD1DL;
        }

        int nextInt(int bound) {
            return (int) (((next() >>> 32) * bound) >>> 32);
        }

        long nextLong(long bound) {
            return Math.floorMod(next(), bound);
        }
    }
}
