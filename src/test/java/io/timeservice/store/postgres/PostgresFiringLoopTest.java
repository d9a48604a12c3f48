package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Precondition;
import io.timeservice.store.StoreMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL store's firing loop against a real database: system clocks' timers become ready deliveries by
 * themselves, a local change due sooner wakes a loop that planned a long sleep, leases expire into retries, and two
 * loops on one schema fire each timer once. The look's statements, the purge and the sampler have tests of their own
 * ({@code FiringLookSqlTest}, {@code AckedRowPurgeTest}, {@code StoreSamplerTest}). Most tests set a slow poll of 10 minutes, so only a due time the loop
 * knew of, or a wake-up by a change on its own instance, can explain firing within the 60 s every wait allows.
 */
class PostgresFiringLoopTest {

    private static final Duration NEVER_IN_THIS_TEST = Duration.ofMinutes(10);

    private TestDatabase database;
    private PostgresStore store;

    @BeforeEach
    void open() {
        database = TestDatabase.create(PostgresFiringLoopTest.class, 6);
        store = openStore();
        store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
    }

    @AfterEach
    void close() {
        store.close();
        database.close();
    }

    @Test
    void timersOfASystemClock_becomeReadyDeliveries_atTheDueTimesTheLoopKnew() throws Exception {
        store.timerChanges().add("s", "a", 100, 0, null);
        store.timerChanges().add("s", "b", 300, 0, null);
        store.timerChanges().add("s", "c", 500, 0, null);

        store.startFiring(settings(NEVER_IN_THIS_TEST)); // its first look finds them all pending, none due

        Counts.awaitAtLeast(() -> count("ready"), 3, "ready deliveries");
        assertThat(store.deliveries().claim("s", 10, 30_000)).extracting(ClaimedDelivery::id).containsExactly("a", "b", "c");
        assertThat(store.timerReads().firstN("s", 10).timers()).isEmpty();
    }

    @Test
    void aLocalAddDueSooner_wakesALoopThatPlannedALongSleep() throws Exception {
        store.timerChanges().add("s", "in-an-hour", 3_600_000, 0, null);
        store.startFiring(settings(NEVER_IN_THIS_TEST));
        LoopSleeps.awaitSleepingLongerThan(store, database, 60_000);

        store.timerChanges().add("s", "soon", 50, 0, null);

        Counts.awaitAtLeast(() -> count("ready"), 1, "the sooner timer ready");
        assertThat(store.deliveries().claim("s", 10, 30_000)).extracting(ClaimedDelivery::id).containsExactly("soon");
    }

    @Test
    void aLocalEditDueSooner_wakesTheLoopToo() throws Exception {
        store.timerChanges().add("s", "moved", 3_600_000, 0, null);
        store.startFiring(settings(NEVER_IN_THIS_TEST));
        LoopSleeps.awaitSleepingLongerThan(store, database, 60_000);

        store.timerChanges().edit("s", "moved", 50L, null, Precondition.NONE);

        Counts.awaitAtLeast(() -> count("ready"), 1, "the edited timer ready");
    }

    @Test
    void anExpiredLease_becomesWaiting_thenReadyWithAttempt2_throughTheLoop() throws Exception {
        store.timerChanges().add("s", "job", 0, 0, null);
        store.startFiring(settings(NEVER_IN_THIS_TEST));
        Counts.awaitAtLeast(() -> count("ready"), 1, "the job ready");
        LoopSleeps.awaitSleepingLongerThan(store, database, 60_000);

        assertThat(store.deliveries().claim("s", 1, 1_000)).hasSize(1); // the shortest lease; the claim tells the loop its end

        Counts.awaitAtLeast(() -> count("waiting"), 1, "the expired lease waiting for its retry");
        Counts.awaitAtLeast(() -> count("ready"), 1, "the retry ready"); // after the default backoff (0.8-1 s)
        List<ClaimedDelivery> again = store.deliveries().claim("s", 1, 30_000);
        assertThat(again).extracting(ClaimedDelivery::attempt).containsExactly(2);
    }

    @Test
    void aLeaseShortenedByAnExtend_expiresThroughTheLoop() throws Exception {
        ClaimedDelivery claimed = claimedForAnHourWhileTheLoopSleepsLong();

        assertThat(store.deliveries().extend("s", "job", claimed.claim().toString(), 1_000)).isNotNull();

        Counts.awaitAtLeast(() -> count("waiting") + count("ready"), 1, "the shortened lease expired");
    }

