package io.timeservice.store.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;

/**
 * Issue 44 item 5 on a loaded machine: {@link FlowClaimBenchmark}'s two clocks (100,000 ready deliveries of 10,000
 * keys; flow control on with a concurrency of 1,000 per key, which no claim reaches, and off) in one JVM, their claims
 * of 100 measured in the claiming thread's CPU time (what the scheduler gave this thread, not the time it waited for
 * a core, which on 2 vCPUs shared by several builds is most of JMH's wall-clock figure), in alternating rounds so that
 * both see the same machine. Between claims, not measured, the claimed deliveries are acknowledged and as many new
 * ones of the next keys added and fired, as in the JMH benchmark. Prints each configuration's median, minimum and
 * maximum CPU and wall ns per claimed delivery over the measured rounds, and the throughput ratio on ÷ off of the
 * CPU medians. Arguments: rounds (default 25, the first 5 not counted) and claims per round (default 2,000). Run by
 * {@code bench/flow-control.sh}.
 */
public final class FlowClaimCpuTime {

    private static final int WARM_UP_ROUNDS = 5;
    private static final int KEYS = 10_000;

    private final MemoryClock clock;
    private long next;

    private FlowClaimCpuTime(boolean flow) {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 2_000_000, Long.MAX_VALUE, 10);
        ClockSettings queue = new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                RetryPolicy.DEFAULT);
        clock = clocks.create("c", 0, flow ? queue.withFlow(new FlowLimits(1_000, null, null, null, null)) : queue)
                .clock().scheduler();
        addAndFire(FlowClaimBenchmark.READY);
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 25;
        int claims = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        String[] names = {"flow off", "flow on"};
        FlowClaimCpuTime[] cases = {new FlowClaimCpuTime(false), new FlowClaimCpuTime(true)};
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[][] cpu = new long[2][rounds - WARM_UP_ROUNDS];
        long[][] wall = new long[2][rounds - WARM_UP_ROUNDS];
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < 2; k++) {
                int c = round % 2 == 0 ? k : 1 - k; // alternate which goes first
                long[] spent = cases[c].claims(claims, threads);
                if (round >= WARM_UP_ROUNDS) {
                    cpu[c][round - WARM_UP_ROUNDS] = spent[0];
                    wall[c][round - WARM_UP_ROUNDS] = spent[1];
                }
            }
        }
        long delivered = (long) claims * FlowClaimBenchmark.BATCH;
        double off = CpuTimeReport.report(names[0], cpu[0], wall[0], delivered, "delivery", "deliveries");
        double on = CpuTimeReport.report(names[1], cpu[1], wall[1], delivered, "delivery", "deliveries");
        System.out.printf("RESULT claim throughput, flow control on / off (CPU medians): %.3f%n", off / on);
    }

    /** Makes {@code count} claims, each acknowledged and replaced unmeasured; answers their CPU and wall ns. */
    private long[] claims(int count, ThreadMXBean threads) {
        long cpu = 0;
        long wall = 0;
        for (int i = 0; i < count; i++) {
            long cpuBefore = threads.getCurrentThreadCpuTime();
            long wallBefore = System.nanoTime();
            List<Delivery> claimed = clock.claim(FlowClaimBenchmark.BATCH, 60_000, 0);
            cpu += threads.getCurrentThreadCpuTime() - cpuBefore;
            wall += System.nanoTime() - wallBefore;
            if (claimed.size() != FlowClaimBenchmark.BATCH) {
                throw new IllegalStateException("claimed " + claimed.size() + " of " + FlowClaimBenchmark.BATCH);
            }
            List<Ack> acks = new ArrayList<>(claimed.size());
            for (Delivery d : claimed) {
                acks.add(new Ack(d.id(), d.claim()));
            }
            clock.ackAll(acks);
            addAndFire(claimed.size());
        }
        return new long[] {cpu, wall};
    }

    private void addAndFire(int count) {
        for (int i = 0; i < count; i++, next++) {
            clock.add("t" + next, Due.after(0), 0, null, null, "k" + next % KEYS, Trace.NONE);
        }
        clock.advance(0, Trace.NONE);
    }
}
