package io.timeservice.store.postgres;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Asking the service again and again until it shows a state, with a deadline, instead of waiting a guessed time. */
final class Poll {

    /** Between two questions, so that polling leaves the two cores to the service and the database. */
    private static final Duration PAUSE = Duration.ofMillis(50);

    private Poll() {
    }

    /** Asks {@code probe} until it answers true; fails naming {@code what} when {@code timeout} has passed. */
    static void until(String what, Duration timeout, Callable<Boolean> probe) {
        await(what).atMost(timeout).pollInterval(PAUSE).until(probe);
    }
}
