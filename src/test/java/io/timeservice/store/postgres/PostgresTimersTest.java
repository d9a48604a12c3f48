package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL store's timer operations against a real PostgreSQL, one clock per test (the schema is the class's
 * own): each operation's result and every refusal, with the memory store's codes, in its order.
 */
class PostgresTimersTest {

    private static final int CAPACITY = 6;
    private static final long CAPACITY_BYTES = 64;

    private static TestDatabase database;
    private static PostgresStore store;
    private static FreshClocks clocks;
    private String clock;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(PostgresTimersTest.class, 4);
        store = PostgresStore.open(database.dataSource(), CAPACITY, CAPACITY_BYTES, 1_000, ClockSettings.Mode.VIRTUAL);
        clocks = new FreshClocks(store, "c");
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    /** A fresh virtual clock at 100 on an empty budget. */
    @BeforeEach
    void freshClock() {
        clock = clocks.next(100, null);
    }

    private PostgresTimers timers() {
        return store.timers();
    }

    private static ErrorCode codeOf(Throwable thrown) {
        return ((ProblemException) thrown).code();
    }

    @Test
    void add_thenGet_returnsTheTimerDueAtNowPlusDelay() {
        Timer added = timers().add(clock, "a", 5, 2, "{\"k\":1}");

        assertThat(added).extracting(Timer::id, Timer::fireTime, Timer::priority, Timer::version, Timer::createdAt,
                Timer::payload).containsExactly("a", 105L, 2, 1L, 100L, "{\"k\":1}");
        assertThat(timers().get(clock, "a")).isEqualTo(added);
    }

    @Test
    void add_keepsThePayloadTextExactly() {
        String payload = "{\"b\":1e2,\"a\":[1.0,\"\\u00e9\"],\"b2\":null}";

        timers().add(clock, "p", 0, 0, payload);

        assertThat(timers().get(clock, "p").payload()).isEqualTo(payload);
    }

    @Test
    void aDuplicateAdd_usesUpNoSequence_asInMemory() {
        long first = timers().add(clock, "a", 1, 0, null).sequence();

        assertThatThrownBy(() -> timers().add(clock, "a", 1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.DUPLICATE_ID));

        assertThat(timers().add(clock, "b", 1, 0, null).sequence()).isEqualTo(first + 1);
    }

    @Test
    void add_refusesInTheMemoryStoresOrder() {
        timers().add(clock, "a", 1, 0, null);

        assertThatThrownBy(() -> timers().add("nope", "bad id", -1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        assertThatThrownBy(() -> timers().add(clock, "bad id", -1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID));
        assertThatThrownBy(() -> timers().add(clock, "a", -1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_DELAY));
        assertThatThrownBy(() -> timers().add(clock, "a", Limits.MAX_DELAY + 1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_DELAY));
        assertThatThrownBy(() -> timers().add(clock, "a", 1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.DUPLICATE_ID));
        assertThatThrownBy(() -> timers().add(clock, "..", 1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID));
    }

    @Test
    void add_beyondCapacity_isRefused_andCancelMakesRoom() {
        for (int i = 0; i < CAPACITY; i++) {
            timers().add(clock, "t" + i, i, 0, null);
        }

        assertThatThrownBy(() -> timers().add(clock, "over", 1, 0, null))
                .hasMessage("the queue holds its capacity of " + CAPACITY + " pending timers")
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));
        timers().cancel(clock, "t0", Precondition.NONE);
        timers().add(clock, "over", 1, 0, null);
    }

