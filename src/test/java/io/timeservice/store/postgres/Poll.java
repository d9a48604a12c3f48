package io.timeservice.store.postgres;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Asking the service again and again until it shows a state, with a deadline, instead of waiting a guessed time. */
final class Poll {

    /** Between two questions, so that polling leaves the two cores to the service and the database. */
    private static final long PAUSE_MILLIS = 50;

    private Poll() {
    }

    /** Asks {@code probe} until it answers true; fails naming {@code what} when {@code timeout} has passed. */
    static void until(String what, Duration timeout, Callable<Boolean> probe) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!probe.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(PAUSE_MILLIS); // polling an observable state, not synchronising
        }
    }
}
