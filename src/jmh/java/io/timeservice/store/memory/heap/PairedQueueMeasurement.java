package io.timeservice.store.memory.heap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Paired A/B of queue designs for a machine too busy for separate JMH trials: every design holds the same n timers in
 * one JVM, and each round times one batch of {@value #BATCH} operations of a kind on every design back to back
 * (rotating which goes first), with the same arguments, then undoes it untimed. Other work on the machine slows
 * designs that ran milliseconds apart alike, so the ratio of each round's pair is far steadier than two separate
 * trials; the median of those ratios is the result. Not JMH (no blackholes: each batch's answers are summed and
 * printed), so read the ratios, and the absolute figures only beside a JMH run.
 *
 * <pre>
 * java -Xms3g -Xmx3g -cp ... io.timeservice.store.memory.heap.PairedQueueMeasurement 1000000 60 heap4,heap8,treeMap
 * </pre>
 * The issue 20 runs also compared benchmark-only copies of earlier heaps ({@code heap4old}, {@code heap4aos},
 * {@code heap4pops}), kept in git at abe2058.
 */
public final class PairedQueueMeasurement {

    static final int BATCH = 1000;
    static final long HOUR = 3_600_000L;
    static final String[] KINDS = {"fire", "cancel", "editEarlier", "editLater", "add"};

    private final List<String> names;
    private final List<TimerQueueUnderTest> queues = new ArrayList<>();
    private final TimerQueueBenchmark.Rng rng = new TimerQueueBenchmark.Rng(42);
    /** The pending timers, the same in every queue. */
    private final List<String> pending = new ArrayList<>();
    private final Map<String, Integer> positions = new HashMap<>();
    private final List<Long> times = new ArrayList<>();
    private final List<Integer> priorities = new ArrayList<>();
    private final ArrayDequeOfIds free = new ArrayDequeOfIds();
    private long now;
    private long answers;

    private PairedQueueMeasurement(List<String> names) {
        this.names = names;
        for (String name : names) {
            queues.add(TimerQueues.create(name));
        }
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> names = List.of(args[2].split(","));
        PairedQueueMeasurement measurement = new PairedQueueMeasurement(names);
        measurement.fill(n);
        Map<String, double[][]> results = new HashMap<>(); // kind -> [design][round] ns per op
        for (String kind : KINDS) {
            results.put(kind, new double[names.size()][rounds]);
        }
        int warmup = Math.max(5, rounds / 5);
        for (int round = -warmup; round < rounds; round++) {
            for (String kind : KINDS) {
                double[] nanos = measurement.run(kind, round + warmup);
                if (round >= 0) {
                    for (int q = 0; q < names.size(); q++) {
                        results.get(kind)[q][round] = nanos[q];
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "n=%d, %d rounds of %d operations per kind and design (after %d warm-up rounds)"
                + "; ns/op median [p10-p90]; paired ratio to %s: median [p10-p90] of the per-round ratios%n",
                n, rounds, BATCH, warmup, names.get(0));
        for (String kind : KINDS) {
            double[][] byDesign = results.get(kind);
            for (int q = 0; q < names.size(); q++) {
                double[] ratios = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    ratios[r] = byDesign[q][r] / byDesign[0][r];
                }
                System.out.printf(Locale.ROOT, "%-12s %-10s %8.0f [%6.0f-%6.0f]   ratio %.2f [%.2f-%.2f]%n", kind,
                        names.get(q), pct(byDesign[q], 50), pct(byDesign[q], 10), pct(byDesign[q], 90),
                        pct(ratios, 50), pct(ratios, 10), pct(ratios, 90));
            }
        }
        System.out.println("(checksum " + measurement.answers + ")");
    }

    private void fill(int n) {
        String[] ids = TimerQueueBenchmark.makeIds(2 * n, rng);
        for (int i = 0; i < n; i++) {
            addEverywhere(ids[i], now + delay(), rng.nextInt(4));
        }
        for (int i = n; i < 2 * n; i++) {
            free.add(ids[i]);
        }
        System.gc();
    }

    /** Times one batch of {@code kind} on every design; returns ns per operation by design. */
    private double[] run(String kind, int round) {
        int designs = queues.size();
        double[] nanos = new double[designs];
        String[] targets = new String[BATCH];
        long[] newTimes = new long[BATCH];
        int[] newPriorities = new int[BATCH];
        switch (kind) {
            case "cancel", "editEarlier", "editLater" -> {
                for (int i = 0; i < BATCH; i++) {
                    int at = rng.nextInt(pending.size());
                    targets[i] = pending.get(at);
                    long old = times.get(at);
                    newPriorities[i] = priorities.get(at);
                    newTimes[i] = kind.equals("editLater") ? old + 1 + rng.nextLong(now + HOUR - old)
                            : old == now ? old : now + rng.nextLong(old - now);
                }
                dedupe(targets);
            }
            case "add" -> {
                for (int i = 0; i < BATCH; i++) {
                    targets[i] = free.take();
                    newTimes[i] = now + delay();
                    newPriorities[i] = rng.nextInt(4);
                }
            }
            default -> {
            }
        }
        String[][] fired = new String[designs][BATCH];
        for (int k = 0; k < designs; k++) {
            int q = (k + round) % designs;
            TimerQueueUnderTest queue = queues.get(q);
            long start = System.nanoTime();
            long done = 0;
            switch (kind) {
                case "fire" -> done = queue.drain(Long.MAX_VALUE, fired[q]);
                case "cancel" -> {
                    for (String id : targets) {
                        done += id != null && queue.cancel(id) ? 1 : 0;
                    }
                }
                case "editEarlier", "editLater" -> {
                    for (int i = 0; i < BATCH; i++) {
                        done += targets[i] != null && queue.edit(targets[i], newTimes[i], newPriorities[i]) ? 1 : 0;
                    }
                }
                default -> {
                    for (int i = 0; i < BATCH; i++) {
                        done += queue.add(targets[i], newTimes[i], newPriorities[i]) ? 1 : 0;
                    }
                }
            }
            nanos[q] = (double) (System.nanoTime() - start) / BATCH;
            answers += done;
        }
        undo(kind, targets, newTimes, newPriorities, fired);
        return nanos;
    }

    /** Brings every queue back to the same n pending timers, untimed. */
    private void undo(String kind, String[] targets, long[] newTimes, int[] newPriorities, String[][] fired) {
        switch (kind) {
            case "fire" -> {
                for (String[] other : fired) {
                    if (!Arrays.equals(other, fired[0])) {
                        throw new IllegalStateException("designs fired different timers");
                    }
                }
                now = queues.get(0).nextFireTime();
                for (String id : fired[0]) {
                    forget(id);
                    free.add(id);
                }
                for (int i = 0; i < BATCH; i++) {
                    addEverywhere(free.take(), now + delay(), rng.nextInt(4));
                }
            }
            case "cancel" -> {
                for (String id : targets) {
                    if (id != null) {
                        forget(id);
                        free.add(id);
                        addEverywhere(free.take(), now + delay(), rng.nextInt(4));
                    }
                }
            }
            case "editEarlier", "editLater" -> {
                for (int i = 0; i < BATCH; i++) {
                    if (targets[i] != null) {
                        times.set(positions.get(targets[i]), newTimes[i]);
                    }
                }
            }
            default -> {
                for (int i = 0; i < BATCH; i++) {
                    for (TimerQueueUnderTest queue : queues) {
                        queue.cancel(targets[i]);
                    }
                    free.add(targets[i]);
                }
            }
        }
    }

    private void addEverywhere(String id, long time, int priority) {
        for (TimerQueueUnderTest queue : queues) {
            if (!queue.add(id, time, priority)) {
                throw new IllegalStateException("duplicate " + id);
            }
        }
        positions.put(id, pending.size());
        pending.add(id);
        times.add(time);
        priorities.add(priority);
    }

    private void forget(String id) {
        int at = positions.remove(id);
        int last = pending.size() - 1;
        if (at != last) {
            String moved = pending.get(last);
            pending.set(at, moved);
            times.set(at, times.get(last));
            priorities.set(at, priorities.get(last));
            positions.put(moved, at);
        }
        pending.remove(last);
        times.remove(last);
        priorities.remove(last);
    }

    private static void dedupe(String[] targets) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < targets.length; i++) {
            if (!seen.add(targets[i])) {
                targets[i] = null;
            }
        }
    }

    private long delay() {
        int ms = rng.nextInt((int) HOUR);
        return rng.nextInt(2) == 0 ? ms : ms - ms % 1000;
    }

    private static double pct(double[] values, int percent) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)];
    }

    /** A FIFO of ids not pending, so an id comes back only after many others (cold, as in the JMH benchmark). */
    private static final class ArrayDequeOfIds {
        private final java.util.ArrayDeque<String> ids = new java.util.ArrayDeque<>();

        void add(String id) {
            ids.addLast(id);
        }

        String take() {
            return ids.removeFirst();
        }
    }
}
