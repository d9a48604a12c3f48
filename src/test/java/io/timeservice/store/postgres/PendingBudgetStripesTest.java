package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The striped budget under contention, on raw transactions (no retry by {@link Jdbc}), so a deadlock between the
 * stripe path and the exact path shows as the failure it is instead of being retried away.
 */
class PendingBudgetStripesTest {

    private static final int THREADS = 8;

    private TestDatabase database;
    private ExecutorService pool;

    @BeforeEach
    void openDatabase() {
        database = TestDatabase.create(PendingBudgetStripesTest.class, THREADS + 2);
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void dropSchema() {
        pool.shutdownNow();
        database.close();
    }

    /**
     * A budget so small that most changes take the exact path, which locks every stripe while the stripe path
     * updates single ones: a stripe update that waited for an exact-path holder and then no longer fits must not
     * keep that stripe locked into its own exact path (PostgreSQL keeps the row lock of an UPDATE whose re-checked
     * WHERE failed), else two such transactions, or one and an exact-path holder, wait for each other in a cycle.
     * Before the fix this failed with {@code deadlock detected} (40P01) in about half the runs; the next test
     * builds the cycle step by step and failed every time.
     */
    @Test
    void manyChangers_onATightBudget_neverDeadlock_andKeepItExact() throws Exception {
        int capacity = THREADS; // each changer wants up to 2: half the adds are refused, the rest mostly exact-path
        PendingBudgetStripes budget = new PendingBudgetStripes(capacity, 1_000_000);
        inTransaction(budget::adopt);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> changers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            changers.add(pool.submit(() -> {
                start.await();
                int held = 0;
                for (int round = 0; round < 300; round++) {
                    if (held < 2) {
                        if (tryAdd(budget)) {
                            held++;
                        }
                    } else {
                        inTransaction(connection -> budget.release(connection, 1, 10));
                        held--;
                    }
                }
                return held;
            }));
        }
        start.countDown();
        int held = 0;
        for (Future<Integer> changer : changers) {
            held += changer.get(3, TimeUnit.MINUTES); // rethrows a changer's deadlock
        }

        assertThat(held).isLessThanOrEqualTo(capacity);
        assertThat(database.queryLong("SELECT sum(timers) FROM pending_budget")).isEqualTo(held);
        assertThat(database.queryLong("SELECT sum(bytes) FROM pending_budget")).isEqualTo(10L * held);
        assertThat(database.queryLong("SELECT sum(timer_allowance) FROM pending_budget")).isEqualTo(capacity);
        assertThat(database.queryLong("SELECT count(*) FROM pending_budget WHERE timers > timer_allowance"))
                .isZero();
    }

    /**
     * The cycle itself, step by step: stripe-path changes wait for an exact-path holder that then leaves their
     * stripes without room. Each one's UPDATE matched nothing but keeps its stripe locked (PostgreSQL locks the new
     * row version before re-checking the WHERE), so without giving it up each enters the exact path holding a
     * different stripe and waits, in stripe order, for the others' ones: {@code deadlock detected}, every time two
     * of them picked different stripes (all eight picking one of 16 alike is 16^-7). Now each gives its stripe
     * back, takes the exact path in order and is refused: the holder took the whole capacity.
     */
    @Test
    void stripeChangesThatWaitedForAnExactPathHolder_andNoLongerFit_takeTheExactPathWithoutDeadlock()
            throws Exception {
        int capacity = 16 * 100; // 100 per stripe: every stripe fits one more, as the waiting changes see it
        PendingBudgetStripes budget = new PendingBudgetStripes(capacity, 1_000_000);
        inTransaction(budget::adopt);
        List<Future<Boolean>> changes = new ArrayList<>();
        List<Long> changerPids = new ArrayList<>();
        try (Connection holder = database.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            try (Statement takeAll = holder.createStatement()) {
                takeAll.executeUpdate("UPDATE pending_budget SET timers = timer_allowance"); // as an exact path would
            }
            for (int t = 0; t < THREADS; t++) {
                Connection changer = database.dataSource().getConnection();
                changer.setAutoCommit(false);
                changerPids.add(backendPid(changer));
                changes.add(pool.submit(() -> {
                    try (changer) {
                        try {
                            budget.change(changer, 1, 10, 1, 10);
                            changer.commit();
                            return true;
                        } catch (PendingBudgetStripes.Exceeded refused) {
                            changer.rollback();
                            return false;
                        }
                    }
                }));
            }
            awaitWaitingForLocks(changerPids);
            holder.commit();
        }

        for (Future<Boolean> change : changes) {
            assertThat(change.get(1, TimeUnit.MINUTES)).as("accepted with the budget full").isFalse();
        }
        assertThat(database.queryLong("SELECT sum(timers) FROM pending_budget")).isEqualTo(capacity);
        assertThat(database.queryLong("SELECT sum(timer_allowance) FROM pending_budget")).isEqualTo(capacity);
    }

    private static long backendPid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Waits until every backend in {@code pids} waits for a lock, as the database reports it (no guessed time). */
    private void awaitWaitingForLocks(List<Long> pids) throws InterruptedException {
        String waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid IN ("
                + String.join(",", pids.stream().map(String::valueOf).toList()) + ")";
        await("every change waiting for a lock").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(5)) // polling the database's own report of the waits
                .until(() -> database.queryLong(waiting) >= pids.size());
    }

    @FunctionalInterface
    private interface Change {
        void apply(Connection connection) throws SQLException, PendingBudgetStripes.Exceeded;
    }

    /** One transaction with one budget change; false when the budget refused it (rolled back). */
    private boolean tryAdd(PendingBudgetStripes budget) throws SQLException {
        try {
            inTransaction(connection -> budget.change(connection, 1, 10, 1, 10));
            return true;
        } catch (PendingBudgetStripes.Exceeded refused) {
            return false;
        }
    }

    private void inTransaction(Change change) throws SQLException, PendingBudgetStripes.Exceeded {
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try {
                change.apply(connection);
                connection.commit();
            } catch (SQLException | PendingBudgetStripes.Exceeded | RuntimeException failure) {
                connection.rollback();
                throw failure;
            }
        }
    }
}
