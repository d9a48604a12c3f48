package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.time.FiringLoop;

/**
 * The firing thread's cost at {@code n} pending timers (issue 16), on one system clock whose wall clock the
 * measurement moves by hand (so nothing fires unless it says so), without metrics or journal. Run after
 * {@code ./mvnw -B -ntp -Pjmh test-compile}:
 * <pre>
 * java -Xms3g -Xmx3g -cp target/classes:target/test-classes io.timeservice.store.memory.FiringCostMeasurement 1000000
 * </pre>
 * <ul>
 * <li>fire: the wall clock jumps to the k-th earliest pending timer's due time, and one {@link FiringLoop#fireDue}
 *     (what the firing thread runs per wake-up) fires the due timers into the ready queue; ns per fired timer, for
 *     rounds of about 1, 100 and 10,000 due timers. Between rounds, not timed: as many new timers as fired are
 *     added (n stays), and the ready queue is claimed and acknowledged empty.</li>
 * <li>add: blocks of 1,000 adds, ns per add. {@code far}: due among the pending timers, not the earliest (the
 *     firing thread is not told). {@code earliest}: each add is due before every pending timer, so it moves the
 *     clock's wake-up and tells the firing loop ({@link FiringLoop#wakeAt}); {@code earliest-no-loop}: the same
 *     heap work on a clock no firing loop serves (its wake-ups go nowhere); {@code earliest-live-thread}: the
 *     firing thread runs and waits, so each add's signal wakes it. Between blocks, not timed: the block's timers
 *     are cancelled, and a firing round on a wall clock moved past them resets the wake-up the loop was told.</li>
 * </ul>
 * Prints one RESULT line per case: median, 10th and 90th percentile and min-max over rounds or blocks, after
 * discarding the first fifth as warm-up.
 */
public final class FiringCostMeasurement {

    /** Pending timers are due 1..SPREAD ms ahead: about one per ms at n = 1,000,000. */
    private static final long SPREAD = 1_000_000;
    /** In the add cases the pending timers are due this far ahead, so a wall clock moved by {@link #STEP} per block
     *  never makes them due. */
    private static final long FAR = 1_000_000_000_000_000L / 10;
    private static final long STEP = 1_000_000_000L;
    private static final int BLOCK = 1_000;
    private static final ClockSettings SYSTEM_QUEUE = new ClockSettings(ClockSettings.Mode.SYSTEM,
            ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT);

    private FiringCostMeasurement() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("pending=%d java=%s cpus=%d%n", n, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        for (int[] sizeAndRounds : new int[][] {{1, 20_000}, {100, 3_000}, {10_000, 60}}) {
            fire(n, sizeAndRounds[0], sizeAndRounds[1]);
        }
        adds(n, 300);
    }

    /** A system clock on a hand-moved wall clock, served by a firing loop when {@code served}. */
    private static final class Bench {
        final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
        final FiringLoop loop = new FiringLoop(wall::get, 1_000, 10_000);
        final MemoryClock clock;
        final SplittableRandom random = new SplittableRandom(16);
        private long nextId;

        Bench(int n, boolean served) {
            PendingBudget budget = new PendingBudget(n + 2 * BLOCK + 20_000, Long.MAX_VALUE);
            budget.limitDeliveries(n);
            ClockRegistry clocks = new ClockRegistry((c, shared) -> new MemoryClock(c, 4, shared, wall::get,
                    StoreMetrics.NONE), budget, 10, wall::get);
            if (served) {
                clocks.fireWith(loop);
            }
            clock = clocks.create("bench", 0, SYSTEM_QUEUE).clock().scheduler();
        }

        String add(long delay) {
            String id = "t" + nextId++;
            clock.add(id, delay, 0, null, Trace.NONE);
            return id;
        }

        /** Claims and acknowledges every ready delivery. */
        void drainReady() {
            for (List<Delivery> claimed = clock.claim(Limits.MAX_CLAIM, 60_000, 0); !claimed.isEmpty();
                 claimed = clock.claim(Limits.MAX_CLAIM, 60_000, 0)) {
                for (Delivery delivery : claimed) {
                    clock.ack(delivery.id(), delivery.claim());
                }
            }
        }
    }

