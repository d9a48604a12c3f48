package io.timeservice.web;

import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryClock;
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
 * {@code GET /clocks/{clock}/snapshot} without HTTP: the memory store's snapshot of a clock holding {@code n} pending
 * timers (as {@code io.timeservice.store.memory.ClockCopyBenchmark} fills it) written as the JSON document to a
 * stream that counts and drops the bytes. Milliseconds per document. Run:
 * <pre>
 * ./mvnw -Pjmh test-compile exec:exec@jmh -Djmh.args="SnapshotWriterBenchmark -f 1 -wi 3 -i 7"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 7)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class SnapshotWriterBenchmark {

    @Param({"1000000"})
    int n;

    private MemoryClockStore store;

    @Setup(Level.Trial)
    public void fill() {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, n + 10, Long.MAX_VALUE, 10);
        MemoryClock source = clocks.create("source", 0).clock().scheduler();
        for (int i = 0; i < n; i++) {
            source.add("timer-" + i, 1 + (i * 7919L) % 3_600_000, i % 4, "{\"n\":" + i + "}", Trace.NONE);
        }
        store = new MemoryClockStore(clocks);
    }

    @Benchmark
    public long saveAsJson() {
        Counting out = new Counting();
        SnapshotWriter.write(store.snapshot("source"), out);
        return out.bytes;
    }

    private static final class Counting extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
