package io.timeservice.store.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.heap.IndexedTimerHeap;

/**
 * Issue 43 item 5 on a loaded machine: {@link DedupeAddBenchmark}'s two clocks (1,000,000 timers fired within the
 * hour; a one-hour dedupe window, so every one of those ids is reserved, and none) in one JVM, their adds measured in
 * the adding thread's CPU time (what the scheduler gave this thread, not the time it waited for a core, which on a
 * machine with a load of 30 on 2 vCPUs is most of JMH's wall-clock figure), in alternating rounds so that both see
 * the same machine. Prints each configuration's median, minimum and maximum CPU and wall nanoseconds per add over
 * the measured rounds, and the ratio of the medians; and the mean (all measured rounds' CPU time over their adds),
 * which counts the id table's growth in full: the heap's id table grows as the adds pile up, and a round that holds
 * a growth step costs several times another, at sizes that differ with and without the million reservations in the
 * table, so the median alone depends on where those steps fall. In the steady state each round's firing is measured
 * too, per timer fired. Arguments: rounds (default 25, the first 5 not
 * counted), adds per round (default 100,000), and {@code nolookups} to skip the lookups measured apart. Run by
 * {@code bench/dedupe-window.sh --cpu}.
 */
public final class DedupeAddCpuTime {

    private static final int WARM_UP_ROUNDS = 5;
    /**
     * {@code -Dsteady=true}: the steady state instead of a pile of pending adds. Each round's adds are due at once and
     * fire after it (not measured) while the clock moves on as far as the million fired before took (3 ms per timer),
     * so the clock holds about as many reservations as before (their oldest expire as fast as new ones come) and
     * next to no pending timers: the id table does not grow during the measured rounds.
     */
    private static final boolean STEADY = Boolean.getBoolean("steady");
    /**
     * {@code -Dscattered=true}: the adds' ids are random-looking (as UUIDs are), not {@code new-0, new-1, ...}, whose
     * {@code String.hashCode}s are consecutive and so fall on neighbouring buckets of a {@code HashMap} (the heap's id
     * table hashes with a keyed SipHash either way, so it sees no such order).
     */
    private static final boolean SCATTERED = Boolean.getBoolean("scattered");

    private static String freshId(long n) {
        return SCATTERED ? "new-" + Long.toHexString(n * 0x9E3779B97F4A7C15L) : "new-" + n;
    }