    private static void fire(int n, int dueSize, int rounds) {
        Bench bench = new Bench(n, true);
        for (int i = 0; i < n; i++) {
            bench.add(1 + bench.random.nextLong(SPREAD));
        }
        bench.loop.fireDue(); // takes the wake-up the clock told on its first add
        double[] nsPerTimer = new double[rounds];
        long fired = 0;
        for (int round = 0; round < rounds; round++) {
            List<Timer> next = bench.clock.firstN(dueSize).timers();
            bench.wall.set(Math.max(bench.wall.get(), next.get(next.size() - 1).fireTime()));
            long start = System.nanoTime();
            int count = bench.loop.fireDue();
            long nanos = System.nanoTime() - start;
            if (count < 1) {
                throw new IllegalStateException("nothing fired in round " + round);
            }
            nsPerTimer[round] = (double) nanos / count;
            fired += count;
            for (int i = 0; i < count; i++) {
                bench.add(1 + bench.random.nextLong(SPREAD));
            }
            bench.drainReady();
        }
        report("fire", "due~" + dueSize, nsPerTimer, "ns per fired timer",
                String.format("fired=%d pending=%d", fired, bench.clock.status().size()));
    }

    private static void adds(int n, int blocks) throws InterruptedException {
        Bench served = new Bench(n, true);
        Bench unserved = new Bench(n, false);
        for (Bench bench : List.of(served, unserved)) {
            for (int i = 0; i < n; i++) {
                bench.add(FAR + bench.random.nextLong(SPREAD));
            }
            bench.loop.fireDue();
        }
        double[] far = new double[blocks];
        double[] earliest = new double[blocks];
        double[] earliestNoLoop = new double[blocks];
        for (int block = 0; block < blocks; block++) {
            far[block] = timeBlock(served, false);
            earliest[block] = timeBlock(served, true);
            earliestNoLoop[block] = timeBlock(unserved, true);
        }
        served.loop.start(); // from here on, each wake-up an add moves also wakes the waiting thread
        double[] farLive = new double[blocks];
        double[] earliestLive = new double[blocks];
        for (int block = 0; block < blocks; block++) {
            farLive[block] = timeBlock(served, false);
            earliestLive[block] = timeBlock(served, true);
        }
        served.loop.stop();
        String size = "pending=" + served.clock.status().size();
        report("add", "far", far, "ns per add", size);
        report("add", "earliest", earliest, "ns per add", size);
        report("add", "earliest-no-loop", earliestNoLoop, "ns per add", size);
        report("add", "far-live-thread", farLive, "ns per add", size);
        report("add", "earliest-live-thread", earliestLive, "ns per add", size);
    }

    /** Times one block of adds (each due before every pending timer when {@code earliest}); ns per add. */
    private static double timeBlock(Bench bench, boolean earliest) {
        long[] delays = new long[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            delays[i] = earliest ? STEP / 2 - i : FAR + bench.random.nextLong(SPREAD);
        }
        List<String> ids = new ArrayList<>(BLOCK);
        long start = System.nanoTime();
        for (int i = 0; i < BLOCK; i++) {
            ids.add(bench.add(delays[i]));
        }
        long nanos = System.nanoTime() - start;
        for (String id : ids) {
            bench.clock.cancel(id, Precondition.NONE, Trace.NONE);
        }
        bench.wall.addAndGet(STEP); // past the cancelled block's wake-up: the round resets what the loop was told
        bench.loop.fireDue();
        return (double) nanos / BLOCK;
    }

    private static void report(String what, String variant, double[] samples, String unit, String note) {
        double[] kept = Arrays.copyOfRange(samples, samples.length / 5, samples.length);
        Arrays.sort(kept);
        System.out.printf("RESULT %s %s %s: median %.0f p10 %.0f p90 %.0f min %.0f max %.0f (%d samples) %s%n",
                what, variant, unit, at(kept, 0.5), at(kept, 0.1), at(kept, 0.9), kept[0], kept[kept.length - 1],
                kept.length, note);
    }

    private static double at(double[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))];
    }
}