    @Test
    void add_beyondCapacityBytes_isRefused() {
        timers().add(clock, "big", 0, 0, "\"" + "x".repeat(50) + "\""); // 3 + 52 = 55 of 64 bytes

        assertThatThrownBy(() -> timers().add(clock, "b", 0, 0, "\"123456789\""))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CAPACITY_EXCEEDED))
                .hasMessageContaining("hold 55 of the queue's 64 payload bytes")
                .hasMessageEndingWith("this timer needs 12");
        timers().add(clock, "b", 0, 0, "\"123456\""); // 9: fits exactly
    }

    @Test
    void reusedId_getsANewSequence_soTheOldRevisionNoLongerMatches() {
        Timer first = timers().add(clock, "r", 10, 0, null);
        timers().cancel(clock, "r", Precondition.ifMatch(first.revision()));
        Timer second = timers().add(clock, "r", 10, 0, null);

        assertThat(second.sequence()).isGreaterThan(first.sequence());
        assertThatThrownBy(() -> timers().cancel(clock, "r", Precondition.ifMatch(first.revision())))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PRECONDITION_FAILED))
                .hasMessage("timer r is at revision " + second.sequence() + "-1, which the precondition does not"
                        + " name");
    }

    @Test
    void cancel_returnsTheTimerAsItWas_andRefusesUnknownOnes() {
        Timer added = timers().add(clock, "c", 3, 1, "[]");

        assertThat(timers().cancel(clock, "c", Precondition.NONE)).isEqualTo(added);
        assertThatThrownBy(() -> timers().get(clock, "c"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.TIMER_NOT_FOUND));
        assertThatThrownBy(() -> timers().cancel(clock, "c", Precondition.NONE))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.TIMER_NOT_FOUND));
        assertThatThrownBy(() -> timers().cancel("nope", "c", Precondition.NONE))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
    }

    @Test
    void edit_movesFromNow_keepsTheSequence_andCountsAVersion() {
        Timer added = timers().add(clock, "e", 50, 0, "1");
        timers().advance(clock, 20L, null, Integer.MAX_VALUE);

        Timer edited = timers().edit(clock, "e", 5L, null, Precondition.ifMatch(added.revision()));

        assertThat(edited).isEqualTo(new Timer("e", 125, 0, added.sequence(), 2, 100, "1"));
        assertThat(timers().get(clock, "e")).isEqualTo(edited);
        assertThat(timers().edit(clock, "e", (Due) null, -7, Precondition.NONE))
                .isEqualTo(new Timer("e", 125, -7, added.sequence(), 3, 100, "1"));
    }

    @Test
    void edit_refusesInTheMemoryStoresOrder() {
        Timer added = timers().add(clock, "e", 50, 0, null);
        Precondition stale = Precondition.ifMatch(new Revision(added.sequence(), 2));

        assertThatThrownBy(() -> timers().edit(clock, "e", (Due) null, null, stale))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));
        assertThatThrownBy(() -> timers().edit(clock, "missing", -1L, null, stale))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_DELAY));
        assertThatThrownBy(() -> timers().edit(clock, "missing", 1L, null, stale))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.TIMER_NOT_FOUND));
        assertThatThrownBy(() -> timers().edit(clock, "e", 1L, null, stale))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        assertThat(timers().get(clock, "e")).isEqualTo(added);
    }

    @Test
    void edit_atTheVersionLimit_isRefused() {
        Timer added = timers().add(clock, "v", 50, 0, null);
        database.execute("UPDATE timers SET version = " + Timer.MAX_VERSION + " WHERE seq = " + added.sequence());

        assertThatThrownBy(() -> timers().edit(clock, "v", (Due) null, 1, Precondition.NONE))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.VERSION_LIMIT_REACHED));
    }

    @Test
    void advance_firesInFiringOrder_fireTimeThenPriorityThenSequence() {
        timers().add(clock, "late", 9, -5, null);
        timers().add(clock, "tie-second", 3, 1, null);
        timers().add(clock, "tie-first", 3, 1, null);
        timers().add(clock, "urgent", 3, 0, null);
        timers().add(clock, "early", 1, 9, null);
        timers().add(clock, "pending", 11, 0, null);
        // the two ties differ only in sequence: the one added first fires first
        timers().edit(clock, "tie-second", (Due) null, 1, Precondition.NONE);

        AdvanceResult result = timers().advance(clock, 10L, null, Integer.MAX_VALUE);

        assertThat(result.now()).isEqualTo(110);
        assertThat(result.complete()).isTrue();
        assertThat(result.fired()).extracting(Timer::id)
                .containsExactly("early", "urgent", "tie-second", "tie-first", "late");
        assertThat(timers().firstN(clock, 10).timers()).extracting(Timer::id).containsExactly("pending");
    }

    @Test
    void advance_boundedByLimit_stopsAtTheLastFired_andContinuesWhereItStopped() {
        timers().add(clock, "a", 1, 0, null);
        timers().add(clock, "b", 2, 0, null);
        timers().add(clock, "c", 2, 1, null);
        timers().add(clock, "d", 4, 0, null);

        AdvanceResult first = timers().advance(clock, null, 110L, 2);
        AdvanceResult second = timers().advance(clock, null, 110L, 2);
        AdvanceResult third = timers().advance(clock, null, 110L, 2);

        assertThat(first.fired()).extracting(Timer::id).containsExactly("a", "b");
        assertThat(first).extracting(AdvanceResult::now, AdvanceResult::complete).containsExactly(102L, false);
        assertThat(second.fired()).extracting(Timer::id).containsExactly("c", "d");
        assertThat(second).extracting(AdvanceResult::now, AdvanceResult::complete).containsExactly(110L, true);
        assertThat(third.fired()).isEmpty();
        assertThat(store.clocks().get(clock).now()).isEqualTo(110);
    }

    @Test
    void advance_refusals() {
        assertThatThrownBy(() -> timers().advance(clock, 1L, 2L, 1))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));
        assertThatThrownBy(() -> timers().advance(clock, 1L, null, 0))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_LIMIT));
        assertThatThrownBy(() -> timers().advance(clock, null, 99L, 1))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ADVANCE));
        assertThatThrownBy(() -> timers().advance(clock, -1L, null, 1))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ADVANCE));
        assertThatThrownBy(() -> timers().advance(clock, null, 100 + Limits.MAX_DELAY + 1, 1))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ADVANCE));
        assertThat(store.clocks().get(clock).now()).isEqualTo(100);
    }

    @Test
    void advance_givesTheFiredTimersBudgetBack() {
        for (int i = 0; i < CAPACITY; i++) {
            timers().add(clock, "t" + i, 1, 0, null);
        }
        timers().advance(clock, 1L, null, Integer.MAX_VALUE);

        for (int i = 0; i < CAPACITY; i++) {
            timers().add(clock, "u" + i, 1, 0, null);
        }
        assertThatThrownBy(() -> timers().add(clock, "over", 1, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));
    }

    @Test
    void dueBy_previewsWhatAnAdvanceWouldFire_changingNothing() {
        timers().add(clock, "a", 5, 0, null);
        timers().add(clock, "b", 1, 0, null);
        timers().add(clock, "c", 50, 0, null);

        var listing = timers().dueBy(clock, 105, 10);

        assertThat(listing.now()).isEqualTo(100);
        assertThat(listing.size()).isEqualTo(3);
        assertThat(listing.timers()).extracting(Timer::id).containsExactly("b", "a");
        assertThat(timers().dueBy(clock, 105, 1).timers()).extracting(Timer::id).containsExactly("b");
        assertThat(timers().peek(clock).id()).isEqualTo("b");
        assertThatThrownBy(() -> timers().dueBy(clock, 105, 0))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_LIMIT));
    }

    @Test
    void peek_onAnEmptyClock_isQueueEmpty() {
        assertThatThrownBy(() -> timers().peek(clock))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.QUEUE_EMPTY));
        assertThat(timers().dueBy(clock, Long.MAX_VALUE, 5).size()).isZero();
    }

    @Test
    void batch_appliesInOrder_eachSeeingTheOnesBefore() {
        Timer c = timers().add(clock, "C", 7, 0, null);

        List<Timer> results = timers().batch(clock, List.of(
                new BatchOp.Add("A", 5, 0, null),
                new BatchOp.Add("B", 9, 1, "{\"customer\":7}"),
                new BatchOp.Edit("A", Due.after(12), null, null),
                new BatchOp.Cancel("C", Precondition.ifMatch(c.revision())),
                new BatchOp.Add("C", 1, 0, null)));

        assertThat(results).extracting(Timer::id, Timer::fireTime, Timer::version)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A", 105L, 1L),
                        org.assertj.core.groups.Tuple.tuple("B", 109L, 1L),
                        org.assertj.core.groups.Tuple.tuple("A", 112L, 2L),
                        org.assertj.core.groups.Tuple.tuple("C", 107L, 1L),
                        org.assertj.core.groups.Tuple.tuple("C", 101L, 1L));
        assertThat(results.get(1).sequence()).isGreaterThan(results.get(0).sequence());
        assertThat(timers().firstN(clock, 10).timers()).extracting(Timer::id).containsExactly("C", "B", "A");
    }

    @Test
    void batchOfConsecutiveAdds_drawsSequencesInOrder_andRefusesTheFirstDuplicateOrBadAddAtItsIndex() {
        timers().add(clock, "P", 50, 0, null);

        List<Timer> run = timers().batch(clock, List.of(new BatchOp.Add("z", 3, 0, null),
                new BatchOp.Add("a", 3, 0, "{}"), new BatchOp.Add("m", 1, 2, null)));
        assertThat(run).extracting(Timer::id).containsExactly("z", "a", "m");
        assertThat(run).extracting(Timer::sequence).isSorted().doesNotHaveDuplicates();
        assertThat(timers().firstN(clock, 10).timers()).extracting(Timer::id).containsExactly("m", "z", "a", "P");

        // an id twice in one run: the second is the duplicate; a pending id; a bad id before a duplicate wins
        assertThatThrownBy(() -> timers().batch(clock, List.of(new BatchOp.Add("q", 1, 0, null),
                new BatchOp.Add("r", 1, 0, null), new BatchOp.Add("q", 1, 0, null))))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.DUPLICATE_ID))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(2));
        assertThatThrownBy(() -> timers().batch(clock, List.of(new BatchOp.Add("q", 1, 0, null),
                new BatchOp.Add("P", 1, 0, null), new BatchOp.Add("bad id", 1, 0, null))))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.DUPLICATE_ID))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(1));
        assertThatThrownBy(() -> timers().batch(clock, List.of(new BatchOp.Add("q", 1, 0, null),
                new BatchOp.Add("bad id", 1, 0, null), new BatchOp.Add("P", 1, 0, null))))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(1));
        assertThat(timers().firstN(clock, 10).timers()).extracting(Timer::id).doesNotContain("q", "r");
    }

    @Test
    void batch_isAllOrNothing_andNamesTheRefusedOperation() {
        timers().add(clock, "A", 5, 0, null);

        assertThatThrownBy(() -> timers().batch(clock, List.of(
                new BatchOp.Add("D", 1, 0, null),
                new BatchOp.Cancel("A", Precondition.NONE),
                new BatchOp.Edit("A", Due.after(1), null, null))))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.TIMER_NOT_FOUND))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(2))
                .hasMessageStartingWith("operation 2: ");
        assertThat(timers().firstN(clock, 10).timers()).extracting(Timer::id).containsExactly("A");
        assertThat(timers().get(clock, "A").version()).isEqualTo(1);
    }

    @Test
    void batch_capacity_countsTheRunningTotal_andRefusesTheFirstOperationBeyondIt() {
        for (int i = 0; i < CAPACITY - 1; i++) {
            timers().add(clock, "t" + i, 1, 0, null);
        }

        // one slot left: add, cancel, add fits (peak 1); a second add beyond it is refused at its index,
        // even though a later operation (a duplicate) would be refused as well
        timers().batch(clock, List.of(new BatchOp.Add("x", 1, 0, null), new BatchOp.Cancel("x", null),
                new BatchOp.Add("y", 1, 0, null), new BatchOp.Cancel("y", null)));
        assertThatThrownBy(() -> timers().batch(clock, List.of(new BatchOp.Add("x", 1, 0, null),
                new BatchOp.Add("y", 1, 0, null), new BatchOp.Add("t0", 1, 0, null))))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CAPACITY_EXCEEDED))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(1));
        assertThatThrownBy(() -> timers().batch(clock, List.of(new BatchOp.Add("x", 1, 0, null),
                new BatchOp.Add("y", 1, 0, null))))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CAPACITY_EXCEEDED))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(1));
        assertThat(timers().dueBy(clock, Long.MAX_VALUE, 10).size()).isEqualTo(CAPACITY - 1);
    }

    @Test
    void batch_sizeAndNullOperations_areRefused() {
        assertThatThrownBy(() -> timers().batch(clock, List.of()))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));
        java.util.ArrayList<BatchOp> withNull = new java.util.ArrayList<>();
        withNull.add(new BatchOp.Add("a", 1, 0, null));
        withNull.add(null);
        assertThatThrownBy(() -> timers().batch(clock, withNull))
                .satisfies(e -> assertThat(((ProblemException) e).opIndex()).isEqualTo(1));
        assertThat(timers().dueBy(clock, Long.MAX_VALUE, 10).size()).isZero();
    }

    @Test
    void systemClock_cannotBeAdvanced_andAddsFromTheDatabasesClock() {
        store.clocks().create("sys-" + clock, ClockSettings.Mode.SYSTEM, 0, null);
        long before = database.queryLong("SELECT db_now_ms()");

        Timer added = timers().add("sys-" + clock, "s", 60_000, 0, null);

        assertThat(added.createdAt()).isGreaterThanOrEqualTo(before);
        assertThat(added.fireTime()).isEqualTo(added.createdAt() + 60_000);
        assertThatThrownBy(() -> timers().advance("sys-" + clock, 1L, null, 1))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_VIRTUAL));
        store.clocks().delete("sys-" + clock);
    }
}