    private DedupeAddCpuTime() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 25;
        int adds = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        long[] windows = {0, 3_600_000};
        MemoryClock[] clocks = new MemoryClock[windows.length];
        for (int c = 0; c < windows.length; c++) {
            clocks[c] = fireAMillion(windows[c]);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[][] cpu = new long[windows.length][rounds - WARM_UP_ROUNDS];
        long[][] wall = new long[windows.length][rounds - WARM_UP_ROUNDS];
        long[][] fireCpu = new long[windows.length][rounds - WARM_UP_ROUNDS];
        long[][] fireWall = new long[windows.length][rounds - WARM_UP_ROUNDS];
        long next = 0;
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < windows.length; k++) {
                int c = round % 2 == 0 ? k : windows.length - 1 - k; // alternate which goes first
                long cpuBefore = threads.getCurrentThreadCpuTime();
                long wallBefore = System.nanoTime();
                for (int i = 0; i < adds; i++) {
                    clocks[c].add(freshId(next++), STEADY ? 1 : 3_600_000, 0, null, Trace.NONE);
                }
                if (round >= WARM_UP_ROUNDS) {
                    cpu[c][round - WARM_UP_ROUNDS] = threads.getCurrentThreadCpuTime() - cpuBefore;
                    wall[c][round - WARM_UP_ROUNDS] = System.nanoTime() - wallBefore;
                }
                if (STEADY) { // apart: the round's timers fire, and as many of the oldest reservations expire
                    cpuBefore = threads.getCurrentThreadCpuTime();
                    wallBefore = System.nanoTime();
                    clocks[c].advance(3L * adds, Trace.NONE);
                    if (round >= WARM_UP_ROUNDS) {
                        fireCpu[c][round - WARM_UP_ROUNDS] = threads.getCurrentThreadCpuTime() - cpuBefore;
                        fireWall[c][round - WARM_UP_ROUNDS] = System.nanoTime() - wallBefore;
                    }
                }
            }
        }
        double[] medians = new double[windows.length];
        double[] means = new double[windows.length];
        for (int c = 0; c < windows.length; c++) {
            medians[c] = CpuTimeReport.report("window " + windows[c], cpu[c], wall[c], adds, "add", "adds");
            means[c] = Arrays.stream(cpu[c]).sum() / (double) (adds * cpu[c].length);
        }
        System.out.printf("ratio of the CPU medians, window 1 hour / window 0: %.3f%n", medians[1] / medians[0]);
        System.out.printf("CPU ns/add mean: window 0 %.0f, window 1 hour %.0f; ratio of the means: %.3f%n", means[0],
                means[1], means[1] / means[0]);
        if (STEADY) { // what the window costs the firing: each fired id reserved, as many expired
            double[] fires = new double[windows.length];
            for (int c = 0; c < windows.length; c++) {
                fires[c] = CpuTimeReport.report("fire, window " + windows[c], fireCpu[c], fireWall[c], adds, "timer",
                        "timers fired");
            }
            System.out.printf("ratio of the firing's CPU medians, window 1 hour / window 0: %.3f%n",
                    fires[1] / fires[0]);
        }
        if (args.length < 3 || !args[2].equals("nolookups")) {
            lookups(threads, medians[0]);
        }
    }

    /**
     * The window's own part of an add, measured apart: the one probe of the id index that an add makes
     * ({@code IndexedTimerHeap.lookup} of a fresh id) in a heap whose index also holds a million reservations, against
     * the same probe in a heap without them, and for reference a plain {@code HashMap.get} among the million ids
     * (what a second map probed on every add cost); each less a loop that only makes the ids; medians of 9
     * alternating rounds of 1,000,000 lookups, in CPU time.
     */
    private static void lookups(ThreadMXBean threads, double addMedian) {
        PendingBudget budget = new PendingBudget(20_000_000, Long.MAX_VALUE);
        IndexedTimerHeap reserving = new IndexedTimerHeap(4);
        IndexedTimerHeap bare = new IndexedTimerHeap(4);
        Reservations reservations = new Reservations(reserving.reserved(), budget, () -> 3_000_000L);
        reservations.follow(ClockSettings.VIRTUAL.withDedupeWindow(3_600_000));
        Map<String, Boolean> plain = new HashMap<>();
        for (int i = 0; i < 1_000_000; i++) {
            String id = "order-" + i;
            reservations.fired(new Timer(id, 1 + (i * 7919L) % 3_000_000, 0, i + 1, 1, 0, null));
            plain.put(id, Boolean.TRUE);
        }
        int rounds = 9;
        int n = 1_000_000;
        int kinds = 4;
        long[][] cpu = new long[kinds][rounds];
        long next = 0;
        int found = 0;
        for (int round = 0; round < rounds; round++) {
            for (int kind = 0; kind < kinds; kind++) {
                long before = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    String id = "new-" + next++;
                    found += switch (kind) {
                        case 0 -> reserving.lookup(id) == IndexedTimerHeap.NONE ? 0 : 1;
                        case 1 -> bare.lookup(id) == IndexedTimerHeap.NONE ? 0 : 1;
                        case 2 -> plain.get(id) == null ? 0 : 1;
                        default -> id.length() == 0 ? 1 : 0;
                    };
                }
                cpu[kind][round] = threads.getCurrentThreadCpuTime() - before;
            }
        }
        double[] median = new double[kinds];
        for (int kind = 0; kind < kinds; kind++) {
            Arrays.sort(cpu[kind]);
            median[kind] = cpu[kind][rounds / 2] / (double) n;
        }
        double making = median[kinds - 1];
        System.out.printf("lookup of a fresh id, CPU ns beyond making the id (%.0f): the add's probe with 1,000,000"
                        + " reservations in the index %.1f, without %.1f (window's part / the window-0 add median:"
                        + " %.3f); plain HashMap.get among the million %.1f (%d found)%n", making,
                median[0] - making, median[1] - making, (median[0] - median[1]) / addMedian, median[2] - making,
                found);
    }

    private static MemoryClock fireAMillion(long window) {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 20_000_000, Long.MAX_VALUE, 10);
        MemoryClock clock = clocks.create("c", 0, ClockSettings.VIRTUAL.withDedupeWindow(window)).clock()
                .scheduler();
        for (int i = 0; i < 1_000_000; i++) {
            clock.add("order-" + i, 1 + (i * 7919L) % 3_000_000, 0, null, Trace.NONE);
        }
        clock.advance(3_000_000L, Trace.NONE);
        System.out.printf("window %d: %d reserved%n", window, clock.reservations().size());
        return clock;
    }
}
