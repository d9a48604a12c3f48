package io.timeservice.store.memory;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The firing thread's cost per schedule occurrence: one clock holds 100,000 minutely schedules, and each invocation
 * moves it one minute, firing every occurrence and adding each one's successor under the clock's lock (no journal,
 * no HTTP). {@code every} is {@code every: 60000}, {@code cron} is {@code * * * * *} in Europe/Berlin (each successor
 * found by the cron engine); {@code plainTimers} is the alternative without schedules: 100,000 timers fired and each
 * added again with a delay of a minute, as a client re-scheduling them would have the service do.
 *
 * <p>Run: {@code ./mvnw -B -ntp -o -Pjmh test-compile exec:exec@jmh -Djmh.args="ScheduleFiringBenchmark -f 1 -wi 3 -i 5"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(ScheduleFiringBenchmark.N)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Thread)
public class ScheduleFiringBenchmark {

    static final int N = 100_000;

    @Param({"every", "cron", "plainTimers"})
    public String kind;

    private MemoryClock scheduler;

    @Setup(Level.Trial)
    public void fill() {
        scheduler = MemoryClock.withVirtualClock(4, 4 * N);
        scheduler.scheduleWith(new UnixCronParser(), 1_000);
        for (int i = 0; i < N; i++) {
            String id = "s" + i;
            switch (kind) {
                case "every" -> scheduler.schedules().put(id, new ScheduleSpec(null, 60_000L, null, null, null, null,
                        0, null, ScheduleSpec.CatchUp.ALL, false), null);
                case "cron" -> scheduler.schedules().put(id, new ScheduleSpec("* * * * *", null, "Europe/Berlin",
                        null, null, null, 0, null, ScheduleSpec.CatchUp.ALL, false), null);
                default -> scheduler.add(id, 60_000, 0, null, Trace.NONE);
            }
        }
    }

    @Benchmark
    public int fireOneMinute() {
        List<Timer> fired = scheduler.advance(60_000, Trace.NONE).fired();
        if (kind.equals("plainTimers")) {
            for (Timer timer : fired) {
                scheduler.add(timer.id(), 60_000, 0, null, Trace.NONE);
            }
        }
        if (fired.size() != N) {
            throw new IllegalStateException("fired " + fired.size() + ", not " + N);
        }
        return fired.size();
    }
}
