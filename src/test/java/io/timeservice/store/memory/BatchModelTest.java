package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import io.timeservice.model.BatchOp;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Atomic batches against a reference model: seeded random batches (valid and failing) mixed with single calls. A
 * batch's results, and the state after it, must be what applying its operations one by one to the model gives; a
 * batch the model refuses must be refused with the first failing operation's code and index and change nothing (state,
 * next sequence, shared budget, journal records). At the end the journal, batches included, must rebuild the same
 * state. To replay a failure, run the case with the seed in its name.
 */
class BatchModelTest {

    private static final int CAPACITY = 12;
    private static final long CAPACITY_BYTES = 120;
    private static final long WALL = 1_700_000_000_000L;

    static Stream<Long> seeds() {
        return Stream.of(1L, 2L, 3L, 4L, 5L, 6L);
    }

    /** The reference: pending timers by id, the clock, the last sequence; refusals as (code, index). */
    private static final class Model {
        Map<String, Timer> timers = new HashMap<>();
        long now;
        long lastSequence;

        Model copy() {
            Model copy = new Model();
            copy.timers = new HashMap<>(timers);
            copy.now = now;
            copy.lastSequence = lastSequence;
            return copy;
        }

        long bytes() {
            return timers.values().stream().mapToLong(Capacity::bytesOf).sum();
        }

        /** Applies one operation or throws the refusal the scheduler's single call would give. */
        Timer apply(BatchOp op) {
            if (op instanceof BatchOp.Add add) {
                if (!add.id().matches("[A-Za-z0-9._~:-]{1,128}")) {
                    throw refusal(ErrorCode.INVALID_ID);
                }
                requireDelay(delayOf(add.due()));
                if (timers.containsKey(add.id())) {
                    throw refusal(ErrorCode.DUPLICATE_ID);
                }
                if (timers.size() + 1 > CAPACITY || bytes() + Capacity.bytesOf(add.id(), add.payload())
                        > CAPACITY_BYTES) {
                    throw refusal(ErrorCode.CAPACITY_EXCEEDED);
                }
                Timer added = new Timer(add.id(), now + delayOf(add.due()), add.priority(), ++lastSequence, 1, now,
                        add.payload());
                timers.put(added.id(), added);
                return added;
            }
            if (op instanceof BatchOp.Edit edit) {
                if (edit.due() == null && edit.priority() == null) {
                    throw refusal(ErrorCode.INVALID_REQUEST);
                }
                if (edit.due() != null) {
                    requireDelay(delayOf(edit.due()));
                }
                Timer current = requireCurrent(edit.id(), edit.precondition());
                Timer edited = new Timer(current.id(), edit.due() == null ? current.fireTime() : now + delayOf(edit.due()),
                        edit.priority() == null ? current.priority() : edit.priority(), current.sequence(),
                        current.version() + 1, current.createdAt(), current.payload());
                timers.put(edited.id(), edited);
                return edited;
            }
            BatchOp.Cancel cancel = (BatchOp.Cancel) op;
            Timer current = requireCurrent(cancel.id(), cancel.precondition());
            timers.remove(current.id());
            return current;
        }

        private Timer requireCurrent(String id, Precondition precondition) {
            Timer current = timers.get(id);
            if (current == null) {
                throw refusal(ErrorCode.TIMER_NOT_FOUND);
            }
            if (!precondition.accepts(current.revision())) {
                throw refusal(ErrorCode.PRECONDITION_FAILED);
            }
            return current;
        }

        /** The operations here are due after a delay (TimerStoreContract's random walk covers absolute times). */
        private static long delayOf(Due due) {
            return ((Due.After) due).delay();
        }

        private static void requireDelay(long delay) {
            if (delay < 0 || delay > Limits.MAX_DELAY) {
                throw refusal(ErrorCode.INVALID_DELAY);
            }
        }

        List<Timer> sorted() {
            List<Timer> all = new ArrayList<>(timers.values());
            all.sort(Timer::compareFiringOrder);
            return all;
        }
    }

