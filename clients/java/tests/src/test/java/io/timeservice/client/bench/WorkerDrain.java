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
 * batches of 1,000, not timed), one advance makes them all ready, then the worker starts and the time until the last
 * ack is measured. The handler does nothing, as {@code bench/bullmq-drain.js}'s processor does.
 * Run by {@code clients/java/bench/worker-drain.sh}; arguments: baseUri count concurrency [label].
 * Prints {@code RESULT label=... count=... concurrency=... seconds=... per_s=...}.
 */
public final class WorkerDrain {

    private WorkerDrain() {
    }

    public static void main(String[] args) throws Exception {
        TimeServiceClient ts = TimeServiceClient.connect(URI.create(args[0]));
        int count = Integer.parseInt(args[1]);
        int concurrency = Integer.parseInt(args[2]);
        String label = args.length > 3 ? args[3] : "timerworker";
        ClockClient clock = ts.createClock("drain-" + UUID.randomUUID(), ClockOptions.virtual().queued());
        try {
            for (int start = 0; start < count; start += 1000) {
                TimerBatch batch = clock.batch();
                for (int i = start; i < Math.min(count, start + 1000); i++) {
                    batch.add("job-" + i, Duration.ZERO);
                }
                batch.commit();
            }
            clock.advance(Duration.ZERO);
            CountDownLatch done = new CountDownLatch(count);
            long began = System.nanoTime();
            TimerWorker worker = TimerWorker.on(clock).concurrency(concurrency).pollWait(Duration.ofSeconds(1))
                    .handler(delivery -> done.countDown()).start();
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("not drained in 10 minutes: " + worker.stats());
            }
            worker.close();
            double seconds = (System.nanoTime() - began) / 1e9;
            if (!clock.deliveries().drained()) {
                throw new IllegalStateException("acks missing: " + clock.deliveries());
            }
            System.out.println(String.format(Locale.ROOT, "RESULT label=%s count=%d concurrency=%d seconds=%.3f "
                    + "per_s=%.0f", label, count, concurrency, seconds, count / seconds));
        } finally {
            clock.delete();
        }
    }
}
