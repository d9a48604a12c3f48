package io.timeservice.store.postgres;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.IntSupplier;

/** Waiting for a state the code under test reports as a count, instead of for a guessed time. */
final class Counts {

    private Counts() {
    }

    /** Waits until {@code count} reaches {@code atLeast}; fails after 60 s naming {@code what}. */
    static void awaitAtLeast(IntSupplier count, int atLeast, String what) {
        await(what + ": " + atLeast + " within 60 s").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                .until(() -> count.getAsInt() >= atLeast);
    }
}
