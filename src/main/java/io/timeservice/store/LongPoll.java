package io.timeservice.store;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The claim-wait loop of both stores: look, and while the look found nothing, the wait has time left and waits have
 * not been ended, sleep until the ready signal changes, then look again. The signal's generation is read before each
 * look, so a delivery that becomes ready after the look (and changes the generation) ends the wait at once: no
 * wake-up is lost between a look and the sleep. Holds no lock or connection while it waits.
 */
public final class LongPoll {

    /** The ready signal a wait sleeps on: a generation that changes whenever something may have become ready. */
    public interface Signal {

        long generation();

        /** Returns once the generation differs from {@code seen} or {@code nanos} have passed. */
        void awaitChange(long seen, long nanos) throws InterruptedException;
    }

    private LongPoll() {
    }

    /**
     * Looks until {@code look} finds something or {@code waitMillis} have passed; an interrupt or {@code ended}
     * answers the last look at once (the interrupt status is kept).
     */
    public static <T> List<T> claim(long waitMillis, Signal signal, BooleanSupplier ended, Supplier<List<T>> look) {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        while (true) {
            long seen = signal.generation(); // before looking: a delivery ready after the look changes it
            List<T> found = look.get();
            long left = deadline - System.nanoTime();
            if (!found.isEmpty() || left <= 0 || ended.getAsBoolean()) {
                return found;
            }
            try {
                signal.awaitChange(seen, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return found;
            }
        }
    }
}
