package io.timeservice.store.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Trace;

/**
 * Issue 43 item 5 on a loaded machine: {@link DedupeAddBenchmark}'s two clocks (1,000,000 timers fired within the
 * hour; a one-hour dedupe window, so every one of those ids is reserved, and none) in one JVM, their adds measured in
 * the adding thread's CPU time (what the scheduler gave this thread, not the time it waited for a core, which on a
 * machine with a load of 30 on 2 vCPUs is most of JMH's wall-clock figure), in alternating rounds so that both see
 * the same machine. Prints each configuration's median, minimum and maximum CPU and wall nanoseconds per add over
 * the measured rounds, and the ratio of the medians. Arguments: rounds (default 25, the first 5 not counted) and
 * adds per round (default 100,000). Run by {@code bench/dedupe-window.sh --cpu}.
 */
public final class DedupeAddCpuTime {

    private static final int WARM_UP_ROUNDS = 5;

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
        long next = 0;
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < windows.length; k++) {
                int c = round % 2 == 0 ? k : windows.length - 1 - k; // alternate which goes first
                long cpuBefore = threads.getCurrentThreadCpuTime();
                long wallBefore = System.nanoTime();
                for (int i = 0; i < adds; i++) {
                    clocks[c].add("new-" + next++, 3_600_000, 0, null, Trace.NONE);
                }
                if (round >= WARM_UP_ROUNDS) {
                    cpu[c][round - WARM_UP_ROUNDS] = threads.getCurrentThreadCpuTime() - cpuBefore;
                    wall[c][round - WARM_UP_ROUNDS] = System.nanoTime() - wallBefore;
                }
            }
        }
        double[] medians = new double[windows.length];
        for (int c = 0; c < windows.length; c++) {
            medians[c] = CpuTimeReport.report("window " + windows[c], cpu[c], wall[c], adds, "add", "adds");
        }
        System.out.printf("ratio of the CPU medians, window 1 hour / window 0: %.3f%n", medians[1] / medians[0]);
        lookups(threads, medians[0]);
    }

    /**
     * The window's own part of an add, measured apart: a million reservations' lookup of fresh ids
     * ({@link Reservations#find}, the check every add on such a clock makes) against the same lookups in a plain
     * {@code HashMap} of the same ids, each less a loop that only makes the ids; medians of 9 alternating rounds of
     * 1,000,000 lookups, in CPU time.
     */
    private static void lookups(ThreadMXBean threads, double addMedian) {
        PendingBudget budget = new PendingBudget(20_000_000, Long.MAX_VALUE);
        Reservations reservations = new Reservations(budget, () -> 3_000_000L);
        reservations.follow(ClockSettings.VIRTUAL.withDedupeWindow(3_600_000));
        java.util.Map<String, Boolean> plain = new java.util.HashMap<>();
        for (int i = 0; i < 1_000_000; i++) {
            String id = "order-" + i;
            reservations.fired(new io.timeservice.model.Timer(id, 1 + (i * 7919L) % 3_000_000, 0, i + 1, 1, 0, null));
            plain.put(id, Boolean.TRUE);
        }
        int rounds = 9;
        int n = 1_000_000;
        long[][] cpu = new long[3][rounds];
        long next = 0;
        int found = 0;
        for (int round = 0; round < rounds; round++) {
            for (int kind = 0; kind < 3; kind++) {
                long before = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    String id = "new-" + next++;
                    if (kind == 0) {
                        found += reservations.find(id, 3_000_000L) == null ? 0 : 1;
                    } else if (kind == 1) {
                        found += plain.get(id) == null ? 0 : 1;
                    } else {
                        found += id.length() == 0 ? 1 : 0;
                    }
                }
                cpu[kind][round] = threads.getCurrentThreadCpuTime() - before;
            }
        }
        double[] median = new double[3];
        for (int kind = 0; kind < 3; kind++) {
            Arrays.sort(cpu[kind]);
            median[kind] = cpu[kind][rounds / 2] / (double) n;
        }
        System.out.printf("lookup of a fresh id among 1,000,000 reservations, CPU ns beyond making the id (%.0f):"
                        + " Reservations.find %.1f, plain HashMap.get %.1f; find / the window-0 add median: %.3f"
                        + " (%d found)%n", median[2], median[0] - median[2], median[1] - median[2],
                (median[0] - median[2]) / addMedian, found);
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
