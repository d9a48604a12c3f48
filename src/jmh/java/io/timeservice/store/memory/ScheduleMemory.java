package io.timeservice.store.memory;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Trace;

/**
 * Heap retained per schedule on the memory store: used heap after full collections with 100,000 schedules on one
 * clock (each with its pending occurrence timer), minus used heap before, divided by n; beside it the same for
 * 100,000 plain timers. Ids are made in the measured part in both (the schedule's id and its occurrence's).
 *
 * <p>Run with {@code -XX:+UseSerialGC} (exact used heap after a full collection), on the test classpath:
 * {@code java -XX:+UseSerialGC -cp target/classes:target/test-classes:$(cat cp.txt) io.timeservice.store.memory.ScheduleMemory every}
 * (or {@code cron}, {@code plainTimers}), one kind per run
 */
public final class ScheduleMemory {

    private static final int N = 100_000;

    private ScheduleMemory() {
    }

    public static void main(String[] args) {
        // one kind per JVM: a scheduler of an earlier kind could stay reachable from a dead local's stack slot
        for (String kind : args.length > 0 ? args : new String[] {"every"}) {
            long before = usedAfterGc();
            MemoryClock scheduler = MemoryClock.withVirtualClock(4, 4 * N);
            scheduler.scheduleWith(new UnixCronParser(), 1_000);
            for (int i = 0; i < N; i++) {
                String id = "s" + i;
                switch (kind) {
                    case "every" -> scheduler.schedules().put(id, new ScheduleSpec(null, 60_000L, null, null, null,
                            null, 0, null, ScheduleSpec.CatchUp.ALL, false), null);
                    case "cron" -> scheduler.schedules().put(id, new ScheduleSpec("* * * * *", null,
                            "Europe/Berlin", null, null, null, 0, null, ScheduleSpec.CatchUp.ALL, false), null);
                    default -> scheduler.add(id, 60_000, 0, null, Trace.NONE);
                }
            }
            long bytes = usedAfterGc() - before;
            System.out.printf("%-12s %,8.0f bytes per %s%n", kind, (double) bytes / N,
                    kind.equals("plainTimers") ? "timer" : "schedule (its occurrence included)");
            if (scheduler.status().size() != N) {
                throw new IllegalStateException("pending " + scheduler.status().size());
            }
        }
    }

    private static long usedAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
