package io.timeservice.client.bench;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

import io.timeservice.client.ClockClient;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimeServiceException;

/**
 * {@link ClockClient#add} from {@code threads} threads on one shared client, each add with a unique id and the delay
 * and priority {@code bench/post.lua} gives wrk's requests, so that both send the same load to the same path.
 * First {@code warmupSeconds} unmeasured (the client's JIT), then {@code seconds} measured.
 * Run by {@code clients/java/bench/add-throughput.sh}. Arguments: baseUri clock threads seconds warmupSeconds
 * [label]. Prints {@code RESULT label requests=... seconds=... rps=... errors=... client_cpu_us_per_req=...}, the
 * last being this JVM's CPU time (every thread: the senders, the HTTP client's, the JIT's and GC's) per add.
 */
public final class AddThroughput {

    private AddThroughput() {
    }

    public static void main(String[] args) throws Exception {
        ClockClient clock = TimeServiceClient.connect(URI.create(args[0])).clock(args[1]);
        int threads = Integer.parseInt(args[2]);
        Duration window = Duration.ofSeconds(Long.parseLong(args[3]));
        Duration warmup = Duration.ofSeconds(Long.parseLong(args[4]));
        String label = args.length > 5 ? args[5] : "java-client";
        run(clock, threads, warmup, label + "-w");
        LongAdder errors = new LongAdder();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long began = System.nanoTime();
        long requests = run(clock, threads, window, label + "-m", errors);
        double seconds = (System.nanoTime() - began) / 1e9;
        double cpuMicros = (os.getProcessCpuTime() - cpuBefore) / 1e3;
        System.out.println(String.format(Locale.ROOT, "RESULT %s requests=%d seconds=%.2f rps=%.0f errors=%d "
                + "client_cpu_us_per_req=%.1f", label, requests, seconds, requests / seconds, errors.sum(),
                cpuMicros / Math.max(1, requests)));
    }

    private static long run(ClockClient clock, int threads, Duration length, String prefix) throws Exception {
        return run(clock, threads, length, prefix, new LongAdder());
    }

    /** Adds from every thread until {@code length} has passed; the number of adds answered 201. */
    private static long run(ClockClient clock, int threads, Duration length, String prefix, LongAdder errors)
            throws Exception {
        long end = System.nanoTime() + length.toNanos();
        LongAdder added = new LongAdder();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String ids = prefix + t + "-";
            Thread thread = new Thread(() -> {
                for (long n = 1; System.nanoTime() < end; n++) {
                    try {
                        clock.add(ids + n, Duration.ofMillis(1000 + (n * 7919) % 3_600_000), (int) (n % 4), null);
                        added.increment();
                    } catch (TimeServiceException | java.io.UncheckedIOException e) {
                        errors.increment();
                    }
                }
            });
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join();
        }
        return added.sum();
    }
}
