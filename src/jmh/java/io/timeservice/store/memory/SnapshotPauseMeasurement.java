package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Trace;

/**
 * How long a snapshot holds the scheduler lock: the time {@link MemoryClock} spends copying the heap's arrays
 * ({@link ClockImage#copyNanos()}) for a snapshot of {@code n} pending timers. Run after
 * {@code ./mvnw -B -ntp -Pjmh test-compile}:
 * <pre>
 * java -Xms3g -Xmx3g -cp target/classes:target/test-classes io.timeservice.store.memory.SnapshotPauseMeasurement 1000000 7
 * </pre>
 * Prints each copy's pause; the first ones include JIT compilation of the copy path.
 */
public final class SnapshotPauseMeasurement {

    private SnapshotPauseMeasurement() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        List<Long> pauses = new ArrayList<>();
        boolean[] snapshotNow = {false};
        MutationLog log = new MutationLog() {
            @Override
            public long append(Mutation mutation) {
                return 0;
            }

            @Override
            public void awaitDurable(long position) {
            }

            @Override
            public boolean wantsSnapshot(int size) {
                return snapshotNow[0];
            }

            @Override
            public void snapshot(ClockImage state) {
                pauses.add(state.copyNanos());
                snapshotNow[0] = false;
            }
        };
        MemoryClock scheduler = MemoryClock.withVirtualClock(4, n + rounds);
        scheduler.attachLog(log);
        for (int i = 0; i < n; i++) {
            scheduler.add("timer-" + i, 1 + (i * 7919L) % 3_600_000, i % 4, null, Trace.NONE);
        }
        for (int round = 0; round < rounds; round++) {
            snapshotNow[0] = true;
            scheduler.add("trigger-" + round, 1, 0, null, Trace.NONE);
        }
        for (long pause : pauses) {
            System.out.printf("pending=%d copy under the lock: %.2f ms%n", n, pause / 1e6);
        }
    }
}
