package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code timeservice.deliveries.max} on the PostgreSQL store ({@link DeliveryRoom}, the budget's delivery count), at
 * a limit of {@value #LIMIT}: a system clock keeps its due timers pending at the limit and says so, and fires them
 * once an ack makes room; an advance of a virtual queue clock at its target with no room is refused and changes
 * nothing; forks and loads are refused when their deliveries do not fit; two firings that both fired before either
 * counted cannot pass the limit together. After each test the budget still matches the rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresDeliveryLimitTest {

    private static final int LIMIT = 3;

    private TestDatabase database;
    private PostgresStore store;
    private final List<String> clocks = new ArrayList<>();

    @BeforeAll
    void openStore() {
        database = TestDatabase.create(getClass(), 6);
        // a lock wait the concurrent test drives must outlast a loaded machine's scheduling, not the 2 s default
        store = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 100, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
        store.limitDeliveries(LIMIT);
    }

    @AfterAll
    void dropSchema() {
        database.close();
    }

    /** The limit is over all clocks: each test's clocks go, with their deliveries, before the next test. */
    @AfterEach
    void budgetMatchesRows_andClocksGo() {
        assertThat(store.budgetMatchesRows().ok()).as(store.budgetMatchesRows().toString()).isTrue();
        for (String clock : clocks) {
            store.clocks().delete(clock);
        }
        clocks.clear();
        assertThat(database.queryLong("SELECT sum(deliveries) FROM pending_budget")).isZero();
    }

    @Test
    void aSystemClock_atTheLimit_keepsDueTimersPending_saysSo_andFiresThemOnceAnAckMakesRoom() {
        String clock = clock("sys", ClockSettings.Mode.SYSTEM);
        for (String id : List.of("a", "b", "c", "d", "e")) {
            store.timerChanges().add(clock, id, 0, 0, null);
        }

        assertThat(store.clockFiring().fireDue(clock, 100)).isEqualTo(LIMIT);
        assertThat(store.clockFiring().fireDue(clock, 100)).as("held back: nothing more fires").isZero();
        assertThat(store.timerReads().firstN(clock, 10).timers()).extracting(t -> t.id()).containsExactly("d", "e");
        assertThat(store.deliveries().counts(clock).ready()).isEqualTo(LIMIT);
        assertThat(store.deliveries().counts(clock).firingHeldBack()).isTrue();

        ClaimedDelivery claimed = store.deliveries().claim(clock, 1, 30_000).get(0);
        assertThat(store.deliveries().ack(clock, claimed.id(), claimed.claim().toString())).isTrue();

        assertThat(store.clockFiring().fireDue(clock, 100)).as("one ack, room for one").isEqualTo(1);
        assertThat(store.timerReads().firstN(clock, 10).timers()).extracting(t -> t.id()).containsExactly("e");
        assertThat(store.deliveries().counts(clock).firingHeldBack()).isTrue();
        claimed = store.deliveries().claim(clock, 1, 30_000).get(0);
        store.deliveries().ack(clock, claimed.id(), claimed.claim().toString());
        assertThat(store.clockFiring().fireDue(clock, 100)).isEqualTo(1);
        assertThat(store.timerReads().firstN(clock, 10).timers()).isEmpty();
        assertThat(store.deliveries().counts(clock).firingHeldBack()).as("nothing due is held back").isFalse();
    }

    @Test
    void aVirtualAdvance_atItsTarget_withNoRoom_isRefused_andChangesNothing() {
        String clock = clock("virt", ClockSettings.Mode.VIRTUAL);
        for (String id : List.of("a", "b", "c", "d")) {
            store.timerChanges().add(clock, id, 1, 0, null);
        }
        AdvanceResult bounded = store.clockFiring().advance(clock, 1L, null, Integer.MAX_VALUE);
        assertThat(bounded.fired()).extracting(t -> t.id()).containsExactly("a", "b", "c");
        assertThat(bounded.complete()).isFalse();
        String before = budgetAndRows();

        assertThatThrownBy(() -> store.clockFiring().advance(clock, null, 1L, Integer.MAX_VALUE))
                .isInstanceOfSatisfying(ProblemException.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));

        assertThat(budgetAndRows()).isEqualTo(before);
        assertThat(store.clocks().get(clock).now()).isEqualTo(1);
        assertThat(store.deliveries().counts(clock).firingHeldBack()).as("a virtual clock's advance says it").isFalse();
    }

    @Test
    void aForkAndALoad_areRefused_whenTheDeliveryLimitHasNoRoomForTheirDeliveries() {
        String clock = clock("src", ClockSettings.Mode.VIRTUAL);
        store.timerChanges().add(clock, "a", 1, 0, null);
        store.timerChanges().add(clock, "b", 1, 0, null);
        store.clockFiring().advance(clock, 1L, null, Integer.MAX_VALUE); // 2 of the 3 deliveries
        ClockSnapshot saved = store.clockSnapshots().snapshot(clock);
        String before = budgetAndRows();

        assertThatThrownBy(() -> store.clockCopy().copy("fork", clock))
                .isInstanceOfSatisfying(ProblemException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED);
                    assertThat(refused.getMessage()).contains("limit of 3 deliveries has no room for a copy of 2");
                });
        assertThatThrownBy(() -> store.clockSnapshots().load("loaded", saved))
                .isInstanceOfSatisfying(ProblemException.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));

        assertThat(budgetAndRows()).isEqualTo(before);
        assertThat(database.queryLong("SELECT count(*) FROM clocks WHERE name IN ('fork', 'loaded')")).isZero();
    }

    /**
     * Both firings fire their clock's three due timers, then wait for the budget, which a transaction of the test
     * holds (every stripe locked), until both wait behind it (as {@code pg_blocking_pids} reports it, no guessed
     * time): each has
     * fired before either counted. Then the test lets them go: the first to count takes the whole limit, the other is
     * refused, rolls back and fires nothing (held back). A limit checked before firing, from counts read without
     * the stripes' locks, would let both pass: six deliveries.
     */
    @Test
    void twoFiringsAtOnce_thatBothFiredBeforeCounting_cannotPassTheLimitTogether() throws Exception {
        String one = clock("one", ClockSettings.Mode.SYSTEM);
        String two = clock("two", ClockSettings.Mode.SYSTEM);
        for (String clock : List.of(one, two)) {
            for (String id : List.of("a", "b", "c")) {
                store.timerChanges().add(clock, id, 0, 0, null);
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection holder = DriverManager.getConnection(database.jdbcUrl())) {
            holder.setAutoCommit(false);
            try (Statement lockAll = holder.createStatement()) {
                lockAll.executeQuery("SELECT * FROM pending_budget FOR UPDATE").close();
            }
            List<Future<Integer>> firings = new ArrayList<>();
            for (String clock : List.of(one, two)) {
                firings.add(pool.submit(() -> store.clockFiring().fireDue(clock, 100)));
            }
            LockWaits.awaitBehind(database, LockWaits.backendPid(holder), 2);
            holder.commit();

            List<Integer> fired = new ArrayList<>();
            for (Future<Integer> firing : firings) {
                fired.add(firing.get(1, TimeUnit.MINUTES));
            }
            assertThat(fired).containsExactlyInAnyOrder(LIMIT, 0);
        } finally {
            pool.shutdownNow();
        }
        assertThat(database.queryLong("SELECT count(*) FROM deliveries WHERE state <> 'acked'")).isEqualTo(LIMIT);
        assertThat(database.queryLong("SELECT count(*) FROM timers")).isEqualTo(LIMIT);
        assertThat(database.queryLong("SELECT sum(deliveries) FROM pending_budget")).isEqualTo(LIMIT);
    }

    private String clock(String name, ClockSettings.Mode mode) {
        store.clocks().create(name, mode, 0, ClockSettings.DeliveryMode.QUEUE);
        clocks.add(name);
        return name;
    }

    /** The budget's totals and the rows they count, as one comparable line. */
    private String budgetAndRows() {
        return database.queryLong("SELECT sum(timers) FROM pending_budget") + " timers, "
                + database.queryLong("SELECT sum(bytes) FROM pending_budget") + " bytes, "
                + database.queryLong("SELECT sum(deliveries) FROM pending_budget") + " deliveries; rows: "
                + database.queryLong("SELECT count(*) FROM timers") + " timers, "
                + database.queryLong("SELECT count(*) FROM deliveries") + " deliveries";
    }
}
