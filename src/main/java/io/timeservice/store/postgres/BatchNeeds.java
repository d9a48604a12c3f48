package io.timeservice.store.postgres;

import io.timeservice.model.BatchOp;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;

/**
 * The running totals of a batch ({@link PostgresTimerChanges#batch}), operation by operation, as the memory store
 * reserves them (its running peak, {@code BatchPlan}): the net change after each operation, and the peak and net
 * over the operations so far; and which operation a short budget refuses. Not thread-safe: one batch's transaction
 * uses it.
 */
final class BatchNeeds {
    private final long[] timersAfter;
    private final long[] bytesAfter;
    private int count;
    long netTimers;
    long netBytes;
    long peakTimers;
    long peakBytes;

    BatchNeeds(int size) {
        timersAfter = new long[size];
        bytesAfter = new long[size];
    }

    /** {@code op} was applied and answered {@code result}: the totals after it. */
    void after(BatchOp op, Timer result) {
        long bytes = Limits.bytesOf(result.id(), result.payload());
        if (op instanceof BatchOp.Add) {
            after(1, bytes);
        } else if (op instanceof BatchOp.Cancel) {
            after(-1, -bytes);
        } else {
            after(0, 0);
        }
    }

    /** The next operation changed the pending timers by {@code timers} and their bytes by {@code bytes}. */
    void after(long timers, long bytes) {
        netTimers += timers;
        netBytes += bytes;
        peakTimers = Math.max(peakTimers, netTimers);
        peakBytes = Math.max(peakBytes, netBytes);
        timersAfter[count] = netTimers;
        bytesAfter[count] = netBytes;
        count++;
    }

    /**
     * The refusal of the first operation whose running total goes beyond what was available (capacity minus the
     * pending total, {@code pendingBytes} of them bytes), at its index; null when none does.
     */
    ProblemException firstBeyond(long availableTimers, long availableBytes, long pendingBytes,
                                 PendingBudgetStripes budget) {
        long peakBytesBefore = 0;
        for (int i = 0; i < count; i++) {
            if (timersAfter[i] > availableTimers) {
                return PostgresTimerChanges.capacityRefusal(true, 0, 0, true, budget).atOp(i);
            }
            if (bytesAfter[i] > availableBytes) {
                return PostgresTimerChanges.capacityRefusal(false, pendingBytes + peakBytesBefore,
                        bytesAfter[i] - peakBytesBefore, true, budget).atOp(i);
            }
            peakBytesBefore = Math.max(peakBytesBefore, bytesAfter[i]);
        }
        return null;
    }
}
