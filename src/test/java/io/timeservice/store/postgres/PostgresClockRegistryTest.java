package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Clocks on a real PostgreSQL: creation, its refusals and limit, listing, deletion with its timers and budget. */
class PostgresClockRegistryTest {

    private TestDatabase database;
    private PostgresStore store;

    @BeforeEach
    void openStore() {
        database = TestDatabase.create(PostgresClockRegistryTest.class, 2);
        // patient: a test holds the budget's stripes while an ack and a deletion queue behind it (LockWaits.PATIENT)
        store = PostgresStore.open(database.dataSource(), 10, 1_000, 3, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
    }

    @AfterEach
    void dropSchema() {
        database.close();
    }

    private static ErrorCode codeOf(Throwable thrown) {
        return ((ProblemException) thrown).code();
    }

    @Test
    void theDefaultClockExists_virtualAtZero_andCannotBeDeleted() {
        assertThat(store.clocks().get(Limits.DEFAULT_CLOCK)).usingRecursiveComparison().ignoringFields("createdAt", "incarnation")
                .isEqualTo(new StoredClock(Limits.DEFAULT_CLOCK, ClockSettings.Mode.VIRTUAL, 0, 0,
                        ClockSettings.DeliveryMode.RESPONSE, RetryPolicy.DEFAULT, 0));
        assertThatThrownBy(() -> store.clocks().delete(Limits.DEFAULT_CLOCK))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_UNDELETABLE));
    }

    @Test
    void openingAgain_keepsTheDefaultClockAsItIs() {
        store.clockFiring().advance(Limits.DEFAULT_CLOCK, 5L, null, 1);

        PostgresStore again = PostgresStore.open(database.dataSource(), 10, 1_000, 3, ClockSettings.Mode.SYSTEM);

        assertThat(again.clocks().get(Limits.DEFAULT_CLOCK).now()).isEqualTo(5);
        assertThat(again.clocks().get(Limits.DEFAULT_CLOCK).mode()).isEqualTo(ClockSettings.Mode.VIRTUAL);
    }

    @Test
    void create_isIdempotentForTheSameSettings_andConflictsOtherwise() {
        assertThat(store.clocks().create("ci-1", ClockSettings.Mode.VIRTUAL, 7, null).created()).isTrue();
        PostgresClockRegistry.Created again = store.clocks().create("ci-1", ClockSettings.Mode.VIRTUAL, 7, null);

        assertThat(again.created()).isFalse();
        assertThat(again.clock()).usingRecursiveComparison().ignoringFields("createdAt", "incarnation")
                .isEqualTo(new StoredClock("ci-1", ClockSettings.Mode.VIRTUAL, 7, 7, ClockSettings.DeliveryMode.RESPONSE,
                        RetryPolicy.DEFAULT, 0));
        assertThatThrownBy(() -> store.clocks().create("ci-1", ClockSettings.Mode.VIRTUAL, 8, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_CONFLICT));
        assertThatThrownBy(() -> store.clocks().create("ci-1", ClockSettings.Mode.VIRTUAL, 7,
                ClockSettings.DeliveryMode.QUEUE)).satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_CONFLICT));
    }

    @Test
    void aClocksRetryPolicy_isKeptExactly_andAnotherOneConflicts() {
        RetryPolicy odd = new RetryPolicy(7, 250, 1.5, 60_000, 0.1); // 0.1 and 1.5: no exact binary fraction lost
        store.clocks().create("q", ClockSettings.Mode.VIRTUAL, 0, ClockSettings.DeliveryMode.QUEUE, odd);

        assertThat(store.clocks().get("q").retry()).isEqualTo(odd);
        assertThat(store.clocks().list(10, null)).filteredOn(c -> c.name().equals("q"))
                .extracting(StoredClock::retry).containsExactly(odd);
        assertThat(store.clocks().create("q", ClockSettings.Mode.VIRTUAL, 0, ClockSettings.DeliveryMode.QUEUE, odd)
                .created()).isFalse();
        for (RetryPolicy other : new RetryPolicy[] {RetryPolicy.DEFAULT, new RetryPolicy(7, 250, 1.5, 60_000, 0.2)}) {
            assertThatThrownBy(() -> store.clocks().create("q", ClockSettings.Mode.VIRTUAL, 0,
                    ClockSettings.DeliveryMode.QUEUE, other)).satisfies(e -> assertThat(codeOf(e))
                    .isEqualTo(ErrorCode.CLOCK_CONFLICT));
        }
        assertThat(store.clocks().get(Limits.DEFAULT_CLOCK).retry()).isEqualTo(RetryPolicy.DEFAULT); // stored as '{}'
    }

    @Test
    void create_refusesBadNamesAndNows_andBeyondTheLimit() {
        assertThatThrownBy(() -> store.clocks().create("bad name", ClockSettings.Mode.VIRTUAL, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID));
        assertThatThrownBy(() -> store.clocks().create("x".repeat(Limits.MAX_CLOCK_NAME_LENGTH + 1),
                ClockSettings.Mode.VIRTUAL, 0, null)).satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ID));
        assertThatThrownBy(() -> store.clocks().create("n", ClockSettings.Mode.VIRTUAL, -1, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));
        assertThatThrownBy(() -> store.clocks().create("n", ClockSettings.Mode.SYSTEM, 5, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_REQUEST));

        store.clocks().create("a", ClockSettings.Mode.VIRTUAL, 0, null);
        store.clocks().create("b", ClockSettings.Mode.SYSTEM, 0, null);
        assertThatThrownBy(() -> store.clocks().create("c", ClockSettings.Mode.VIRTUAL, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_LIMIT));
        assertThat(store.clocks().count()).isEqualTo(3);
    }

    @Test
    void aSystemClocksNow_isTheDatabasesClock() {
        store.clocks().create("sys", ClockSettings.Mode.SYSTEM, 0, null);
        long before = database.queryLong("SELECT db_now_ms()");

        StoredClock clock = store.clocks().get("sys");

        assertThat(clock.now()).isBetween(before, database.queryLong("SELECT db_now_ms()"));
        assertThat(clock.delivery()).isEqualTo(ClockSettings.DeliveryMode.QUEUE);
        assertThat(Math.abs(clock.now() - System.currentTimeMillis())).isLessThan(60_000);
    }

    @Test
    void list_pagesByName() {
        store.clocks().create("b", ClockSettings.Mode.VIRTUAL, 0, null);
        store.clocks().create("B", ClockSettings.Mode.VIRTUAL, 0, null);

        assertThat(store.clocks().list(2, null)).extracting(StoredClock::name).containsExactly("B", "b");
        assertThat(store.clocks().list(2, "b")).extracting(StoredClock::name).containsExactly(Limits.DEFAULT_CLOCK);
        assertThatThrownBy(() -> store.clocks().list(0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_LIMIT));
    }

    @Test
    void delete_removesTheTimers_givesTheBudgetBack_andARecreatedClockNeverMatchesOldRevisions() {
        store.clocks().create("gone", ClockSettings.Mode.VIRTUAL, 0, null);
        Timer old = null;
        for (int i = 0; i < 10; i++) {
            old = store.timerChanges().add("gone", "t" + i, 5, 0, null);
        }

        store.clocks().delete("gone");

        assertThatThrownBy(() -> store.clocks().get("gone"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        assertThatThrownBy(() -> store.timerChanges().add("gone", "t0", 5, 0, null))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        store.clocks().create("gone", ClockSettings.Mode.VIRTUAL, 0, null);
        for (int i = 0; i < 10; i++) {
            store.timerChanges().add("gone", "t" + i, 5, 0, null); // the whole capacity of 10 is free again
        }
        Timer last = old;
        assertThatThrownBy(() -> store.timerChanges().cancel("gone", "t9", Precondition.ifMatch(last.revision())))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        assertThat(database.queryLong("SELECT count(*) FROM timers")).isEqualTo(10);
    }

    /**
     * A system clock's ack locks its delivery row, then waits (here: for the budget's stripes, which the test holds);
     * the clock's deletion meanwhile reaches that row and waits for the ack. Both give the delivery's share back
     * unless the deletion releases only what it removed still unacknowledged: the budget then counted one less than
     * the rows, for good. Each phase waits for the lock wait it needs to see (pg_blocking_pids), with a deadline.
     */
    @Test
    void delete_racingAnAckOnASystemClock_givesTheDeliveryBackOnce_andTheBudgetMatchesTheRows() throws Exception {
        store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
        store.timerChanges().add("s", "a", 0, 0, null);
        assertThat(store.clockFiring().fireDue("s", 10)).isEqualTo(1);
        ClaimedDelivery claimed = store.deliveries().claim("s", 1, 600_000).get(0);
        ExecutorService calls = Executors.newFixedThreadPool(2);
        try (Connection budgetHolder = DriverManager.getConnection(database.jdbcUrl())) {
            budgetHolder.setAutoCommit(false);
            budgetHolder.createStatement().execute("SELECT * FROM pending_budget FOR UPDATE");
            int holder = LockWaits.backendPid(budgetHolder);

            Future<Boolean> ack = calls.submit(() -> store.deliveries().ack("s", "a", claimed.claim().toString()));
            // the ack holds the delivery's row, waiting to give its share back
            int acking = LockWaits.awaitBlockedBy(database, holder);
            Future<?> delete = calls.submit(() -> store.clocks().delete("s"));
            LockWaits.awaitBlockedBy(database, acking); // the deletion waits for the ack's row
            budgetHolder.rollback();

            assertThat(ack.get(1, TimeUnit.MINUTES)).isTrue();
            delete.get(1, TimeUnit.MINUTES);
        } finally {
            calls.shutdownNow();
        }
        assertThat(database.queryLong("SELECT sum(timers) FROM pending_budget")).isZero();
        assertThat(new PostgresQueueInspector(store, 4).invariants(null).checks())
                .containsExactly(InvariantReport.Check.passed("no-overdue"),
                        InvariantReport.Check.passed("pending-count-matches-rows"),
                        InvariantReport.Check.passed(BudgetReconciliation.BUDGET_MATCHES_ROWS));
    }

    @Test
    void theInvariantReport_namesTheBudgetAndTheRows_whenTheyDisagree() {
        store.timerChanges().add(Limits.DEFAULT_CLOCK, "a", 5, 0, null);
        database.execute("UPDATE pending_budget SET timers = timers + 2 WHERE stripe = 0");

        InvariantReport report = new PostgresQueueInspector(store, 4).invariants(null);

        assertThat(report.ok()).isFalse();
        assertThat(report.firstFailure().detail()).contains("counts 3 timers", "hold 1 of");
    }

    @Test
    void theInvariantReport_namesATimerAVirtualClockLeftBehind() {
        store.timerChanges().add(Limits.DEFAULT_CLOCK, "late", 5, 0, null);
        store.timerChanges().add(Limits.DEFAULT_CLOCK, "later", 50, 0, null);
        database.execute("UPDATE clocks SET now_ms = 10 WHERE name = 'default'"); // as if an advance skipped "late"

        InvariantReport report = new PostgresQueueInspector(store, 4).invariants(null);

        assertThat(report.ok()).isFalse();
        assertThat(report.firstFailure().name()).isEqualTo("no-overdue");
        assertThat(report.firstFailure().detail()).contains("timer late is due at 5", "fired through, 10");
    }
}
