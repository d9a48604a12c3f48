package io.timeservice.client.bench;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.timeservice.client.ClockClient;
import io.timeservice.client.ClockOptions;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimerBatch;
import io.timeservice.client.TimerWorker;

/**
 * Drains {@code count} deliveries with one {@link TimerWorker}: a fresh virtual queueing clock gets the timers (in
 * batches of 1,000, not timed), one advance makes them all ready, then the worker starts; timed from its start until
 * the last handler ran and {@code close()} sent the last acks (as {@code bench/bullmq-drain.js} times BullMQ's
 * {@code Worker} until {@code close()}). The handler does nothing, as BullMQ's processor there does. A warm-up drain
 * of {@code warmup} deliveries runs first in the same JVM (the client's JIT), not reported.
 * Run by {@code clients/java/bench/worker-drain.sh}. Arguments: baseUri count concurrency warmup [label].
 * Prints {@code RESULT label acked=... seconds=... acked_per_s=... concurrency=...}.
 */
public final class WorkerDrain {

    private WorkerDrain() {
    }

    public static void main(String[] args) throws Exception {
        TimeServiceClient ts = TimeServiceClient.connect(URI.create(args[0]));
        int count = Integer.parseInt(args[1]);
        int concurrency = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        String label = args.length > 4 ? args[4] : "timerworker";
        if (warmup > 0) {
            drain(ts, warmup, concurrency);
        }
        double seconds = drain(ts, count, concurrency);
        System.out.println(String.format(Locale.ROOT, "RESULT %s acked=%d seconds=%.2f acked_per_s=%.0f "
                + "concurrency=%d", label, count, seconds, count / seconds, concurrency));
    }

    private static double drain(TimeServiceClient ts, int count, int concurrency) throws InterruptedException {
        ClockClient clock = ts.createClock("drain-" + UUID.randomUUID(), ClockOptions.virtual().queued());
        try {
            for (int start = 0; start < count; start += 1000) {
                TimerBatch batch = clock.batch();
                for (int i = start; i < Math.min(count, start + 1000); i++) {
                    batch.add("d" + i, Duration.ZERO, 0, "{\"n\":" + i + "}");
                }
                batch.commit();
            }
            clock.advance(Duration.ZERO);
            CountDownLatch done = new CountDownLatch(count);
            long began = System.nanoTime();
            TimerWorker worker = TimerWorker.on(clock).concurrency(concurrency).pollWait(Duration.ofMillis(100))
                    .handler(delivery -> done.countDown()).start();
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("not drained in 10 minutes: " + worker.stats());
            }
            worker.close();
            double seconds = (System.nanoTime() - began) / 1e9;
            if (!clock.deliveries().drained() || worker.stats().acked() != count) {
                throw new IllegalStateException("acks missing: " + clock.deliveries() + " " + worker.stats());
            }
            return seconds;
        } finally {
            clock.delete();
        }
    }
}