    private static ProblemException refusal(ErrorCode code) {
        return new ProblemException(code, "model");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomBatchesAndSingleCalls_matchTheModel_andFailedBatchesChangeNothing(long seed) {
        Random random = new Random(seed);
        PendingBudget budget = new PendingBudget(CAPACITY, CAPACITY_BYTES);
        TimerScheduler scheduler = new TimerScheduler(new VirtualClock(0), 4, budget, () -> WALL,
                SchedulerMetrics.NONE);
        RecordingLog log = new RecordingLog();
        scheduler.attachLog(log);
        Model model = new Model();
        int batchesApplied = 0;
        int batchesRefused = 0;
        for (int step = 0; step < 1500; step++) {
            String context = "seed " + seed + " step " + step;
            int kind = random.nextInt(10);
            if (kind < 5) {
                List<BatchOp> ops = new ArrayList<>();
                int size = 1 + random.nextInt(6);
                for (int i = 0; i < size; i++) {
                    ops.add(randomOp(random, model));
                }
                Model expected = model.copy();
                List<Timer> expectedResults = new ArrayList<>();
                int failingIndex = -1;
                ErrorCode failingCode = null;
                for (int i = 0; i < ops.size() && failingIndex < 0; i++) {
                    try {
                        expectedResults.add(expected.apply(ops.get(i)));
                    } catch (ProblemException refused) {
                        failingIndex = i;
                        failingCode = refused.code();
                    }
                }
                int recordsBefore = log.records().size();
                long budgetTimers = budget.timers();
                long budgetBytes = budget.bytes();
                if (failingIndex < 0) {
                    assertThat(scheduler.batch(ops)).as(context + " " + ops).isEqualTo(expectedResults);
                    model = expected;
                    // one record (after a sequence reservation when the batch's adds need one)
                    assertThat(log.records().subList(recordsBefore, log.records().size()))
                            .filteredOn(record -> !(record instanceof Mutation.SequencesReserved)).as(context)
                            .singleElement().isInstanceOf(Mutation.Batch.class);
                    batchesApplied++;
                } else {
                    ProblemException refused = catchThrowableOfType(ProblemException.class,
                            () -> scheduler.batch(ops));
                    assertThat(refused).as(context + " " + ops).isNotNull();
                    assertThat(refused.code()).as(context + " " + ops).isEqualTo(failingCode);
                    assertThat(refused.opIndex()).as(context + " " + ops).isEqualTo(failingIndex);
                    assertThat(log.records()).as(context).hasSize(recordsBefore);
                    assertThat(budget.timers()).as(context).isEqualTo(budgetTimers);
                    assertThat(budget.bytes()).as(context).isEqualTo(budgetBytes);
                    batchesRefused++;
                }
            } else if (kind < 8) {
                BatchOp op = randomOp(random, model);
                Model expected = model.copy();
                ErrorCode expectedCode = null;
                Timer expectedResult = null;
                try {
                    expectedResult = expected.apply(op);
                } catch (ProblemException refused) {
                    expectedCode = refused.code();
                }
                try {
                    Timer result = single(scheduler, op);
                    assertThat(expectedCode).as(context + " " + op + " succeeded").isNull();
                    assertThat(result).as(context + " " + op).isEqualTo(expectedResult);
                    model = expected;
                } catch (ProblemException refused) {
                    assertThat(refused.code()).as(context + " " + op).isEqualTo(expectedCode);
                    assertThat(refused.opIndex()).isEqualTo(ProblemException.NO_OP_INDEX);
                }
            } else {
                long by = random.nextInt(4);
                scheduler.advance(by, Trace.NONE);
                model.now += by;
                long now = model.now;
                model.timers.values().removeIf(timer -> timer.fireTime() <= now);
            }
            assertThat(CoreTestSupport.pending(scheduler)).as(context).isEqualTo(model.sorted());
            assertThat(budget.timers()).as(context).isEqualTo(model.timers.size());
            assertThat(budget.bytes()).as(context).isEqualTo(model.bytes());
            assertThat(scheduler.pendingBytes()).as(context).isEqualTo(model.bytes());
            CoreTestSupport.assertInvariantsHold(scheduler, context);
        }
        assertThat(batchesApplied).as("batches applied").isGreaterThan(50);
        assertThat(batchesRefused).as("batches refused").isGreaterThan(50);
        // the next add's sequence follows the model's: refused batches took none
        Timer next = scheduler.add("next-one", 5, 0, null, Trace.NONE);
        assertThat(next.sequence()).isEqualTo(model.lastSequence + 1);

        TimerScheduler recovered = log.recover(4);
        assertThat(CoreTestSupport.pending(recovered)).isEqualTo(CoreTestSupport.pending(scheduler));
        assertThat(recovered.now()).isEqualTo(scheduler.now());
        assertThat(recovered.add("after", 1, 0, null, Trace.NONE).sequence()).isGreaterThan(next.sequence());
    }

    private static Timer single(TimerScheduler scheduler, BatchOp op) {
        if (op instanceof BatchOp.Add add) {
            return scheduler.add(add.id(), add.due(), add.priority(), add.payload(), Trace.NONE);
        }
        if (op instanceof BatchOp.Edit edit) {
            return scheduler.edit(edit.id(), edit.due(), edit.priority(), edit.precondition(), Trace.NONE);
        }
        BatchOp.Cancel cancel = (BatchOp.Cancel) op;
        return scheduler.cancel(cancel.id(), cancel.precondition(), Trace.NONE);
    }

    /** Ids from a tiny range so that duplicates, missing timers and add-after-cancel come up constantly. */
    private static BatchOp randomOp(Random random, Model model) {
        String id = random.nextInt(40) == 0 ? "bad id" : "t" + random.nextInt(8);
        int kind = random.nextInt(3);
        long delay = random.nextInt(40) == 0 ? -1 : random.nextInt(6);
        Precondition precondition = Precondition.NONE;
        Timer current = model.timers.get(id);
        int choice = random.nextInt(4);
        if (choice == 0 && current != null) {
            precondition = Precondition.ifMatch(current.revision());
        } else if (choice == 1) {
            precondition = Precondition.ifMatch(new Revision(random.nextInt(5), 1 + random.nextInt(2)));
        }
        return switch (kind) {
            case 0 -> new BatchOp.Add(id, delay, random.nextInt(3),
                    random.nextBoolean() ? null : "x".repeat(random.nextInt(20)));
            case 1 -> new BatchOp.Edit(id, random.nextInt(5) == 0 ? null : Due.after(delay),
                    random.nextBoolean() ? null : random.nextInt(3), precondition);
            default -> new BatchOp.Cancel(id, precondition);
        };
    }

    @Test
    void addThenEdit_cancelThenAdd_ofOneId_work_andTwoAddsAreADuplicate() {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(4, 10);
        scheduler.add("a", 10, 0, null, Trace.NONE);
        List<Timer> results = scheduler.batch(List.of(new BatchOp.Add("b", 5, 0, "1"),
                new BatchOp.Edit("b", Due.after(7), 2, null), new BatchOp.Cancel("a", null), new BatchOp.Add("a", 1, 0, null)));
        assertThat(results).extracting(Timer::id).containsExactly("b", "b", "a", "a");
        assertThat(results.get(1).version()).isEqualTo(2);
        assertThat(results.get(1).fireTime()).isEqualTo(7);
        assertThat(results.get(3).sequence()).isGreaterThan(results.get(0).sequence());
        assertThat(CoreTestSupport.pending(scheduler)).extracting(Timer::id).containsExactly("a", "b");

        ProblemException refused = catchThrowableOfType(ProblemException.class, () -> scheduler.batch(List.of(
                new BatchOp.Add("c", 1, 0, null), new BatchOp.Add("c", 1, 0, null))));
        assertThat(refused.code()).isEqualTo(ErrorCode.DUPLICATE_ID);
        assertThat(refused.opIndex()).isEqualTo(1);
        assertThat(refused.getMessage()).startsWith("operation 1: ");
        assertThat(CoreTestSupport.pending(scheduler)).extracting(Timer::id).containsExactly("a", "b");
    }

    @Test
    void capacity_isCountedOverTheWholeBatch_andACancelMakesRoomForALaterAdd() {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(2, 2);
        scheduler.add("a", 10, 0, null, Trace.NONE);
        ProblemException refused = catchThrowableOfType(ProblemException.class, () -> scheduler.batch(List.of(
                new BatchOp.Add("b", 1, 0, null), new BatchOp.Add("c", 1, 0, null))));
        assertThat(refused.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED);
        assertThat(refused.opIndex()).isEqualTo(1);
        assertThat(scheduler.batch(List.of(new BatchOp.Cancel("a", null), new BatchOp.Add("b", 1, 0, null),
                new BatchOp.Add("c", 1, 0, null)))).hasSize(3);
        assertThat(CoreTestSupport.pending(scheduler)).extracting(Timer::id).containsExactly("b", "c");
    }

    @Test
    void sizeOutsideOneToAThousand_isAnInvalidRequestWithoutIndex() {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(2, 2000);
        assertThatThrownBy(() -> scheduler.batch(List.of()))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                    assertThat(e.opIndex()).isEqualTo(ProblemException.NO_OP_INDEX);
                });
        List<BatchOp> tooMany = new ArrayList<>();
        for (int i = 0; i <= Limits.MAX_BATCH_OPS; i++) {
            tooMany.add(new BatchOp.Add("t" + i, 1, 0, null));
        }
        assertThatThrownBy(() -> scheduler.batch(tooMany)).hasMessageContaining("got 1001");
        assertThat(scheduler.batch(tooMany.subList(0, Limits.MAX_BATCH_OPS))).hasSize(1000);
    }

    @Test
    void aFailureAfterTheAppend_stopsTheScheduler_andAnAppendThatThrows_changesNothing() {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(2, 10);
        RecordingLog log = new RecordingLog();
        scheduler.attachLog(log);
        scheduler.add("a", 1, 0, null, Trace.NONE);
        log.failNextAppend(new IllegalStateException("test: disk full"));
        assertThatThrownBy(() -> scheduler.batch(List.of(new BatchOp.Add("b", 1, 0, null))))
                .hasMessageContaining("disk full");
        assertThat(CoreTestSupport.pending(scheduler)).extracting(Timer::id).containsExactly("a");
        assertThat(scheduler.batch(List.of(new BatchOp.Add("b", 1, 0, null)))).hasSize(1);
        assertThat(log.records()).filteredOn(Mutation.Batch.class::isInstance).hasSize(1);
    }

    @Test
    void orderOfFiring_isSortedBySequenceWithinTheBatch() {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(2, 10);
        scheduler.batch(List.of(new BatchOp.Add("z", 1, 0, null), new BatchOp.Add("y", 1, 0, null)));
        assertThat(CoreTestSupport.pending(scheduler)).extracting(Timer::id).containsExactly("z", "y");
        assertThat(CoreTestSupport.pending(scheduler)).isSortedAccordingTo(Comparator.comparingLong(Timer::sequence));
    }
}
