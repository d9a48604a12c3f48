package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timeservice.core.Clocks;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.Precondition;
import io.timeservice.core.RetryPolicy;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Clocks on a real PostgreSQL: creation, its refusals and limit, listing, deletion with its timers and budget. */
class PostgresClocksTest {

    private TestDatabase database;
    private PostgresStore store;

    @BeforeEach
    void openStore() {
        database = TestDatabase.create(PostgresClocksTest.class, 2);
        store = PostgresStore.open(database.dataSource(), 10, 1_000, 3, StoredClock.Mode.VIRTUAL);
    }

    @AfterEach
    void dropSchema() {
        database.close();
    }

    private static ErrorCode codeOf(Throwable thrown) {
        return ((SchedulerException) thrown).code();
    }

    @Test
    void theDefaultClockExists_virtualAtZero_andCannotBeDeleted() {
        assertThat(store.clocks().get(Clocks.DEFAULT)).usingRecursiveComparison().ignoringFields("createdAt")
                .isEqualTo(new StoredClock(Clocks.DEFAULT, StoredClock.Mode.VIRTUAL, 0, 0,
                        StoredClock.Delivery.RESPONSE, RetryPolicy.DEFAULT, 0));
        assertThatThrownBy(() -> store.clocks().delete(Clocks.DEFAULT))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_UNDELETABLE));
    }

    @Test
    void openingAgain_keepsTheDefaultClockAsItIs() {
        store.timers().advance(Clocks.DEFAULT, 5L, null, 1);

        PostgresStore again = PostgresStore.open(database.dataSource(), 10, 1_000, 3, StoredClock.Mode.SYSTEM);

        assertThat(again.clocks().get(Clocks.DEFAULT).now()).isEqualTo(5);
        assertThat(again.clocks().get(Clocks.DEFAULT).mode()).isEqualTo(StoredClock.Mode.VIRTUAL);
    }

    @Test
    void create_isIdempotentForTheSameSettings_andConflictsOtherwise() {
        assertThat(store.clocks().create("ci-1", StoredClock.Mode.VIRTUAL, 7, null).created()).isTrue();
        PostgresClocks.Created again = store.clocks().create("ci-1", StoredClock.Mode.VIRTUAL, 7, null);

        assertThat(again.created()).isFalse();
        assertThat(again.clock()).usingRecursiveComparison().ignoringFields("createdAt")
                .isEqualTo(new StoredClock("ci-1", StoredClock.Mode.VIRTUAL, 7, 7, StoredClock.Delivery.RESPONSE,
                        RetryPolicy.DEFAULT, 0));
        assertThatThrownBy(() -> store.clocks().create("ci-1", StoredClock.Mode.VIRTUAL, 8, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_CONFLICT));
        assertThatThrownBy(() -> store.clocks().create("ci-1", StoredClock.Mode.VIRTUAL, 7,
                StoredClock.Delivery.QUEUE)).satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_CONFLICT));
    }

    @Test
    void aClocksRetryPolicy_isKeptExactly_andAnotherOneConflicts() {
        RetryPolicy odd = new RetryPolicy(7, 250, 1.5, 60_000, 0.1); // 0.1 and 1.5: no exact binary fraction lost
        store.clocks().create("q", StoredClock.Mode.VIRTUAL, 0, StoredClock.Delivery.QUEUE, odd);

        assertThat(store.clocks().get("q").retry()).isEqualTo(odd);
        assertThat(store.clocks().list(10, null)).filteredOn(c -> c.name().equals("q"))
                .extracting(StoredClock::retry).containsExactly(odd);
        assertThat(store.clocks().create("q", StoredClock.Mode.VIRTUAL, 0, StoredClock.Delivery.QUEUE, odd)
                .created()).isFalse();
        for (RetryPolicy other : new RetryPolicy[] {RetryPolicy.DEFAULT, new RetryPolicy(7, 250, 1.5, 60_000, 0.2)}) {
            assertThatThrownBy(() -> store.clocks().create("q", StoredClock.Mode.VIRTUAL, 0,
                    StoredClock.Delivery.QUEUE, other)).satisfies(e -> assertThat(codeOf(e))
                    .isEqualTo(ErrorCode.CLOCK_CONFLICT));
        }
        assertThat(store.clocks().get(Clocks.DEFAULT).retry()).isEqualTo(RetryPolicy.DEFAULT); // stored as '{}'
    }

    @Test
    void create_refusesBadNamesAndNows_andBeyondTheLimit() {
        assertThatThrownBy(() -> store.clocks().create("bad name", StoredClock.Mode.VIRTUAL, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID));
        assertThatThrownBy(() -> store.clocks().create("x".repeat(Clocks.MAX_NAME_LENGTH + 1),
                StoredClock.Mode.VIRTUAL, 0, null)).satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID));
        assertThatThrownBy(() -> store.clocks().create("n", StoredClock.Mode.VIRTUAL, -1, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));
        assertThatThrownBy(() -> store.clocks().create("n", StoredClock.Mode.SYSTEM, 5, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));

        store.clocks().create("a", StoredClock.Mode.VIRTUAL, 0, null);
        store.clocks().create("b", StoredClock.Mode.SYSTEM, 0, null);
        assertThatThrownBy(() -> store.clocks().create("c", StoredClock.Mode.VIRTUAL, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_LIMIT));
        assertThat(store.clocks().count()).isEqualTo(3);
    }

    @Test
    void aSystemClocksNow_isTheDatabasesClock() {
        store.clocks().create("sys", StoredClock.Mode.SYSTEM, 0, null);
        long before = database.queryLong("SELECT db_now_ms()");

        StoredClock clock = store.clocks().get("sys");

        assertThat(clock.now()).isBetween(before, database.queryLong("SELECT db_now_ms()"));
        assertThat(clock.delivery()).isEqualTo(StoredClock.Delivery.QUEUE);
        assertThat(Math.abs(clock.now() - System.currentTimeMillis())).isLessThan(60_000);
    }

    @Test
    void list_pagesByName() {
        store.clocks().create("b", StoredClock.Mode.VIRTUAL, 0, null);
        store.clocks().create("B", StoredClock.Mode.VIRTUAL, 0, null);

        assertThat(store.clocks().list(2, null)).extracting(StoredClock::name).containsExactly("B", "b");
        assertThat(store.clocks().list(2, "b")).extracting(StoredClock::name).containsExactly(Clocks.DEFAULT);
        assertThatThrownBy(() -> store.clocks().list(0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_LIMIT));
    }

    @Test
    void delete_removesTheTimers_givesTheBudgetBack_andARecreatedClockNeverMatchesOldRevisions() {
        store.clocks().create("gone", StoredClock.Mode.VIRTUAL, 0, null);
        Timer old = null;
        for (int i = 0; i < 10; i++) {
            old = store.timers().add("gone", "t" + i, 5, 0, null);
        }

        store.clocks().delete("gone");

        assertThatThrownBy(() -> store.clocks().get("gone"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        assertThatThrownBy(() -> store.timers().add("gone", "t0", 5, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        store.clocks().create("gone", StoredClock.Mode.VIRTUAL, 0, null);
        for (int i = 0; i < 10; i++) {
            store.timers().add("gone", "t" + i, 5, 0, null); // the whole capacity of 10 is free again
        }
        Timer last = old;
        assertThatThrownBy(() -> store.timers().cancel("gone", "t9", Precondition.ifMatch(last.revision())))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        assertThat(database.queryLong("SELECT count(*) FROM timers")).isEqualTo(10);
    }
}
