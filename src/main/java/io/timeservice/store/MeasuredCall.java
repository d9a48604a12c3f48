package io.timeservice.store;

import java.util.function.Supplier;

import io.timeservice.model.ProblemException;
import io.timeservice.store.SchedulerMetrics.Operation;
import io.timeservice.store.SchedulerMetrics.Outcome;

/**
 * Times one store call and reports it as the memory store's scheduler does: the whole call, its outcome from the
 * refusal's code ({@link Outcome#of}); any other failure counts as rejected and is rethrown.
 */
public final class MeasuredCall {

    private MeasuredCall() {
    }

    public static <T> T measure(SchedulerMetrics metrics, Operation operation, Supplier<T> call) {
        long start = System.nanoTime();
        Outcome outcome = Outcome.REJECTED;
        try {
            T result = call.get();
            outcome = Outcome.SUCCESS;
            return result;
        } catch (ProblemException refused) {
            outcome = Outcome.of(refused.code());
            throw refused;
        } finally {
            metrics.operation(operation, outcome, System.nanoTime() - start);
        }
    }

    public static void measure(SchedulerMetrics metrics, Operation operation, Runnable call) {
        measure(metrics, operation, () -> {
            call.run();
            return null;
        });
    }
}
