package io.timeservice.store.memory;

import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A fork and a snapshot of a clock holding {@code n} pending timers (ids of 12 to 13 characters, a small payload
 * each): how long the source's lock is held, and how long the whole copy takes. Milliseconds per operation.
 * <ul>
 *   <li>{@code lockHeld}: what a fork and a snapshot do under the source's lock now: copy the heap's key arrays and
 *       records ({@link MemoryClock#copied}); the fork also appends its record there, which the journal-less
 *       clocks here skip.</li>
 *   <li>{@code lockHeldBuildingTheCopy}: the design before, for comparison: the copy's lists built under the lock
 *       as well ({@link ClockCopy#of}, one timer object and one record per timer).</li>
 *   <li>{@code lockHeldSortingTheReservations}: the design before for a clock with {@code reserved} ids (a dedupe
 *       window): its reservations made into objects and sorted under the lock as well.</li>
 *   <li>{@code fork}: {@link ClockRegistry#fork} whole: the locked copy, the lists, the new clock's heap (bulk load),
 *       its id index; the copy is deleted after each, untimed.</li>
 *   <li>{@code snapshot}: {@link MemoryClockStore#snapshot} and reading every timer of it in order, as the snapshot
 *       writer does (the JSON itself: {@code io.timeservice.web.SnapshotWriterBenchmark}).</li>
 * </ul>
 * Run:
 * <pre>
 * ./mvnw -Pjmh test-compile exec:exec@jmh -Djmh.args="ClockCopyBenchmark -f 1 -wi 3 -i 7"
 * ./mvnw -Pjmh test-compile exec:exec@jmh -Djmh.args="ClockCopyBenchmark.lockHeld -p reserved=1000000 -f 1 -wi 3 -i 7"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 7)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class ClockCopyBenchmark {

    @Param({"1000000"})
    int n;

    /** Ids the source keeps reserved (a dedupe window of an hour; issue 43): timers fired before the n are added. */
    @Param({"0"})
    int reserved;

    private ClockRegistry clocks;
    private MemoryClock source;
    private MemoryClockStore store;

    @Setup(Level.Trial)
    public void fill() {
        clocks = ClockRegistry.withVirtualClocks(4, 3 * n + 10, Long.MAX_VALUE, 10);
        source = clocks.create("source", 0, ClockSettings.VIRTUAL.withDedupeWindow(3_600_000)).clock().scheduler();
        for (int i = 0; i < reserved; i++) {
            source.add("fired-" + i, 1 + (i * 7919L) % 1_000_000, 0, null, Trace.NONE);
        }
        source.advance(1_000_000, Trace.NONE); // every one fired within the hour: reserved
        for (int i = 0; i < n; i++) {
            source.add("timer-" + i, 1 + (i * 7919L) % 3_600_000, i % 4, "{\"n\":" + i + "}", Trace.NONE);
        }
        store = new MemoryClockStore(clocks);
    }

    @TearDown(Level.Invocation)
    public void deleteCopy() {
        if (clocks.count() > 2) {
            clocks.delete("copy");
        }
    }

    @Benchmark
    public ClockImage lockHeld() {
        return source.copied((state, weight) -> { });
    }

    @Benchmark
    public ClockImage lockHeldBuildingTheCopy(Blackhole hole) {
        return source.copied((state, weight) -> hole.consume(ClockCopy.of(state, state.lastSequence())));
    }

    /** The design before (until 2026-12-07): the reservations made into objects and sorted under the lock. */
    @Benchmark
    public ClockImage lockHeldSortingTheReservations(Blackhole hole) {
        return source.copied((state, weight) -> hole.consume(state.reservations()));
    }

    @Benchmark
    public ClockRegistry.Clock fork() {
        return clocks.fork("copy", "source").clock();
    }

    @Benchmark
    public long snapshot() {
        ClockSnapshot snapshot = store.snapshot("source");
        long sum = 0;
        for (Timer timer : snapshot.timers()) {
            sum += timer.sequence() + timer.id().length();
        }
        return sum;
    }
}