    @Test
    void aNackedDelivery_isReadyAgainAfterItsRetryTime_throughTheLoop() throws Exception {
        ClaimedDelivery claimed = claimedForAnHourWhileTheLoopSleepsLong();

        assertThat(store.deliveries().nack("s", "job", claimed.claim().toString(), 100L)).isNotNull();

        Counts.awaitAtLeast(() -> count("ready"), 1, "the nacked job ready again");
    }

    @Test
    void twoLoopsOnOneSchema_fireEachTimerOnce() throws Exception {
        PostgresStore other = openStore();
        try {
            Duration racing = Duration.ofMillis(20); // both look often, so they race for the same rows
            store.startFiring(new PostgresFiringLoop.Settings(racing, 50, Duration.ofMinutes(5), NEVER_IN_THIS_TEST));
            other.startFiring(new PostgresFiringLoop.Settings(racing, 50, Duration.ofMinutes(5), NEVER_IN_THIS_TEST));
            Random random = new Random(18);
            int timers = 2_000;
            for (int i = 0; i < timers; i++) {
                (i % 2 == 0 ? store : other).timerChanges().add("s", "t" + i, random.nextInt(500), 0, null);
            }

            Counts.awaitAtLeast(() -> count("ready"), timers, "every timer ready");

            assertThat(database.queryLong("SELECT count(DISTINCT id) FROM deliveries")).isEqualTo(timers);
            assertThat(database.queryLong("SELECT count(*) FROM deliveries")).isEqualTo(timers);
            assertThat(database.queryLong("SELECT count(*) FROM timers")).isZero();
            // a second firing of a timer would fail its look (the deliveries' primary key is the timer's sequence)
            assertThat(store.firing().failedLooks()).isZero();
            assertThat(other.firing().failedLooks()).isZero();
        } finally {
            other.close();
        }
    }

    /**
     * The loop looks, finds the clock due (a timer and an ended lease), and waits to fire it behind the test's lock on
     * the clock's row; the test deletes the clock meanwhile. The look must skip the deleted clock in both its steps
     * (firing, then releasing) and go on, not fail as if the database were unreachable.
     */
    @Test
    void aClockDeletedBetweenTheLookAndItsSteps_isSkipped_andTheLookDoesNotFail() throws Exception {
        store.timerChanges().add("s", "held", 0, 0, null);
        assertThat(store.clockFiring().fireDue("s", 10)).isEqualTo(1);
        store.deliveries().claim("s", 1, 3_600_000);
        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1000 WHERE clock = 's'");
        store.timerChanges().add("s", "due", 0, 0, null);
        try (Connection deleting = DriverManager.getConnection(database.jdbcUrl())) {
            deleting.setAutoCommit(false);
            deleting.createStatement().execute("SELECT * FROM clocks WHERE name = 's' FOR UPDATE");
            PostgresFiringLoop loop = store.startFiring(settings(NEVER_IN_THIS_TEST));
            LockWaits.awaitBlockedBy(database, LockWaits.backendPid(deleting)); // the loop, firing the clock
            deleting.createStatement().execute("DELETE FROM clocks WHERE name = 's'");
            long deletedAt = System.currentTimeMillis();
            deleting.commit();

            Poll.until("a look that ended after the deletion", Duration.ofMinutes(1),
                    () -> loop.lastLookWallMillis() > deletedAt);
            assertThat(loop.failedLooks()).as("looks that failed").isZero();
            assertThat(loop.failing()).isFalse();
        }
    }

    /**
     * A store whose calls and loop wait for row locks as long as a test may hold them ({@link LockWaits#PATIENT}): a
     * look that gave up after the default 2 s behind the test's lock, or behind the other loop's under load, would
     * count as failed.
     */
    private PostgresStore openStore() {
        return PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
    }

    private static PostgresFiringLoop.Settings settings(Duration slowPoll) {
        return new PostgresFiringLoop.Settings(slowPoll, 10_000, Duration.ofMinutes(5), NEVER_IN_THIS_TEST);
    }

    private int count(String state) {
        return (int) database.queryLong("SELECT count(*) FROM deliveries WHERE state = '" + state + "'");
    }

    /** A job fired by the loop and claimed with a lease of an hour; the loop then asleep with a long plan. */
    private ClaimedDelivery claimedForAnHourWhileTheLoopSleepsLong() throws InterruptedException {
        store.timerChanges().add("s", "job", 0, 0, null);
        store.startFiring(settings(NEVER_IN_THIS_TEST));
        Counts.awaitAtLeast(() -> count("ready"), 1, "the job ready");
        ClaimedDelivery claimed = store.deliveries().claim("s", 1, 3_600_000).get(0);
        LoopSleeps.awaitSleepingLongerThan(store, database, 60_000);
        return claimed;
    }
}
