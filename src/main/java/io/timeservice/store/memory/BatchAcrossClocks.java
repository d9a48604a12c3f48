package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import io.timeservice.model.AddOutcome;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.TimerRules;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics.Operation;

/**
 * A batch across clocks ({@link io.timeservice.store.TimerStore#batchAcross}) on the memory store: every part's
 * clock's lock held at once; every part decided ({@link TimerChanges#decideBatch}) in the order of the clocks' names,
 * the shared budget holding each part's running peak while the next is decided; then ONE
 * {@link Mutation.AcrossClocks} record holding every part's batch, appended through the shared journal; then every
 * part applied. The log is waited for once, after the locks are released. A refusal anywhere gives back what every
 * part took from the budget and changes nothing, on any clock, in memory or in the journal.
 *
 * <p>Lock order. The locks are taken in clock-number order, the one order of every path that holds several clocks'
 * locks: the snapshot cut ({@link ClocksJournal#snapshotNow}) holds every clock's lock in number order (numbers are
 * never reused, so the order is total over every clock that ever was). Nothing else holds two: a fork
 * ({@link ClocksJournal#forked}) and a load hold the registry monitor and at most the source's lock; creation,
 * deletion and reconfiguration hold the monitor and at most the one clock's lock; recovery rebuilds one clock at a
 * time before any serves. This class never takes the registry monitor, so a snapshot that waits for a lock held here
 * waits only for this batch; and two batches naming the same clocks in any order lock them in the same order, so
 * neither waits for the other for good. Thread-safe.
 */
final class BatchAcrossClocks {

    private final ClockRegistry registry;

    BatchAcrossClocks(ClockRegistry registry) {
        this.registry = registry;
    }

    /** A part as given: its index among the parts, the flat index of its first operation, its clock. */
    private record Part(int given, int firstIndex, ClockRegistry.Clock clock, List<? extends BatchOp> ops) {

        ClockKernel kernel() {
            return clock.scheduler().kernel();
        }

        TimerChanges changes() {
            return clock.scheduler().changes();
        }
    }

    /** See {@link io.timeservice.store.TimerStore#batchAcross}. */
    List<List<AddOutcome>> apply(List<ClockBatch> parts) {
        if (parts != null && parts.size() == 1 && parts.get(0) != null) {
            ClockBatch only = parts.get(0);
            return List.of(MemoryTimerStore.scheduler(registry, only.clock()).batchOutcomes(only.ops()));
        }
        TimerRules.requireBatchAcross(parts);
        List<Part> inNameOrder = new ArrayList<>(parts.size());
        int firstIndex = 0;
        for (int i = 0; i < parts.size(); i++) { // clock_not_found for the first missing clock in the order given
            ClockBatch part = parts.get(i);
            inNameOrder.add(new Part(i, firstIndex, registry.get(part.clockName()), part.ops()));
            firstIndex += part.ops().size();
        }
        inNameOrder.sort(Comparator.comparing(part -> part.clock().name()));
        List<Part> inLockOrder = new ArrayList<>(inNameOrder);
        inLockOrder.sort(Comparator.comparingLong(part -> part.clock().number()));
        ClockKernel first = inLockOrder.get(0).kernel();
        return first.measuredHolding(Operation.BATCH, () -> {
            List<BatchPlan> plans = new ArrayList<>(inNameOrder.size());
            long position;
            int held = 0;
            try {
                for (Part part : inLockOrder) {
                    part.clock().scheduler().holdForSnapshot();
                    held++;
                    part.kernel().requireServing();
                }
                position = decideAndApply(inNameOrder, plans);
            } finally {
                for (int i = held - 1; i >= 0; i--) {
                    inLockOrder.get(i).clock().scheduler().releaseForSnapshot();
                }
            }
            first.log().awaitDurable(position);
            List<List<AddOutcome>> results = new ArrayList<>(Collections.nCopies(parts.size(), null));
            for (int i = 0; i < inNameOrder.size(); i++) {
                results.set(inNameOrder.get(i).given(), plans.get(i).results());
            }
            return results;
        });
    }

    /**
     * Decides every part in name order into {@code plans}, appends their one record and applies them; the record's
     * position (with nothing to record, the log's last). Call holding every part's lock.
     */
    private static long decideAndApply(List<Part> parts, List<BatchPlan> plans) {
        try {
            for (Part part : parts) {
                plans.add(part.changes().decideBatch(part.ops(), part.firstIndex()));
            }
            List<Mutation.OnClock> records = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                BatchPlan plan = plans.get(i);
                if (!plan.mutations().isEmpty()) {
                    parts.get(i).changes().reserveSequences(plan);
                    records.add(new Mutation.OnClock(parts.get(i).clock().number(),
                            new Mutation.Batch(plan.mutations())));
                }
            }
            MutationLog log = parts.get(0).kernel().log();
            if (records.isEmpty()) { // every operation kept what was there: nothing to record
                return log.lastAppended();
            }
            Mutation.AcrossClocks record = new Mutation.AcrossClocks(records);
            long position = log.append(record); // every clock's view passes it on untagged: it names its clocks
            applyAll(parts, plans, record, position);
            return position;
        } catch (RuntimeException | Error refused) {
            for (BatchPlan plan : plans) {
                plan.giveBackReserved();
            }
            throw refused;
        }
    }

    /**
     * Applies every part the journal holds at {@code position}. A part whose apply fails stops its clock (fail-stop,
     * {@link ClockKernel#applyRecorded}); the others still apply, as recovery would, and the first failure is thrown.
     */
    private static void applyAll(List<Part> parts, List<BatchPlan> plans, Mutation.AcrossClocks record,
                                 long position) {
        Throwable failed = null;
        for (int i = 0; i < parts.size(); i++) {
            BatchPlan plan = plans.get(i);
            if (plan.mutations().isEmpty()) {
                continue;
            }
            try {
                parts.get(i).kernel().applyRecorded(record, position, Trace.NONE, () -> {
                    plan.apply();
                    return null;
                });
            } catch (RuntimeException | Error stopped) {
                failed = failed == null ? stopped : failed;
            }
        }
        if (failed instanceof Error error) {
            throw error;
        }
        if (failed != null) {
            throw (RuntimeException) failed;
        }
    }
}
