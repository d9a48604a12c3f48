package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 44 item 5: a claim of {@value #BATCH} deliveries on a queueing clock whose {@value #READY} ready deliveries
 * belong to {@code keys} keys, with flow control ({@code flow = on}: a concurrency of 1,000 per key, which a claim
 * never reaches, so the cost measured is the per-key queues and the round robin alone) and without ({@code off}: the
 * clock's one ready heap), side by side in one run. Between invocations, not timed: the claimed deliveries are
 * acknowledged and as many new ones, of the next keys in turn, are added and fired, so the backlog and the keys stay
 * as they are. The score is ns per claimed delivery. Run:
 * <pre>
 * ./mvnw -Pjmh test-compile exec:exec@jmh -Djmh.args="FlowClaimBenchmark -f 1 -wi 3 -i 5"
 * </pre>
 * or {@code bench/flow-control.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class FlowClaimBenchmark {

    static final int BATCH = 100;
    static final int READY = 100_000;

    @Param({"off", "on"})
    String flow;

    @Param({"10000"})
    int keys;

    private MemoryClock clock;
    private List<Delivery> claimed = List.of();
    private long next;

    @Setup(Level.Trial)
    public void fill() {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 2_000_000, Long.MAX_VALUE, 10);
        ClockSettings queue = new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                RetryPolicy.DEFAULT);
        clock = clocks.create("c", 0, flow.equals("on")
                ? queue.withFlow(new FlowLimits(1_000, null, null, null, null)) : queue).clock().scheduler();
        addAndFire(READY);
    }

    /** Adds {@code count} timers due now, of the next keys in turn, and fires them. */
    private void addAndFire(int count) {
        for (int i = 0; i < count; i++, next++) {
            clock.add("t" + next, Due.after(0), 0, null, null, "k" + next % keys, Trace.NONE);
        }
        clock.advance(0, Trace.NONE);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public List<Delivery> claim() {
        claimed = clock.claim(BATCH, 60_000, 0);
        return claimed;
    }

    @TearDown(Level.Invocation)
    public void settle() {
        if (claimed.size() != BATCH) {
            throw new IllegalStateException("claimed " + claimed.size() + " of " + BATCH);
        }
        List<Ack> acks = new ArrayList<>(claimed.size());
        for (Delivery d : claimed) {
            acks.add(new Ack(d.id(), d.claim()));
        }
        clock.ackAll(acks);
        addAndFire(claimed.size());
    }
}
