package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/** Waiting for a state the code under test reports as a count, instead of for a guessed time. */
final class Counts {

    private Counts() {
    }

    /** Waits until {@code count} reaches {@code atLeast}; fails after 60 s naming {@code what}. */
    static void awaitAtLeast(IntSupplier count, int atLeast, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count.getAsInt() < atLeast) {
            assertThat(System.nanoTime()).as("%s: %d of %d within 60 s", what, count.getAsInt(), atLeast)
                    .isLessThan(deadline);
            Thread.sleep(5); // polling the reported count
        }
    }
}
