package io.timeservice.store.postgres;

import io.timeservice.model.BatchOp;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;

/**
 * The running totals of a batch ({@link PostgresTimerChanges#batch}), operation by operation, as the memory store
 * reserves them (its running peak, {@code BatchPlan}): the net change after each operation, and the peak and net
 * over the operations so far; and which operation a short budget refuses. A batch across clocks counts its parts
 * one after another ({@link #startPart}): as the memory store holds each part's peak while it decides the next, a
 * part's running totals start from the earlier parts' peaks. Not thread-safe: one batch's transaction uses it.
 */
final class BatchNeeds {
    private final long[] timersAfter;
    private final long[] bytesAfter;
    /** Each counted operation's index as the refusal names it. */
    private final int[] opIndexes;
    private int count;
    private int nextIndex;
    /** The earlier parts' peaks, from which this part's running totals count. */
    private long baseTimers;
    private long baseBytes;
    private long partTimers;
    private long partBytes;
    long netTimers;
    long netBytes;
    long peakTimers;
    long peakBytes;

    BatchNeeds(int size) {
        timersAfter = new long[size];
        bytesAfter = new long[size];
        opIndexes = new int[size];
    }

    /** The operations counted next are a new part's, the first of them named {@code firstIndex}. */
    void startPart(int firstIndex) {
        baseTimers = peakTimers;
        baseBytes = peakBytes;
        partTimers = 0;
        partBytes = 0;
        nextIndex = firstIndex;
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

    /** The index the next operation counted will be named by (a refusal of it names this). */
    int nextIndex() {
        return nextIndex;
    }

    /** The next operation changed the pending timers by {@code timers} and their bytes by {@code bytes}. */
    void after(long timers, long bytes) {
        netTimers += timers;
        netBytes += bytes;
        partTimers += timers;
        partBytes += bytes;
        peakTimers = Math.max(peakTimers, baseTimers + partTimers);
        peakBytes = Math.max(peakBytes, baseBytes + partBytes);
        timersAfter[count] = baseTimers + partTimers;
        bytesAfter[count] = baseBytes + partBytes;
        opIndexes[count] = nextIndex++;
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
                return PostgresTimerChanges.capacityRefusal(true, 0, 0, true, budget).atOp(opIndexes[i]);
            }
            if (bytesAfter[i] > availableBytes) {
                return PostgresTimerChanges.capacityRefusal(false, pendingBytes + peakBytesBefore,
                        bytesAfter[i] - peakBytesBefore, true, budget).atOp(opIndexes[i]);
            }
            peakBytesBefore = Math.max(peakBytesBefore, bytesAfter[i]);
        }
        return null;
    }
}
