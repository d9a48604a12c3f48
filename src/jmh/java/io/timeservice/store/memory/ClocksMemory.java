package io.timeservice.store.memory;

import java.lang.management.ManagementFactory;

import io.timeservice.model.Trace;
import org.openjdk.jol.info.GraphStats;
import org.openjdk.jol.vm.VM;

/**
 * What an idle clock costs (issue 15): {@code n} clocks in one {@link ClockRegistry} (names {@code ci-<n>}, no
 * journal), first empty, then with 10 timers each (distinct id strings of 9-10 characters, no payload). Two
 * measurements per step, which should agree:
 * <ul>
 *   <li>heap: used heap after three {@code System.gc()} calls, minus used heap before the step, divided by n
 *       (run with {@code -XX:+UseSerialGC} so that used heap after a full collection is exact);</li>
 *   <li>JOL: deep size of the registry's object graph ({@link GraphStats}), minus the same before the step,
 *       divided by n.</li>
 * </ul>
 * Both count the clock's name, and with timers their ids, as the service holds them. Run after
 * {@code ./mvnw -B -ntp -o -Pjmh test-compile}:
 * <pre>
 * java -Xmx2g -XX:+UseSerialGC -Djdk.attach.allowAttachSelf=true \
 *     -cp target/classes:target/test-classes:$(cat target/jmh-classpath.txt) io.timeservice.store.memory.ClocksMemory 20000
 * </pre>
 */
public final class ClocksMemory {

    private static final int TIMERS_PER_CLOCK = 10;

    private ClocksMemory() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        System.out.println(VM.current().details());
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, n * TIMERS_PER_CLOCK + 1, Long.MAX_VALUE, n + 1);
        long heapBefore = usedAfterGc();
        long jolBefore = GraphStats.parseInstance(clocks).totalSize();
        for (int c = 0; c < n; c++) {
            clocks.create(String.format("ci-%05d", c), 0);
        }
        long heapEmpty = usedAfterGc();
        // where the empty clocks' bytes go: the graph reaches the whole registry; SUM / n is a class's share
        System.out.println(org.openjdk.jol.info.GraphLayout.parseInstance(clocks.get("ci-00000")).toFootprint());
        long jolEmpty = GraphStats.parseInstance(clocks).totalSize();
        for (int c = 0; c < n; c++) {
            MemoryClock scheduler = clocks.scheduler(String.format("ci-%05d", c));
            for (int t = 0; t < TIMERS_PER_CLOCK; t++) {
                scheduler.add("t-" + c + "-" + t, 1_000 + t * 997L, t % 4, null, Trace.NONE);
            }
        }
        long heapTimers = usedAfterGc();
        long jolTimers = GraphStats.parseInstance(clocks).totalSize();
        if (clocks.count() != n + 1 || clocks.budget().timers() != (long) n * TIMERS_PER_CLOCK) {
            throw new IllegalStateException("expected " + n + " clocks with " + TIMERS_PER_CLOCK + " timers each");
        }
        System.out.printf("RESULT n=%d empty clock: heap %.0f B, JOL %.0f B per clock%n", n,
                (double) (heapEmpty - heapBefore) / n, (double) (jolEmpty - jolBefore) / n);
        System.out.printf("RESULT n=%d clock with %d timers: heap %.0f B, JOL %.0f B per clock%n", n,
                TIMERS_PER_CLOCK, (double) (heapTimers - heapBefore) / n, (double) (jolTimers - jolBefore) / n);
        System.out.printf("RESULT n=%d the %d timers alone: heap %.1f B, JOL %.1f B per timer%n", n,
                TIMERS_PER_CLOCK, (double) (heapTimers - heapEmpty) / n / TIMERS_PER_CLOCK,
                (double) (jolTimers - jolEmpty) / n / TIMERS_PER_CLOCK);
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
