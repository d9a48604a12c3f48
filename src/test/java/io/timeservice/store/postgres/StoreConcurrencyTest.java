package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the database's locks must guarantee when calls race, from any number of instances (here: threads with
 * connections of their own, and two stores opened on one schema): the budget is exact, an add never uses a now that
 * an advance is moving past, and two advancers of one clock fire every timer exactly once.
 */
class StoreConcurrencyTest {

    private static final int THREADS = 8;

    private TestDatabase database;
    private ExecutorService pool;

    @BeforeEach
    void openDatabase() {
        database = TestDatabase.create(StoreConcurrencyTest.class, THREADS + 2);
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void dropSchema() {
        pool.shutdownNow();
        database.close();
    }

    /** Runs {@code tasks} at once (released together) and returns their results. */
    private <T> List<T> together(List<Callable<T>> tasks) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> task : tasks) {
            futures.add(pool.submit(() -> {
                start.await();
                return task.call();
            }));
        }
        start.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(2, TimeUnit.MINUTES));
        }
        return results;
    }

    /**
     * A store ("instance") on the test's schema whose calls wait for locks as long as the test may hold them
     * ({@link LockWaits#PATIENT}): these tests are about the order of lock waits, not about their timeouts.
     */
    private PostgresStore open(int capacity, long capacityBytes) {
        return PostgresStore.open(database.dataSource(), capacity, capacityBytes, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
    }

    @Test
    void racingAdds_fromTwoInstances_fillTheCapacityExactly() throws Exception {
        int capacity = 50;
        PostgresStore first = open(capacity, 1_000_000);
        PostgresStore second = open(capacity, 1_000_000);
        List<Callable<Integer>> adders = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            PostgresStore store = t % 2 == 0 ? first : second;
            String prefix = "t" + t + "-";
            adders.add(() -> {
                int accepted = 0;
                for (int i = 0; i < 20; i++) {
                    try {
                        store.timerChanges().add("default", prefix + i, 1, 0, null);
                        accepted++;
                    } catch (ProblemException refused) {
                        assertThat(refused.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED);
                    }
                }
                return accepted;
            });
        }

        int accepted = together(adders).stream().mapToInt(Integer::intValue).sum();

        assertThat(accepted).isEqualTo(capacity);
        assertThat(database.queryLong("SELECT count(*) FROM timers")).isEqualTo(capacity);
        assertThat(database.queryLong("SELECT sum(timers) FROM pending_budget")).isEqualTo(capacity);
    }

    @Test
    void aLowerCapacityAfterARestart_refusesAddsUntilEnoughAreGone() {
        PostgresStore before = open(10, 1_000_000);
        for (int i = 0; i < 10; i++) {
            before.timerChanges().add("default", "t" + i, 1, 0, null);
        }

        PostgresStore after = open(8, 1_000_000);

        for (int gone = 0; gone < 3; gone++) {
            assertThat(addRefused(after, "new")).as("refused with %d of 10 cancelled", gone).isTrue();
            after.timerChanges().cancel("default", "t" + gone, io.timeservice.model.Precondition.NONE);
        }
        assertThat(addRefused(after, "new")).isFalse(); // 7 pending: room for one
        assertThat(addRefused(after, "newer")).isTrue();
    }

    private static boolean addRefused(PostgresStore store, String id) {
        try {
            store.timerChanges().add("default", id, 1, 0, null);
            return false;
        } catch (ProblemException refused) {
            assertThat(refused.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED);
            return true;
        }
    }

    @Test
    void anAddWhileAnAdvanceHoldsTheClock_waitsAndUsesTheNowItLeaves() throws Exception {
        PostgresStore store = open(100, 100_000);
        Future<Timer> add;
        try (Connection advancing = database.dataSource().getConnection()) {
            advancing.setAutoCommit(false);
            execute(advancing, "SELECT now_ms FROM clocks WHERE name = 'default' FOR UPDATE");
            add = pool.submit(() -> store.timerChanges().add("default", "due-now", 0, 0, null));
            LockWaits.awaitBlockedBy(database, LockWaits.backendPid(advancing), add);
            execute(advancing, "UPDATE clocks SET now_ms = 5 WHERE name = 'default'");
            advancing.commit();
        }

        Timer added = add.get(1, TimeUnit.MINUTES);

        // an add that read now = 0 before the advance committed would leave a timer due before the clock's now
        assertThat(added.createdAt()).isEqualTo(5);
        assertThat(added.fireTime()).isEqualTo(5);
    }

    @Test
    void twoAdvancersOfOneClock_fireEveryTimerOnce_inOrder() throws Exception {
        PostgresStore first = open(100_000, 100_000_000);
        PostgresStore second = open(100_000, 100_000_000);
        List<io.timeservice.model.BatchOp> adds = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            adds.add(new io.timeservice.model.BatchOp.Add("t" + i, i % 200, i % 3, null));
        }
        first.timerChanges().batch("default", adds);
        List<Callable<List<Timer>>> advancers = new ArrayList<>();
        for (PostgresStore store : List.of(first, second, first, second)) {
            advancers.add(() -> {
                List<Timer> fired = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    fired.addAll(store.clockFiring().advance("default", 1L, null, 7).fired());
                }
                return fired;
            });
        }

        List<List<Timer>> results = together(advancers);

        Set<String> firedIds = new HashSet<>();
        for (List<Timer> fired : results) {
            for (int i = 0; i < fired.size(); i++) {
                assertThat(firedIds.add(fired.get(i).id())).as("fired twice: %s", fired.get(i).id()).isTrue();
                if (i > 0) { // each advancer's own calls come one after another, so it sees firing order
                    assertThat(Timer.compareFiringOrder(fired.get(i - 1), fired.get(i))).isNegative();
                }
            }
        }
        firedIds.addAll(first.clockFiring().advance("default", 1_000L, null, Integer.MAX_VALUE).fired().stream()
                .map(Timer::id).toList());
        assertThat(firedIds).hasSize(1_000);
    }

    /**
     * Issue 34, item 12: a bounded advance counts the due timers, then fires the first {@code limit} of them. A cancel
     * that commits between the two (here: it waits for a lock on the timer's row that the test holds, so it commits
     * exactly when the advance is already firing) used to leave the advance with nothing fired and "more due": 500.
     * The only histories: cancel then advance (fires b), or advance then cancel (fires a; the cancel is refused).
     */
    @Test
    void aBoundedAdvance_racingACancelOfTheTimerItFires_firesAsSomeSequentialHistory() throws Exception {
        PostgresStore store = open(100, 100_000);
        store.timerChanges().add("default", "a", 1, 0, null);
        store.timerChanges().add("default", "b", 2, 0, null);

        Raced<Timer> raced = raceAdvanceWith(store, "a", 1,
                () -> store.timerChanges().cancel("default", "a", io.timeservice.model.Precondition.NONE));

        assertThat(raced.change().id()).isEqualTo("a"); // the cancel succeeded, so it came first
        assertThat(raced.advanced().fired()).extracting(Timer::id).containsExactly("b");
        assertThat(raced.advanced().now()).isEqualTo(10);
    }

    /**
     * Item 12 again: a priority-only edit of a timer the advance is firing used to commit first and still be fired
     * with its new priority ahead of a timer that now comes before it: no sequential history fires a and b here.
     */
    @Test
    void aBoundedAdvance_racingAPriorityEdit_firesAsSomeSequentialHistory() throws Exception {
        PostgresStore store = open(100, 100_000);
        store.timerChanges().add("default", "a", 1, 0, null);
        store.timerChanges().add("default", "b", 1, 1, null);
        store.timerChanges().add("default", "c", 1, 2, null);

        Raced<Timer> raced = raceAdvanceWith(store, "b", 2,
                () -> store.timerChanges().edit("default", "b", (Due) null, 5, io.timeservice.model.Precondition.NONE));

        assertThat(raced.change().priority()).isEqualTo(5); // the edit succeeded, so it came first: b is now last
        assertThat(raced.advanced().fired()).extracting(Timer::id).containsExactly("a", "c");
        assertThat(store.timerReads().get("default", "b").priority()).isEqualTo(5);
    }

    private record Raced<T>(T change, io.timeservice.model.AdvanceResult advanced) {
    }

    /**
     * Runs {@code change} (a call on timer {@code id}) and an advance of the default clock to 10 firing at most
     * {@code limit}, so that the change commits while the advance is under way: the test holds a lock on the timer's
     * row; the change waits for it first, then the advance starts and waits for the change (which holds the clock's
     * row {@code FOR SHARE}), and only then is the lock let go. Each phase is the database's own report of who waits
     * for whom, and fails at once if the call that was to wait ended instead.
     */
    private <T> Raced<T> raceAdvanceWith(PostgresStore store, String id, int limit, Callable<T> change)
            throws Exception {
        Future<T> changed;
        Future<io.timeservice.model.AdvanceResult> advanced;
        try (Connection holder = database.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            execute(holder, "SELECT 1 FROM timers WHERE clock = 'default' AND id = '" + id + "' FOR UPDATE");
            changed = pool.submit(change);
            int changer = LockWaits.awaitBlockedBy(database, LockWaits.backendPid(holder), changed);
            advanced = pool.submit(() -> store.clockFiring().advance("default", null, 10L, limit));
            LockWaits.awaitBlockedBy(database, changer, advanced);
            holder.rollback();
        }
        return new Raced<>(changed.get(1, TimeUnit.MINUTES), advanced.get(1, TimeUnit.MINUTES));
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
