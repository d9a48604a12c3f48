package io.timeservice.store.memory;

import io.timeservice.store.memory.heap.HeapInvariants;
import io.timeservice.store.memory.heap.IndexedTimerHeap;



/**
 * What an invariant check costs the scheduler lock at {@code n} pending timers: {@link MemoryClock} holds the
 * lock only for {@link IndexedTimerHeap#copy()} and walks the copy without it; before, it held the lock for the
 * whole walk. Prints both per round. Run after {@code ./mvnw -B -ntp -Pjmh test-compile}:
 * <pre>
 * java -Xms3g -Xmx3g -XX:+AlwaysPreTouch -cp target/classes:target/test-classes \
 *   io.timeservice.store.memory.InvariantCheckMeasurement 1000000 7
 * </pre>
 * The first rounds include JIT compilation; without pre-touching, copies into fresh heap pages pay a page fault
 * per 4 KB (see the snapshot pause in docs/BENCHMARKS.md).
 */
public final class InvariantCheckMeasurement {

    private InvariantCheckMeasurement() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        for (int i = 0; i < n; i++) {
            heap.insert("timer-" + i, 1 + (i * 7919L) % 3_600_000, i % 4, i, 1, 0, 0, null);
        }
        for (int round = 0; round < rounds; round++) {
            long start = System.nanoTime();
            IndexedTimerHeap copy = heap.copy();
            long copied = System.nanoTime();
            boolean ok = HeapInvariants.check(copy, 0).ok();
            long walked = System.nanoTime();
            System.out.printf("pending=%d copy under the lock: %.1f ms, walk of the copy: %.1f ms, ok=%s%n",
                    n, (copied - start) / 1e6, (walked - copied) / 1e6, ok);
        }
    }
}
