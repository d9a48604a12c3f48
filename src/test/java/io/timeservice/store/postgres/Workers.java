package io.timeservice.store.postgres;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.awaitility.Awaitility;

/**
 * Client threads of an integration test (claimers, writers), each repeating its step until it says it is done or
 * {@link #stop} is called. The test waits for what they report ({@link #await}) with a deadline; a step that throws
 * ends the wait with its failure.
 */
final class Workers {

    /** One round of a worker's loop; false when this worker has nothing more to do. */
    interface Step {
        boolean run() throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;
    /** The first step that threw; guarded by this. */
    private Throwable failure;

    void start(String name, Step step) {
        Thread thread = new Thread(() -> loop(step), name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /** Waits until {@code condition} holds, checked every 10 ms; fails at once at a worker's failure. */
    void await(String what, BooleanSupplier condition, Duration timeout) {
        Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(10)).until(() -> {
            synchronized (this) {
                if (failure != null) {
                    throw new AssertionError("a worker failed while waiting for " + what, failure);
                }
            }
            return condition.getAsBoolean();
        });
    }

    /** Lets each worker finish its step and waits for all; fails with the first step that threw. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(1));
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not stop within a minute");
            }
        }
        synchronized (this) {
            if (failure != null) {
                throw new AssertionError("a worker failed", failure);
            }
        }
    }

    private void loop(Step step) {
        try {
            boolean more = true;
            while (more && !stopping) {
                more = step.run();
            }
        } catch (Throwable t) {
            synchronized (this) {
                if (failure == null) {
                    failure = t;
                }
            }
        }
    }
}
