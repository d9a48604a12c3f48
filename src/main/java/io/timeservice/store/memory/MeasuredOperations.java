package io.timeservice.store.memory;

import java.util.function.Supplier;

import io.timeservice.model.ProblemException;
import io.timeservice.store.MeasuredCall;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.StoreMetrics.Outcome;
import io.timeservice.store.StoreMetrics;

/**
 * The one shape of every counted operation of a {@link MemoryClock}: {@code validate} outside the lock, the work
 * under it after the serving check, then (a change) the wait until the log has it. The operation, refusals included,
 * and its sift levels are reported after the lock is released, so the metrics never lengthen a hold of the lock.
 */
final class MeasuredOperations {

    private final CombiningLock lock;
    /** The clock's fail-stop and deleted-clock check; called under the lock. */
    private final Runnable requireServing;
    /** The clock's log, which {@link ClockKernel#attachLog} sets after construction. */
    private final Supplier<MutationLog> log;
    private final StoreMetrics metrics;

    MeasuredOperations(CombiningLock lock, Runnable requireServing, Supplier<MutationLog> log,
                       StoreMetrics metrics) {
        this.lock = lock;
        this.requireServing = requireServing;
        this.log = log;
        this.metrics = metrics;
    }

    /** Runs one mutation and waits until the log has it. */
    <T> T mutate(Operation operation, Runnable validate, Supplier<Applied<T>> underLock) {
        return measured(operation, validate, true, underLock);
    }

    /** Runs one read under the lock. */
    <T> T read(Operation operation, Supplier<T> underLock) {
        return measured(operation, () -> { }, false, () -> new Applied<>(underLock.get(), 0, Applied.NO_LEVELS));
    }

    /**
     * Runs {@code work}, which takes the locks it needs itself and waits for the log (a batch across clocks,
     * {@link BatchAcrossClocks}), counted as one {@code operation} of this clock.
     */
    <T> T measuredHolding(Operation operation, Supplier<T> work) {
        return MeasuredCall.measure(metrics, operation, work);
    }

    private <T> T measured(Operation operation, Runnable validate, boolean durable, Supplier<Applied<T>> underLock) {
        long start = System.nanoTime();
        Outcome outcome = Outcome.REJECTED;
        int[] levels = Applied.NO_LEVELS;
        try {
            validate.run();
            Applied<T> applied = lock.call(() -> {
                requireServing.run();
                return underLock.get();
            });
            levels = applied.levels();
            if (durable) {
                log.get().awaitDurable(applied.position());
            }
            outcome = Outcome.SUCCESS;
            return applied.value();
        } catch (ProblemException refused) {
            outcome = Outcome.of(refused.code());
            throw refused;
        } finally {
            metrics.operation(operation, outcome, System.nanoTime() - start);
            for (int each : levels) {
                metrics.siftLevels(each);
            }
        }
    }
}
