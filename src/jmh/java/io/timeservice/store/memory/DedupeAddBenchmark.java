package io.timeservice.store.memory;

import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 43 item 5: an add on a clock that fired {@code fired} timers in the last hour, with a dedupe window of one
 * hour ({@code window = 3600000}: every one of those ids is reserved, so each add looks its id up among a million
 * reservations) and without ({@code window = 0}), side by side in one run. Each add takes a fresh id due an hour
 * ahead, so neither the heap's nor the reservations' size changes much during a run. {@code Setup} also prints the
 * heap used per reservation (the difference of the used heap after a full GC with and without the reservations,
 * beyond the ids, which both runs hold in the fired timers' strings until they are gone). Run:
 * <pre>
 * ./mvnw -Pjmh test-compile exec:exec@jmh -Djmh.args="DedupeAddBenchmark -f 1 -wi 3 -i 5"
 * </pre>
 * or {@code bench/dedupe-window.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class DedupeAddBenchmark {

    @Param({"0", "3600000"})
    long window;

    @Param({"1000000"})
    int fired;

    private MemoryClock clock;
    private long next;

    @Setup(Level.Trial)
    public void fireAMillion() {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 20_000_000, Long.MAX_VALUE, 10);
        clock = clocks.create("c", 0, ClockSettings.VIRTUAL.withDedupeWindow(window)).clock().scheduler();
        long before = usedAfterGc();
        for (int i = 0; i < fired; i++) {
            clock.add("order-" + i, 1 + (i * 7919L) % 3_000_000, 0, null, Trace.NONE);
        }
        clock.advance(3_000_000L, Trace.NONE); // within the hour: every id stays reserved with a window
        long after = usedAfterGc();
        System.out.printf("%nwindow %d: %d fired, %d reserved, heap used %+.1f bytes per fired timer%n", window,
                fired, clock.reservations().size(), (after - before) / (double) fired);
    }

    @Benchmark
    public Timer add() {
        return clock.add("new-" + next++, 3_600_000, 0, null, Trace.NONE);
    }

    private static long usedAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
