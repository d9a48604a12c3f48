package io.timeservice.store.memory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.Trace;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.journal.FsyncPolicy;
import io.timeservice.store.memory.journal.JournalStore;

/**
 * Issue 43 item 5 through the memory store's real add path, as the service runs it: {@link TimerStore#add} of a
 * {@link MemoryTimerStore} whose clocks are journaled with the service's defaults ({@code fsync=always}, group
 * commit, snapshots every 4× and 16 MB), adds made by {@code threads} threads at once (as Tomcat's workers make them,
 * so they share fsyncs). Two clocks, {@code w0} without a window and {@code w1} with one hour, each fired 1,000,000
 * timers within the hour (added in batches of 1,000, then one advance). Rounds alternate between the clocks; each
 * round's cost is the process's CPU time (every thread: the adders, the journal's writer, the collector, the
 * compiler) and, apart, the adding threads' own, per add, with the wall time beside. {@code -Dsteady=true} as in
 * {@link DedupeAddCpuTime}: each round's adds are due at once and fire after it (not measured) as the clock moves 3 ms
 * per add, so about 1,100,000 ids stay reserved and next to nothing is pending. Arguments: rounds (default 25, the
 * first 5 not counted), adds per round (default 20,000), threads (default 32). Run by
 * {@code bench/dedupe-window.sh --store}.
 */
public final class DedupeStoreAddCpuTime {

    private static final int WARM_UP_ROUNDS = 5;
    private static final int FIRED = 1_000_000;
    private static final int BATCH = 1_000;

    private DedupeStoreAddCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 25;
        int adds = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int threadCount = args.length > 2 ? Integer.parseInt(args[2]) : 32;
        boolean steady = Boolean.getBoolean("steady");
        Path dir = Files.createTempDirectory("dedupe-store-add");
        ClockRegistry registry = ClockRegistry.withVirtualClocks(4, 20_000_000, Long.MAX_VALUE, 10);
        try (JournalStore journal = JournalStore.open(dir, registry, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 4,
                16L << 20, 32L << 20, 64L << 20)) {
            TimerStore store = new MemoryTimerStore(registry);
            String[] clocks = {"w0", "w1"};
            long[] windows = {0, 3_600_000};
            for (int c = 0; c < clocks.length; c++) {
                registry.create(clocks[c], 0, ClockSettings.VIRTUAL.withDedupeWindow(windows[c]));
                fireAMillion(store, clocks[c]);
                System.out.printf("%s (window %d): %d reserved, journaled in %s%n", clocks[c], windows[c],
                        registry.scheduler(clocks[c]).reservations().size(), dir);
            }
            Adders adders = new Adders(store, threadCount);
            long[][] process = new long[clocks.length][rounds - WARM_UP_ROUNDS];
            long[][] adding = new long[clocks.length][rounds - WARM_UP_ROUNDS];
            long[][] wall = new long[clocks.length][rounds - WARM_UP_ROUNDS];
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < clocks.length; k++) {
                    int c = round % 2 == 0 ? k : clocks.length - 1 - k; // alternate which goes first
                    long[] spent = adders.round(clocks[c], adds, steady ? 1 : 3_600_000);
                    if (round >= WARM_UP_ROUNDS) {
                        process[c][round - WARM_UP_ROUNDS] = spent[0];
                        adding[c][round - WARM_UP_ROUNDS] = spent[1];
                        wall[c][round - WARM_UP_ROUNDS] = spent[2];
                    }
                    if (steady) { // not measured: the round's timers fire, as many old reservations expire
                        store.advance(clocks[c], 3L * adds, null, Integer.MAX_VALUE, Trace.NONE);
                    }
                }
            }
            adders.stop();
            double[] perProcess = new double[clocks.length];
            double[] perAdder = new double[clocks.length];
            for (int c = 0; c < clocks.length; c++) {
                perProcess[c] = CpuTimeReport.report("store add, window " + windows[c] + ", process", process[c],
                        wall[c], adds, "add", "adds");
                perAdder[c] = CpuTimeReport.report("store add, window " + windows[c] + ", adding threads",
                        adding[c], wall[c], adds, "add", "adds");
            }
            System.out.printf("ratio of the CPU medians, window 1 hour / window 0: process %.3f, adding threads %.3f"
                    + " (%s, %d threads)%n", perProcess[1] / perProcess[0], perAdder[1] / perAdder[0],
                    steady ? "steady state" : "as defined", threadCount);
        }
    }

    /** Adds 1,000,000 timers to {@code clock} in batches (one fsync each) and fires them all within the hour. */
    private static void fireAMillion(TimerStore store, String clock) {
        for (int from = 0; from < FIRED; from += BATCH) {
            List<BatchOp> ops = new ArrayList<>(BATCH);
            for (int i = from; i < from + BATCH; i++) {
                ops.add(new BatchOp.Add("order-" + i, 1 + (i * 7919L) % 3_000_000, 0, null));
            }
            store.batchOutcomes(clock, ops);
        }
        store.advance(clock, null, 3_000_000L, Integer.MAX_VALUE, Trace.NONE);
    }

    /** A fixed set of threads that make one round's adds together; ids are fresh across rounds and clocks. */
    private static final class Adders {

        private final TimerStore store;
        private final Thread[] threads;
        private final CyclicBarrier start;
        private final CyclicBarrier done;
        private final AtomicLong nextId = new AtomicLong();
        private final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private volatile String clock;
        private volatile long delay;
        private volatile long end;
        private volatile boolean stopped;

        Adders(TimerStore store, int count) {
            this.store = store;
            threads = new Thread[count];
            start = new CyclicBarrier(count + 1);
            done = new CyclicBarrier(count + 1);
            for (int t = 0; t < count; t++) {
                threads[t] = new Thread(this::work, "adder-" + t);
                threads[t].setDaemon(true);
                threads[t].start();
            }
        }

        private void work() {
            try {
                while (true) {
                    start.await();
                    if (stopped) {
                        return;
                    }
                    for (long n = nextId.getAndIncrement(); n < end; n = nextId.getAndIncrement()) {
                        store.add(clock, "new-" + n, Due.after(delay), 0, null, null, null, Trace.NONE);
                    }
                    done.await();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        /** One round of {@code adds}: process CPU, adding threads' CPU and wall nanoseconds. */
        long[] round(String clock, int adds, long delay) throws Exception {
            this.clock = clock;
            this.delay = delay;
            end = nextId.get() + adds;
            long threadsBefore = threadsCpu();
            long processBefore = os.getProcessCpuTime();
            long wallBefore = System.nanoTime();
            start.await();
            done.await();
            long wall = System.nanoTime() - wallBefore;
            long process = os.getProcessCpuTime() - processBefore;
            return new long[] {process, threadsCpu() - threadsBefore, wall};
        }

        private long threadsCpu() {
            long sum = 0;
            for (Thread thread : threads) {
                sum += cpu.getThreadCpuTime(thread.getId());
            }
            return sum;
        }

        void stop() throws Exception {
            stopped = true;
            start.await();
        }
    }
}
