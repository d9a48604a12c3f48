package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.AddOutcome;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.OnConflict;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * The contract of a batch across clocks ({@link TimerStore#batchAcross}), run against every store: every clock's
 * part stored together, or, when any operation of any part is refused (capacity, a reserved id, the reservation
 * limit, a missing timer), nothing on any clock: no timer to read, no pending count, no budget taken; the parts
 * decided in the order of their clocks' names, a refusal naming its operation counted across the parts as given;
 * one part exactly a batch of its clock; and two such batches naming the clocks in opposite orders, run at once, both
 * finish.
 */
public abstract class BatchAcrossClocksStoreContract extends StoreContract {

    private static final ClockSettings DEDUPED = ClockSettings.VIRTUAL.withDedupeWindow(1_000);

    private static BatchOp add(String id) {
        return new BatchOp.Add(id, Due.after(5), 0, null);
    }

    private static ClockBatch part(String clock, BatchOp... ops) {
        return new ClockBatch(clock, List.of(ops));
    }

    private List<String> ids(String clock) {
        return timers().firstN(clock, 100).timers().stream().map(Timer::id).toList();
    }

    private void assertEmpty(String... clocks) {
        for (String clock : clocks) {
            assertThat(timers().status(clock).size()).as("pending on " + clock).isZero();
            assertThat(ids(clock)).as(clock).isEmpty();
        }
    }

    @Test
    void everyPart_isStored_andEachPartsOutcomesAnswerInTheOrderGiven() {
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        clocks().create("b", 0, ClockSettings.VIRTUAL);
        timers().add("a", "kept", 9, 0, null, Trace.NONE);

        List<List<AddOutcome>> outcomes = timers().batchAcross(List.of(
                part("b", add("b1"), add("b2")),
                part("a", add("a1"), new BatchOp.Add("kept", Due.after(1), 0, null, null, null, OnConflict.KEEP)),
                part(null, add("d1"))));

        assertThat(outcomes).hasSize(3);
        assertThat(outcomes.get(0)).extracting(outcome -> outcome.timer().id()).containsExactly("b1", "b2");
        assertThat(outcomes.get(1)).extracting(AddOutcome::result)
                .containsExactly(AddOutcome.Result.ADDED, AddOutcome.Result.KEPT);
        assertThat(outcomes.get(2).get(0).timer().id()).isEqualTo("d1");
        assertThat(ids("a")).containsExactly("a1", "kept");
        assertThat(ids("b")).containsExactly("b1", "b2");
        assertThat(ids(null)).containsExactly("d1");
        assertThat(timers().get("b", "b2")).isEqualTo(outcomes.get(0).get(1).timer());
    }

    @Test
    void aLaterPartBeyondTheCapacity_leavesNothingOnAnyClock_andTakesNoBudget() {
        reopen(Stores.Limits.ROOMY.withCapacity(3, 10_000));
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        clocks().create("b", 0, ClockSettings.VIRTUAL);

        ProblemException refused = assertRefused(() -> timers().batchAcross(List.of(
                        part("a", add("a1"), add("a2")), part("b", add("b1"), add("b2")))),
                ErrorCode.CAPACITY_EXCEEDED, "operation 3: the queue holds its capacity of 3 pending timers");
        assertThat(refused.opIndex()).isEqualTo(3);
        assertEmpty("a", "b");
        assertRefused(() -> timers().get("a", "a1"), ErrorCode.TIMER_NOT_FOUND, "no pending timer has id a1");

        // decided in name order (a, then b) whatever the order given: b's second operation is the one beyond
        ProblemException reordered = assertRefused(() -> timers().batchAcross(List.of(
                        part("b", add("b1"), add("b2")), part("a", add("a1"), add("a2")))),
                ErrorCode.CAPACITY_EXCEEDED, "operation 1: the queue holds its capacity of 3 pending timers");
        assertThat(reordered.opIndex()).isEqualTo(1);
        assertEmpty("a", "b");

        assertThat(timers().batchAcross(List.of(part("b", add("b1")), part("a", add("a1"), add("a2")))))
                .hasSize(2);
        assertThat(ids("a")).containsExactly("a1", "a2");
        assertThat(ids("b")).containsExactly("b1");
        assertRefused(() -> timers().add("b", "b2", 5, 0, null, Trace.NONE), ErrorCode.CAPACITY_EXCEEDED,
                "the queue holds its capacity of 3 pending timers");
    }

    @Test
    void aReservedIdReplacedInALaterPart_isRefusedAsTheSingleAddIs_andNothingStays() {
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        clocks().create("b", 0, DEDUPED);
        timers().add("b", "r", 5, 0, null, Trace.NONE);
        timers().cancel("b", "r", Precondition.NONE, Trace.NONE);
        BatchOp.Add replace = new BatchOp.Add("r", Due.after(5), 0, null, null, null, OnConflict.REPLACE);
        ProblemException single = catchThrowableOfType(ProblemException.class,
                () -> timers().add("b", "r", Due.after(5), 0, null, OnConflict.REPLACE));
        assertThat(single.code()).isEqualTo(ErrorCode.DUPLICATE_ID);

        assertRefused(() -> timers().batchAcross(List.of(part("a", add("a1")), part("b", add("b1"), replace))),
                ErrorCode.DUPLICATE_ID, "operation 2: " + single.getMessage());
        assertEmpty("a", "b");
    }

    @Test
    void theReservationLimitInALaterPart_leavesNothingOnAnyClock() {
        reopen(Stores.Limits.ROOMY.withMaxReservations(1));
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        clocks().create("b", 0, DEDUPED);
        timers().add("b", "r", 5, 0, null, Trace.NONE);
        timers().cancel("b", "r", Precondition.NONE, Trace.NONE);

        assertRefused(() -> timers().batchAcross(List.of(part("a", add("a1")), part("b", add("b1")))),
                ErrorCode.RESERVATION_LIMIT, "operation 1: the service holds its limit of 1 reserved ids"
                        + " (timeservice.dedupe.max-reservations); an add on a clock with a dedupeWindow waits until"
                        + " some expire or are released");
        assertEmpty("a", "b");
    }

    @Test
    void aRefusalInAnEarlierPart_namesItsOperation_andAMissingClockIsNamedFirst() {
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        clocks().create("b", 0, ClockSettings.VIRTUAL);

        assertRefused(() -> timers().batchAcross(List.of(part("b", add("b1")),
                        part("a", add("a1"), new BatchOp.Cancel("none", Precondition.NONE)))),
                ErrorCode.TIMER_NOT_FOUND, "operation 2: no pending timer has id none");
        assertRefused(() -> timers().batchAcross(List.of(part("a", add("a1")), part("zz", add("z")),
                        part("b", new BatchOp.Cancel("none", Precondition.NONE)), part("yy", add("y")))),
                ErrorCode.CLOCK_NOT_FOUND, "no clock is named zz");
        assertEmpty("a", "b");
    }

    @Test
    void aBatchAcrossClocks_withoutParts_withAnEmptyPart_aClockTwice_orTooManyOperations_isRefused() {
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        assertRefused(() -> timers().batchAcross(List.of()), ErrorCode.INVALID_REQUEST,
                "a batch across clocks names 1 or more clocks");
        assertRefused(() -> timers().batchAcross(List.of(part("a", add("a1")), new ClockBatch(null, List.of()))),
                ErrorCode.INVALID_REQUEST, "a batch across clocks gives each clock 1 or more operations, not clock"
                        + " default");
        assertRefused(() -> timers().batchAcross(List.of(part(null, add("d1")), part("default", add("d2")))),
                ErrorCode.INVALID_REQUEST, "a batch across clocks names clock default twice");
        List<BatchOp> many = new ArrayList<>();
        for (int i = 0; i < Limits.MAX_BATCH_OPS; i++) {
            many.add(add("t" + i));
        }
        assertRefused(() -> timers().batchAcross(List.of(part("a", add("a1")), new ClockBatch(null, many))),
                ErrorCode.INVALID_REQUEST, "a batch holds 1 to " + Limits.MAX_BATCH_OPS + " operations, got "
                        + (Limits.MAX_BATCH_OPS + 1));
        assertEmpty("a", "default");
    }

    @Test
    void onePart_isABatchOfItsClock() {
        assertRefused(() -> timers().batchAcross(List.of(new ClockBatch(null, List.of()))), ErrorCode.INVALID_REQUEST,
                "a batch holds 1 to " + Limits.MAX_BATCH_OPS + " operations, got 0");
        List<List<AddOutcome>> outcomes = timers().batchAcross(List.of(part(null, add("x"),
                new BatchOp.Cancel("x", Precondition.NONE), add("x"))));
        assertThat(outcomes).hasSize(1);
        assertThat(outcomes.get(0)).hasSize(3);
        assertThat(outcomes.get(0).get(2).timer()).isEqualTo(timers().get(null, "x"));
        assertThat(ids(null)).containsExactly("x");
    }

    /**
     * Two threads at once, each running batches that name clocks a and b in the opposite order of the other's: every
     * batch finishes within a bound (no lock taken in two orders), each storing both its parts.
     */
    @Test
    void batchesNamingTheClocksInOppositeOrders_atOnce_allFinish() throws Exception {
        clocks().create("a", 0, ClockSettings.VIRTUAL);
        clocks().create("b", 0, ClockSettings.VIRTUAL);
        int rounds = 50;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (List<String> order : List.of(List.of("a", "b"), List.of("b", "a"))) {
                String thread = order.get(0);
                Callable<Integer> batches = () -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        timers().batchAcross(List.of(part(order.get(0), add(thread + "-x" + i)),
                                part(order.get(1), add(thread + "-y" + i), add(thread + "-z" + i))));
                    }
                    return rounds;
                };
                done.add(threads.submit(batches));
            }
            start.countDown();
            for (Future<Integer> each : done) {
                assertThat(each.get(60, TimeUnit.SECONDS)).isEqualTo(rounds);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(timers().status("a").size()).isEqualTo(3 * rounds);
        assertThat(timers().status("b").size()).isEqualTo(3 * rounds);
    }
}
