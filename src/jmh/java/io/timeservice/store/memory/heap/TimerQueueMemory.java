package io.timeservice.store.memory.heap;

import java.lang.management.ManagementFactory;
import java.util.List;

import org.openjdk.jol.info.GraphStats;
import org.openjdk.jol.vm.VM;

/**
 * Bytes retained per pending timer by each design, excluding the id strings (and payloads: there are none), with
 * 1,000,000 timers pending. Two measurements per design, which should agree:
 * <ul>
 *   <li>JOL: deep size of the queue object graph ({@link GraphStats}) minus the deep size of the id strings it
 *       reaches (String objects and their byte arrays), divided by n;</li>
 *   <li>heap: used heap after three {@code System.gc()} calls with the filled queue, minus used heap before it was
 *       made (the ids already existed then), divided by n. Run it with {@code -XX:+UseSerialGC} so that used
 *       heap after a full collection is exact.</li>
 * </ul>
 * The fill is the benchmarks' (same ids, delays and priorities). {@code pqTombstones} is measured fresh and at its
 * worst, after n edits, just before the sweep that its lazy deletion runs when tombstones outnumber live entries.
 *
 * <p>Run: {@code ./mvnw -Pjmh test-compile exec:exec@memory}; with designs named as the first argument
 * (comma-separated, e.g. {@code heap4,heap4load50}) it measures those alone.
 */
public final class TimerQueueMemory {

    private static final int N = 1_000_000;

    private TimerQueueMemory() {
    }

    public static void main(String[] args) {
        System.out.println(VM.current().details());
        TimerQueueBenchmark.Rng rng = new TimerQueueBenchmark.Rng(42);
        String[] ids = TimerQueueBenchmark.makeIds(N, rng);
        long[] times = new long[N];
        int[] priorities = new int[N];
        for (int i = 0; i < N; i++) {
            int ms = rng.nextInt((int) TimerQueueBenchmark.HOUR);
            times[i] = rng.nextInt(2) == 0 ? ms : ms - ms % 1000;
            priorities[i] = rng.nextInt(4);
        }
        long idBytes = GraphStats.parseInstance((Object) ids).totalSize()
                - VM.current().sizeOf(ids);
        System.out.printf("n = %,d; the ids alone: %,d bytes = %.1f bytes per id%n", N, idBytes, (double) idBytes / N);
        System.out.printf("%-28s %12s %12s%n", "design", "JOL B/timer", "heap B/timer");
        List<String> designs = args.length > 0 ? List.of(args[0].split(","))
                : List.of("heap4", "heap2", "heap8", "treeMap", "pqTombstones", "pqRemove", "sortedArray");
        for (String design : designs) {
            measure(design, design, ids, times, priorities, idBytes, false);
        }
        if (args.length == 0) {
            measure("pqTombstones", "pqTombstones after n edits", ids, times, priorities, idBytes, true);
        }
    }

    private static void measure(String design, String label, String[] ids, long[] times, int[] priorities,
                                long idBytes, boolean editAll) {
        long before = usedAfterGc();
        TimerQueueUnderTest queue = TimerQueues.create(design);
        for (int i = 0; i < N; i++) {
            if (!queue.add(ids[i], times[i], priorities[i])) {
                throw new IllegalStateException("duplicate id " + ids[i]);
            }
        }
        if (editAll) {
            for (int i = 0; i < N; i++) {
                queue.edit(ids[i], times[N - 1 - i], priorities[i]);
            }
        }
        long heapBytes = usedAfterGc() - before;
        long jolBytes = GraphStats.parseInstance(queue).totalSize() - idBytes;
        System.out.printf("%-28s %12.1f %12.1f%n", label, (double) jolBytes / N, (double) heapBytes / N);
        if (queue.size() != N) {
            throw new IllegalStateException(label + " lost timers");
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
