package io.timeservice.client;

import java.net.URI;
import java.time.Duration;

/**
 * The worker whose JVM dies mid-handler, run as a child process by {@link TimerWorkerTest}: it claims with a
 * {@link TimerWorker}, prints {@code handling <sequence>} for each delivery its handlers start, and halts the JVM
 * (no shutdown hooks, no acks) in the first handler. Arguments: the service's URI, the clock's name.
 */
public final class CrashingWorker {

    static final int HALT_STATUS = 3;

    private CrashingWorker() {
    }

    public static void main(String[] args) {
        ClockClient clock = TimeServiceClient.connect(URI.create(args[0])).clock(args[1]);
        TimerWorker.on(clock).concurrency(4).lease(Duration.ofSeconds(5)).handler(delivery -> {
            synchronized (CrashingWorker.class) {
                System.out.println("handling " + delivery.sequence());
                System.out.flush();
                Runtime.getRuntime().halt(HALT_STATUS);
            }
        }).start();
    }
}
